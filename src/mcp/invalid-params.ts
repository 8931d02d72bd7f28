import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** What this module needs of an SDK request schema (zod). */
interface RequestSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** The requests this server handles, by method, with the schema their params must meet. */
const REQUEST_SCHEMAS = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/**
 * The JSON-RPC answer to a request whose params do not have the shape its method defines
 * (`tools/call` with `arguments: "x"`, no `name`): -32602 Invalid params, or null when they do.
 */
export function invalidParamsAnswer(message: JSONRPCMessage): JSONRPCMessage | null {
  if (!isJSONRPCRequest(message)) return null;
  const schema = REQUEST_SCHEMAS.get(message.method);
  const parsed = schema?.safeParse(message);
  if (parsed === undefined || parsed.success) return null;
  const why = (parsed.error?.issues ?? []).map((i) => `${i.path.map(String).join('.') || 'request'}: ${i.message}`).join('; ');
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${why}` } };
}

/**
 * Answers malformed params before the SDK sees them. The SDK parses a request's params with the
 * method's schema before any handler runs and reports the parse failure as -32603 Internal
 * error; a client must learn it sent invalid params instead. Call after `server.connect(transport)`.
 */
export function answerInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const answer = invalidParamsAnswer(message);
    if (answer === null) deliver?.(message, extra);
    else void transport.send(answer).catch(() => undefined);
  };
}
