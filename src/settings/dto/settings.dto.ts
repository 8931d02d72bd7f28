import { ApiProperty } from '@nestjs/swagger';

export class IntegrationDto {
  @ApiProperty({ example: true }) enabled!: boolean;
  @ApiProperty({ type: [String], example: ['acme-corp'] }) orgs!: string[];
  @ApiProperty({ type: [String], example: ['123456789012'] }) accounts!: string[];
}

/** The integrations settings: one source-code host and one cloud provider, always both keys. */
export class IntegrationsDto {
  @ApiProperty({ type: IntegrationDto }) github!: IntegrationDto;
  @ApiProperty({ type: IntegrationDto }) aws!: IntegrationDto;
}
