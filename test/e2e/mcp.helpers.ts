import type { Test } from 'supertest';
import type { TestApp } from '../support/create-test-app';

export const MCP_ACCEPT = 'application/json, text/event-stream';
export const PROTOCOL_VERSION = '2025-06-18';

export interface RpcOptions {
  token?: string;
  headers?: Record<string, string>;
  /** MCP-Protocol-Version header (default PROTOCOL_VERSION); null sends none, as 2025-03-26 clients do. */
  protocolVersion?: string | null;
}

let nextId = 1;

/** One raw JSON-RPC POST to /mcp, as an MCP client sends it (stateless: no session header). */
export function rpc(t: TestApp, body: unknown, options: RpcOptions = {}): Test {
  let req = t.http().post('/mcp').set('Accept', MCP_ACCEPT).set('Content-Type', 'application/json');
  const version = options.protocolVersion === undefined ? PROTOCOL_VERSION : options.protocolVersion;
  if (version !== null) req = req.set('MCP-Protocol-Version', version);
  if (options.token) req = req.set('Authorization', `Bearer ${options.token}`);
  for (const [k, v] of Object.entries(options.headers ?? {})) req = req.set(k, v);
  return req.send(body as object);
}

export function request(method: string, params: Record<string, unknown> = {}): { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> } {
  return { jsonrpc: '2.0', id: nextId++, method, params };
}

export const initialize = () => request('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'e2e', version: '0.0.0' } });

export const callTool = (name: string, args: Record<string, unknown>) => request('tools/call', { name, arguments: args });

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, { status: number; detail: unknown; retry_after_seconds?: number }>;
}

/** The `result` of a JSON-RPC answer (fails the test on a JSON-RPC error). */
export function resultOf<T = ToolResult>(body: unknown): T {
  const msg = body as { result?: T; error?: unknown };
  if (msg.error !== undefined || msg.result === undefined) throw new Error(`expected a JSON-RPC result, got ${JSON.stringify(body)}`);
  return msg.result;
}

export function toolErrorOf(body: unknown): { status: number; detail: unknown; retry_after_seconds?: number; text: string } {
  const result = resultOf(body);
  if (result.isError !== true) throw new Error(`expected a tool error, got ${JSON.stringify(body).slice(0, 500)}`);
  return { ...result._meta!['bulwark/error']!, text: result.content[0]!.text };
}
