import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { MAX_GRAPH_SELECTION } from './graph-limits';
import { MAX_PLATFORM_ID_LENGTH } from '../inventory/inventory-enums';
import { ArrayBodyPipe } from '../common/pipes/array-body.pipe';
import { ApplicationResourceDto, GraphDto, GraphResourcePageDto, GraphResourcesQueryDto, PLATFORM_IDS_BODY } from './dto/graph.dto';
import { GraphService } from './graph.service';

const ID_PARAM = { name: 'application_id', type: 'integer', example: 12 };

@ApiTags('applications')
@ApiBearerAuth()
@Controller('api/applications/:application_id')
export class GraphController {
  constructor(private readonly graphs: GraphService) {}

  @Get('resources')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Get application resources (all member services, deduplicated, by resource_type then platform_id)' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: [ApplicationResourceDto] })
  resources(@CurrentPrincipal() principal: Principal, @Param('application_id') id: number): Promise<ApplicationResourceDto[]> {
    return this.graphs.resources(principal.tenantId, id);
  }

  @Get('graph_resources')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Get graph resources (paged; search over platform_id, name, resource_type; category filter)' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: GraphResourcePageDto })
  graphResources(
    @CurrentPrincipal() principal: Principal,
    @Param('application_id') id: number,
    @Query() query: GraphResourcesQueryDto,
  ): Promise<GraphResourcePageDto> {
    return this.graphs.graphResources(principal.tenantId, id, query);
  }

  @Get('graph')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Get graph: application, member services, selected (or all) resources, and edges' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: GraphDto })
  graph(@CurrentPrincipal() principal: Principal, @Param('application_id') id: number): Promise<GraphDto> {
    return this.graphs.graph(principal.tenantId, id);
  }

  @Put('graph')
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Update graph: replace the resource selection (platform ids of member services, ≤ 10,000); returns the new graph' })
  @ApiParam(ID_PARAM)
  @ApiBody({
    schema: { type: 'array', maxItems: MAX_GRAPH_SELECTION, items: { type: 'string', minLength: 1, maxLength: MAX_PLATFORM_ID_LENGTH } },
    examples: { select: { value: ['arn:aws:s3:::acme-payments-prod'] } },
  })
  @ApiOkResponse({ type: GraphDto })
  replaceGraph(
    @CurrentPrincipal() principal: Principal,
    @Param('application_id') id: number,
    @Body(new ArrayBodyPipe(PLATFORM_IDS_BODY)) platformIds: string[],
  ): Promise<GraphDto> {
    return this.graphs.replaceGraph(principal.tenantId, id, platformIds);
  }
}
