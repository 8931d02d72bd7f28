import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { APPLICATION_TYPES, BUSINESS_IMPACTS, MAX_OWNER_FIELD_LENGTH, TIERS } from '../application-enums';
import { RISK_LEVELS } from '../../inventory/inventory-enums';

export class OwnerDto {
  @ApiProperty({ example: 'jdoe', minLength: 1, maxLength: MAX_OWNER_FIELD_LENGTH }) login!: string;
  @ApiProperty({ example: 'Jane Doe', maxLength: MAX_OWNER_FIELD_LENGTH }) name!: string;
}

export class OwnersDto {
  @ApiProperty({ type: [OwnerDto] }) owner!: OwnerDto[];
  @ApiProperty({ type: [OwnerDto] }) tech_lead!: OwnerDto[];
  @ApiProperty({ type: [OwnerDto] }) security_lead!: OwnerDto[];
}

/** An application (response of create, get, assign tier; items of the list). */
export class ApplicationDto {
  @ApiProperty({ type: 'integer', nullable: true, example: 12 }) id!: number | null;
  @ApiProperty({ example: 'payments' }) name!: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Card payments and refunds' }) description!: string | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, default: 0, example: 4 }) service_count!: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, default: 0, example: 37 }) resource_count!: number | null;
  @ApiPropertyOptional({ enum: BUSINESS_IMPACTS, default: 'HIGH' }) business_impact!: string;
  @ApiPropertyOptional({ enum: TIERS, default: 'TIER_1' }) tier!: string;
  @ApiPropertyOptional({ enum: ['static', 'dynamic'], nullable: true, default: 'static' }) application_type!: string | null;
  @ApiPropertyOptional({
    enum: RISK_LEVELS,
    nullable: true,
    default: 'LOW',
    description: 'Worst open-finding severity over the member services (LOW if none).',
  })
  severity!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) created!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) updated!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, default: {}, example: { cost_center: 'cc-42' } }) meta!: Record<
    string,
    unknown
  > | null;
  @ApiPropertyOptional({ type: 'integer', isArray: true, nullable: true, example: [101, 102], description: 'Identifiers of the member services, ascending.' })
  services!: number[] | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, default: 0, description: 'Open findings in the urgent bucket, summed over member services.' })
  urgent!: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, default: 0 }) plan!: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, default: 0 }) defer!: number | null;
  @ApiProperty({ type: OwnersDto, description: 'Owners by owner type (DESIGN.md §5).' }) owners!: OwnersDto;
}

export class PagedEnvelopeDto {
  @ApiProperty({ type: 'integer', example: 250 }) total!: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'ceil(total / limit)' }) pages!: number;
  @ApiProperty({ type: 'integer', example: 100, description: 'The limit used.' }) page_size!: number;
  @ApiProperty({ type: 'integer', example: 0, description: '0-based.' }) page_number!: number;
}

export class ApplicationPageDto extends PagedEnvelopeDto {
  @ApiProperty({ type: [ApplicationDto] }) items!: ApplicationDto[];
}

export class TermDto {
  @ApiProperty({ example: 'TIER_1' }) value!: string;
  @ApiProperty({ example: 'Tier 1' }) label!: string;
  @ApiProperty({ example: 'Mission critical: an outage stops the business.' }) description!: string;
  @ApiProperty({ type: 'integer', example: 3, description: 'Applications (graph_categories: resources) with this value; zero counts included.' })
  count!: number;
}

export class TermsDto {
  @ApiProperty({ type: [TermDto] }) tier!: TermDto[];
  @ApiProperty({ type: [TermDto] }) business_impact!: TermDto[];
  @ApiProperty({ type: [TermDto] }) severity!: TermDto[];
  @ApiProperty({ type: [TermDto] }) application_type!: TermDto[];
  @ApiProperty({ type: [TermDto] }) owner_type!: TermDto[];
  @ApiProperty({ type: [TermDto] }) environment!: TermDto[];
  @ApiProperty({ type: [String], example: ['id', 'name', 'tier'] }) order_fields!: string[];
  @ApiProperty({ type: [TermDto] }) graph_categories!: TermDto[];
}

export const APPLICATION_TYPE_VALUES = APPLICATION_TYPES;
