import { All, Controller, Req, Res } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Public } from '../auth/auth.decorators';
import { RateLimitClass } from '../rate-limit/rate-limit.decorators';
import { answerInvalidParams } from './invalid-params';
import { getMcpRequestAuth } from './mcp-request.middleware';
import { McpServerFactory } from './mcp-server.factory';
import { ProtectedResourceMetadata } from './protected-resource.metadata';

/** JSON-RPC methods a caller without a credential may use (discovery). Everything else needs one. */
const TOOL_CALL = 'tools/call';

function callsTools(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === TOOL_CALL);
}

/**
 * `/mcp`: stateless Streamable HTTP (a fresh server + transport per POST, docs/mcp.md "Transport").
 * Order on a request: Host/Origin check and credential resolution (McpRequestMiddleware), the
 * rate-limit guard charging the MCP class, then here: 405 for anything but POST, 401 for a
 * credential that did not verify or a tool call without one, else the SDK answers the JSON-RPC.
 */
@ApiExcludeController()
@Public()
@RateLimitClass('mcp')
@Controller('mcp')
export class McpController {
  constructor(
    private readonly servers: McpServerFactory,
    private readonly resourceMetadata: ProtectedResourceMetadata,
  ) {}

  @All()
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.method !== 'POST') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      res.status(405).set('Allow', 'POST').json({ detail: 'Method not allowed: /mcp accepts POST (stateless Streamable HTTP)' });
      return;
    }
    const auth = getMcpRequestAuth(req) ?? { kind: 'anonymous' as const };
    if (auth.kind === 'failed') throw auth.error; // database or issuer down: the filter answers 503/500
    if (auth.kind === 'rejected') {
      this.unauthorized(res, auth.reason, true);
      return;
    }
    const principal = auth.kind === 'principal' ? auth.principal : null;
    if (principal === null && callsTools(req.body)) {
      this.unauthorized(res, this.resourceMetadata.credentialRequired(), false);
      return;
    }

    const server = this.servers.create(principal);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    answerInvalidParams(transport);
    // Express's Request is an IncomingMessage; only its typing of `id` (pino-http) differs.
    await transport.handleRequest(req as unknown as IncomingMessage, res as unknown as ServerResponse, req.body);
  }

  /** 401 with the RFC 9728 pointer MCP clients follow to find the authorization server (a plain realm without OAuth). */
  private unauthorized(res: Response, detail: string, invalidToken: boolean): void {
    res
      .status(401)
      .set('WWW-Authenticate', this.resourceMetadata.challenge(invalidToken ? 'invalid_token' : null))
      .json({ detail });
  }
}
