import { HttpException, HttpStatus, type LoggerService } from '@nestjs/common';
import { DomainError, RateLimitedError, ServiceUnavailableError, UnauthorizedError, ValidationFailedError } from '../errors';

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  /** `undefined` = no body (edge 403). */
  body: { detail: unknown } | undefined;
  /** True for unexpected errors, which are logged with their stack (never sent). */
  unexpected: boolean;
  /** A dependency that is down (logged at warn by logErrorResponse; the body does not say why). */
  outage?: string;
}

const GENERIC_DETAIL: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Validation error',
  429: 'Rate limit exceeded',
  503: 'Service unavailable',
};

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);
// node-postgres / pg-pool / PostgreSQL wordings for a connection that is gone or not accepting.
// TypeORM releases a query runner when its connection emits 'error' (server shut down, socket
// reset), so the next query or COMMIT of that transaction throws one of these instead of the
// driver's error. Nothing else in this service releases a runner mid-transaction.
const RELEASED_RUNNER_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|is not queryable|timeout exceeded when trying to connect|terminating connection|database system is (shutting down|starting up|in recovery)|Cannot use a pool after calling end|Connection refused/i;

/**
 * PostgreSQL / driver errors that mean "the database is not reachable right now" (→ 503), looked
 * for through TypeORM's `driverError`, `cause` chains and AggregateError (Node's dual-stack connect).
 * Returns the error code or name that showed it (for the log; it never names hosts), or null.
 */
function databaseUnavailable(err: unknown, depth = 0): string | null {
  if (!err || typeof err !== 'object' || depth > 4) return null;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return code;
  if (err instanceof Error && RELEASED_RUNNER_ERRORS.has(err.name)) return err.name;
  const matched = typeof e.message === 'string' ? UNAVAILABLE_MESSAGE.exec(e.message) : null;
  if (matched) return matched[0];
  const nested = [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])];
  for (const n of nested) {
    const found = n !== err ? databaseUnavailable(n, depth + 1) : null;
    if (found) return found;
  }
  return null;
}

/**
 * The exhaustive mapping of every error the app can raise to status, headers and `{"detail": …}`
 * (docs/errors.md, docs/decisions/0014-error-model.md). Pure, so the filter and the MCP layer share it.
 */
export function exceptionToResponse(err: unknown): ErrorResponse {
  if (err instanceof DomainError) {
    const headers: Record<string, string> = {};
    if (err instanceof UnauthorizedError) headers['WWW-Authenticate'] = 'Bearer';
    if (err instanceof RateLimitedError) Object.assign(headers, err.headers, { 'Retry-After': String(err.retryAfterSeconds) });
    if (err instanceof ServiceUnavailableError && err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
    const detail = err instanceof ValidationFailedError ? err.issues : err.detail;
    return { status: err.status, headers, body: { detail }, unexpected: false };
  }
  // Nest wraps body-parser errors in an HttpException whose message quotes the input
  // ("Unexpected token … "{"name": SECRET…" is not valid JSON"): map the parser's own error instead.
  const cause = err instanceof HttpException ? (err.cause as { type?: unknown } | undefined) : undefined;
  if (cause && typeof cause === 'object' && typeof cause.type === 'string') return exceptionToResponse(cause);
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const response = err.getResponse();
    // Readiness (terminus) answers 503 with the per-dependency report; keep it beside `detail`.
    if (status === 503) {
      const report = typeof response === 'object' && response !== null ? response : {};
      return { status, headers: {}, body: { detail: 'Service unavailable', ...report }, unexpected: false };
    }
    if (status >= 500) return internal();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    const detail = typeof message === 'string' && message ? message : (GENERIC_DETAIL[status] ?? HttpStatus[status] ?? 'Error');
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    // The JSON parser's own wording ("request entity too large") does not say which limit.
    if (status === 413 && !(err instanceof DomainError))
      return { status, headers, body: { detail: `Request body exceeds the size limit: ${detail}` }, unexpected: false };
    return { status, headers, body: { detail }, unexpected: false };
  }
  // body-parser / raw-body errors carry an HTTP status and a `type`.
  const bodyError = err as { status?: number; statusCode?: number; type?: string; expose?: boolean } | null;
  if (bodyError && typeof bodyError === 'object' && typeof bodyError.type === 'string' && bodyError.expose) {
    const status = bodyError.status ?? bodyError.statusCode ?? 400;
    if (bodyError.type === 'entity.parse.failed') return { status: 400, headers: {}, body: { detail: 'Malformed JSON in request body' }, unexpected: false };
    if (bodyError.type === 'entity.too.large') return { status: 413, headers: {}, body: { detail: 'Request body exceeds the size limit' }, unexpected: false };
    if (status >= 400 && status < 500) return { status, headers: {}, body: { detail: GENERIC_DETAIL[status] ?? 'Bad request' }, unexpected: false };
  }
  const outage = databaseUnavailable(err);
  if (outage) {
    return { status: 503, headers: {}, body: { detail: 'Database unavailable' }, unexpected: false, outage: `Database unavailable (${outage})` };
  }
  return internal();
}

function internal(): ErrorResponse {
  return { status: 500, headers: {}, body: { detail: 'Internal server error' }, unexpected: true };
}

/**
 * The log line of an error response, shared by the HTTP filter and the MCP tools: an unexpected
 * error at error with its stack, a dependency outage at warn (the request line alone is only info).
 */
export function logErrorResponse(logger: Pick<LoggerService, 'error' | 'warn'>, err: unknown, out: ErrorResponse): void {
  if (out.unexpected) logger.error(err instanceof Error ? (err.stack ?? err.message) : 'Non-error thrown');
  else if (out.outage) logger.warn(`${out.outage}; answered ${out.status}`);
}
