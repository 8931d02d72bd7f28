import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** SPEC.md "Result object": returned by update, assign/remove service, delete, set owners, revoke. */
export class ResultDto {
  @ApiProperty({ example: true }) ok!: boolean;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Application 12 updated' }) message?: string | null;
}
