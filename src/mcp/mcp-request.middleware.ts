import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { NextFunction, Request, Response } from 'express';
import { McpAuthenticator, type McpAuthResult } from './mcp-authenticator';
import { checkMcpOrigin, type McpOriginPolicy } from './mcp-origin';
import { MCP_ORIGIN_POLICY } from './mcp.tokens';

/** What the middleware learnt about the credential of an /mcp request (read by the controller). */
export type McpRequestAuth = McpAuthResult | { kind: 'failed'; error: unknown };

const states = new WeakMap<object, McpRequestAuth>();

/** The first MCP protocol version without JSON-RPC batching (2025-03-26 had it; 2025-06-18 removed it). */
const BATCHES_REMOVED_IN = '2025-06-18';

/**
 * Whether a client speaking `version` (its MCP-Protocol-Version header) may send a batch. Versions
 * are dates, so later ones compare greater; clients that send no header speak 2025-03-26.
 */
export function batchesAllowed(version: string): boolean {
  return version < BATCHES_REMOVED_IN;
}

export function getMcpRequestAuth(req: object): McpRequestAuth | undefined {
  return states.get(req);
}

/**
 * Runs before the guards on /mcp: refuses a foreign Host/Origin (403, DNS rebinding) and a batch
 * from a client whose protocol version has none (400 Invalid Request), then resolves
 * the credential and sets `req.principal`, so the global rate-limit guard charges the right MCP
 * class (API key → its REST budget, OAuth → tenant + client + subject, none or unverified → the
 * caller's network). The route is @Public() for the REST auth guard, which only knows API keys.
 * Never throws: failures are recorded and answered by the controller after rate limiting.
 */
@Injectable()
export class McpRequestMiddleware implements NestMiddleware {
  constructor(
    private readonly authenticator: McpAuthenticator,
    @Inject(MCP_ORIGIN_POLICY) private readonly originPolicy: McpOriginPolicy,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    const verdict = checkMcpOrigin(this.originPolicy, req.headers.host, req.headers.origin);
    if (!verdict.ok) {
      res.status(403).json({ detail: verdict.reason });
      return;
    }
    const version = req.headers['mcp-protocol-version'];
    if (Array.isArray(req.body) && typeof version === 'string' && !batchesAllowed(version)) {
      // Before the guards: refused, so not charged (docs/decisions/0005-mcp-batches.md).
      res.status(400).json({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: ErrorCode.InvalidRequest,
          message: `Invalid Request: JSON-RPC batches are not part of MCP protocol version ${version}; send one message per request`,
        },
      });
      return;
    }
    let auth: McpRequestAuth;
    try {
      auth = await this.authenticator.authenticate(req.headers.authorization);
    } catch (error) {
      auth = { kind: 'failed', error };
    }
    states.set(req, auth);
    if (auth.kind === 'principal') req.principal = auth.principal;
    next();
  }
}
