import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI description of the multipart body; parsing and validation live in ScanUploadInterceptor. */
export class ScanUploadDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description:
      'One agent file (its client-side relative path, e.g. `.claude/settings.json`, as the file name) or one .zip bundle. ' +
      'Limits: 1 MB uploaded; 3 files, 250 KB per file, 750 KB uncompressed in total.',
  })
  file!: unknown;
}
