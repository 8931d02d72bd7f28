import { Logger } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { exceptionToResponse, logErrorResponse } from '../../common/filters/exception-to-response';
import type { ValidationIssue } from '../../common/errors';

/** Machine-readable part of a tool error: what the REST endpoint would have answered. */
export interface ToolErrorMeta {
  status: number;
  detail: unknown;
  retry_after_seconds?: number;
}

/** `_meta` key under which tool errors carry {@link ToolErrorMeta}. */
export const TOOL_ERROR_META_KEY = 'bulwark/error';

const logger = new Logger('McpTools');

/** A successful tool result: the structured value plus its JSON as text (for clients without structuredContent). */
export function toolSuccess(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function describeDetail(detail: unknown): string {
  if (Array.isArray(detail)) {
    return (detail as ValidationIssue[]).map((i) => `${Array.isArray(i.loc) ? i.loc.join('.') : '?'}: ${i.msg}`).join('; ');
  }
  return typeof detail === 'string' ? detail : JSON.stringify(detail);
}

/**
 * Maps any error a tool raises to an MCP tool error (`isError: true`) carrying the HTTP-equivalent
 * answer, through the same mapping as the REST exception filter: status, detail (413 limits,
 * 404, 422 issues, 503 capacity...) and Retry-After as `retry_after_seconds`. Unexpected errors
 * are logged with their stack and reported as a bare 500, outages logged at warn, exactly like REST.
 */
export function toolError(err: unknown): CallToolResult {
  const out = exceptionToResponse(err);
  logErrorResponse(logger, err, out);
  const detail = out.body?.detail ?? STATUS_CODES[out.status] ?? 'Error';
  const retry = out.headers['Retry-After'];
  const meta: ToolErrorMeta = { status: out.status, detail };
  let text = `HTTP ${out.status} ${STATUS_CODES[out.status] ?? 'Error'}: ${describeDetail(detail)}`;
  if (retry !== undefined) {
    meta.retry_after_seconds = Number(retry);
    text += ` Retry after ${retry} seconds.`;
  }
  return { isError: true, content: [{ type: 'text', text }], _meta: { [TOOL_ERROR_META_KEY]: meta } };
}

/** Runs a tool body, turning a thrown error into {@link toolError}. */
export async function runTool(body: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return toolSuccess(await body());
  } catch (err) {
    return toolError(err);
  }
}
