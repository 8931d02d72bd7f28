import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Principal } from '../auth/principal';
import { packageVersion } from '../common/package-version';
import { ApplicationsService } from '../applications/applications.service';
import { GraphService } from '../graph/graph.service';
import { SbomService } from '../sbom/sbom.service';
import { ScannerService } from '../scanner/scanner.service';
import { registerInventoryTools } from './tools/inventory.tools';
import { registerScanTool } from './tools/scan-agent-files.tool';

const INSTRUCTIONS =
  'Bulwark: scan AI-agent files for agent-targeting risk before installing them (scan_agent_files), and read the ' +
  'application inventory (applications, their resources, dependency graph and CycloneDX SBOM). All tools are ' +
  'read-only. Tool errors carry the HTTP status the REST API would answer (e.g. 404, 413, 422, 503 with a retry delay).';

/**
 * Builds the MCP server for ONE request (stateless Streamable HTTP, so any replica answers any
 * request; docs/decisions/0024-dependency-pitfalls.md, 5): the tools are
 * bound to the caller's principal (null for anonymous discovery; tool calls are refused before
 * they get here). Cheap: registering tools is a few object allocations.
 */
@Injectable()
export class McpServerFactory {
  constructor(
    private readonly scanner: ScannerService,
    private readonly applications: ApplicationsService,
    private readonly graph: GraphService,
    private readonly sbom: SbomService,
  ) {}

  create(principal: Principal | null): McpServer {
    const server = new McpServer({ name: 'bulwark', title: 'Bulwark', version: packageVersion() }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    registerScanTool(server, this.scanner, principal);
    registerInventoryTools(server, { applications: this.applications, graph: this.graph, sbom: this.sbom }, principal);
    // The SDK advertises tools.listChanged when tools are registered, but a stateless server has no
    // open stream to send notifications/tools/list_changed on (and its tool list never changes).
    server.server.registerCapabilities({ tools: { listChanged: false } });
    return server;
  }
}
