import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The result object returned by update, assign/remove service, delete, set owners, revoke (docs/inventory.md). */
export class ResultDto {
  @ApiProperty({ example: true }) ok!: boolean;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Application 12 updated' }) message?: string | null;
}
