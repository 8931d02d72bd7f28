import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { APPLICATION_TYPES, MAX_OWNER_FIELD_LENGTH, MAX_SERVICE_IDS, TIERS } from '../application-enums';
import { MAX_INT4 } from '../../common/int4';
import type { ArrayBodyRules } from '../../common/pipes/array-body.pipe';
import { Satisfies } from '../../common/property-rule';
import { KeyPresent, NullOr } from './validators';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class OwnerInputDto {
  @ApiProperty({ example: 'jdoe', minLength: 1, maxLength: MAX_OWNER_FIELD_LENGTH })
  @Transform(trim)
  @IsString()
  @Length(1, MAX_OWNER_FIELD_LENGTH)
  login!: string;

  @ApiProperty({ example: 'Jane Doe', maxLength: MAX_OWNER_FIELD_LENGTH })
  @IsString()
  @MaxLength(MAX_OWNER_FIELD_LENGTH)
  name!: string;
}

/** Body of `POST /api/applications/` (create; docs/inventory.md "Applications"). */
export class CreateApplicationDto {
  @ApiProperty({ example: 'payments', minLength: 1, maxLength: 255, description: 'Trimmed; unique per tenant, case-insensitively (409).' })
  @Transform(trim)
  @IsString()
  @Length(1, 255)
  name!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Card payments and refunds',
    description: 'Omitted → "Created by the Bulwark application inventory."; null stays null.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional({ enum: TIERS, nullable: true, default: 'TIER_1' })
  @IsOptional()
  @IsIn(TIERS)
  tier?: string | null;

  @ApiPropertyOptional({ enum: APPLICATION_TYPES, nullable: true, default: 'static' })
  @IsOptional()
  @IsIn(APPLICATION_TYPES)
  application_type?: string | null;

  @ApiPropertyOptional({ type: OwnerInputDto, nullable: true, description: "Becomes the application's `owner` owner." })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OwnerInputDto)
  owner?: OwnerInputDto | null;

  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: 0, description: 'Import source maintaining a dynamic application.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_INT4)
  source_id?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, example: { cost_center: 'cc-42' } })
  @IsOptional()
  @IsObject()
  meta?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: 'integer', isArray: true, nullable: true, example: [101, 102], description: 'Unknown ids → 422 listing them.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SERVICE_IDS)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(MAX_INT4, { each: true })
  service_ids?: number[] | null;
}

/** Body of `PUT /api/applications/`: description and tier keys must be present (null allowed). */
export class UpdateApplicationDto {
  @ApiProperty({ type: 'integer', example: 12 })
  @IsInt()
  @Min(0)
  @Max(MAX_INT4)
  id!: number;

  @ApiProperty({ example: 'payments', minLength: 1, maxLength: 255 })
  @Transform(trim)
  @IsString()
  @Length(1, 255)
  name!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Required key; null clears the description.', example: 'Card payments' })
  @KeyPresent()
  @NullOr('isString', (v) => typeof v === 'string' && v.length <= 10_000, 'must be a string of at most 10000 characters or null')
  description!: string | null;

  @ApiProperty({ enum: TIERS, nullable: true, description: 'Required key; null keeps the current tier.' })
  @KeyPresent()
  @NullOr('isIn', (v) => (TIERS as readonly unknown[]).includes(v), `must be one of the following values: ${TIERS.join(', ')}`)
  tier!: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    nullable: true,
    description: 'Omitted or null keeps membership; an array replaces it.',
    example: [101],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SERVICE_IDS)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(MAX_INT4, { each: true })
  service_ids?: number[] | null;
}

/** One element of the assign-services body (a bare array of service ids). */
export class ServiceIdItem {
  @Satisfies('isInt', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_INT4, `must be an integer from 0 to ${MAX_INT4}`)
  value!: number;
}

export const SERVICE_IDS_BODY: ArrayBodyRules<number> = { item: ServiceIdItem, maxItems: MAX_SERVICE_IDS, arrayOf: 'integers', counted: 'items' };

export class AssignTierDto {
  @ApiProperty({ enum: TIERS, example: 'TIER_2' })
  @IsIn(TIERS)
  tier!: string;
}

function toStringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
  return parts.map((s) => s.trim()).filter(Boolean);
}
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Query of the list operations (and graph resources): page/limit/order/orders/direction/search.
 * No `example` on these: Swagger UI pre-fills "Try it out" with examples, which would silently
 * filter or reorder the result (test/e2e/openapi.e2e-spec.ts).
 */
export class ListQueryDto {
  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: 0, description: '0-based page number.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_INT4)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', default: 100, minimum: 1, maximum: 1000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'One order field, e.g. `name`.' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  order?: string | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    description: 'Several fields, `-field` for descending (e.g. `-severity,name`); wins over `order`. Repeat the parameter or separate with commas.',
  })
  @Transform(({ obj }: { obj: Record<string, unknown> }) => toStringList(obj.orders))
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  orders?: string[] | null;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], nullable: true, default: 'asc' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value !== '' ? value.toLowerCase() : undefined))
  @IsOptional()
  @IsIn(['asc', 'desc'])
  direction?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Case-insensitive substring of name or description, e.g. `pay`.' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string | null;
}
