import { ApiProperty } from '@nestjs/swagger';

const SECTION_EXAMPLE = {
  services: 296,
  code_roots: 293,
  resources: 3500,
  relations: 1132,
  packages: 8016,
  finding_counts: 629,
  applications: 40,
  integrations: 2,
  tenant_settings: 1,
};

export class ImportResultDto {
  @ApiProperty({ example: true }) ok!: boolean;
  @ApiProperty({ enum: ['merge', 'replace'] }) mode!: 'merge' | 'replace';
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, example: SECTION_EXAMPLE, description: 'Entries written per section.' })
  counts!: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { ...SECTION_EXAMPLE, services: 0, resources: 12, packages: 40, tenant_settings: 0 },
    description: 'Rows removed by mode "replace".',
  })
  deleted!: Record<string, number>;
}
