import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { Transform } from 'class-transformer';
import { PagedEnvelopeDto } from '../../applications/dto/application.dto';
import { ListQueryDto } from '../../applications/dto/application-input.dto';
import { MAX_GRAPH_SELECTION } from '../graph-limits';
import { MAX_PLATFORM_ID_LENGTH, RESOURCE_CATEGORIES } from '../../inventory/inventory-enums';
import type { ArrayBodyRules } from '../../common/pipes/array-body.pipe';
import { Satisfies } from '../../common/property-rule';

/** One resource of an application (`GET /api/applications/{id}/resources`, docs/inventory.md "Graph"). */
export class ApplicationResourceDto {
  @ApiProperty({ example: 'arn:aws:s3:::acme-payments-prod', description: 'Identifier of the resource within the service.' }) platform_id!: string;
  @ApiProperty({ example: 'aws_s3_bucket' }) resource_type!: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'aws' }) source_type!: string | null;
}

export class GraphResourceDto extends ApplicationResourceDto {
  @ApiProperty({ enum: RESOURCE_CATEGORIES, example: 'storage' }) category!: string;
  @ApiProperty({ type: String, nullable: true, example: 'acme-payments-prod' }) name!: string | null;
  @ApiProperty({ type: 'integer', isArray: true, example: [101], description: 'Member services using the resource.' }) service_ids!: number[];
  @ApiProperty({ example: true, description: 'In the graph: in the stored selection, or true for all when none is stored.' }) in_graph!: boolean;
}

export class GraphResourcePageDto extends PagedEnvelopeDto {
  @ApiProperty({ type: [GraphResourceDto] }) items!: GraphResourceDto[];
}

export class GraphResourcesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: RESOURCE_CATEGORIES, nullable: true })
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsOptional()
  @IsIn(RESOURCE_CATEGORIES)
  category?: string | null;
}

export class GraphNodeDto {
  @ApiProperty({ example: 'service:101', description: 'application:<id>, service:<id> or resource:<platform_id>' }) id!: string;
  @ApiProperty({ enum: ['application', 'service', 'resource'] }) type!: string;
  @ApiProperty({ example: 'payments-api' }) label!: string;
  @ApiPropertyOptional({ type: 'integer', example: 101 }) service_id?: number;
  @ApiPropertyOptional({ example: 'arn:aws:s3:::acme-payments-prod' }) platform_id?: string;
  @ApiPropertyOptional({ example: 'aws_s3_bucket' }) resource_type?: string;
  @ApiPropertyOptional({ enum: RESOURCE_CATEGORIES }) category?: string;
}

export class GraphEdgeDto {
  @ApiProperty({ example: 'application:12' }) source!: string;
  @ApiProperty({ example: 'service:101' }) target!: string;
  @ApiProperty({ example: 'contains', description: 'contains (application→service), uses (service→resource), or an imported relation.' }) relation!: string;
}

export class GraphDto {
  @ApiProperty({ type: 'integer', example: 12 }) application_id!: number;
  @ApiProperty({ type: [String], nullable: true, description: 'Stored selection of platform ids; null = every member resource.' }) selection!: string[] | null;
  @ApiProperty({ type: [GraphNodeDto] }) nodes!: GraphNodeDto[];
  @ApiProperty({ type: [GraphEdgeDto] }) edges!: GraphEdgeDto[];
}

/** One element of the PUT graph body (a bare array of platform ids). */
export class PlatformIdItem {
  @Satisfies(
    'isString',
    (v) => typeof v === 'string' && v.length >= 1 && v.length <= MAX_PLATFORM_ID_LENGTH,
    `must be a platform id (string of 1 to ${MAX_PLATFORM_ID_LENGTH} characters)`,
  )
  value!: string;
}

export const PLATFORM_IDS_BODY: ArrayBodyRules<string> = {
  item: PlatformIdItem,
  maxItems: MAX_GRAPH_SELECTION,
  arrayOf: 'platform ids (strings)',
  counted: 'platform ids',
};
