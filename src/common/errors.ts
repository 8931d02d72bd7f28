/**
 * Typed domain errors. Modules (and the Nest-free scanner engine) throw these; the one global
 * exception filter maps each class to its status and `{"detail": ...}` body (docs/errors.md).
 * Plain classes on purpose: nothing here imports Nest.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  constructor(readonly detail: string) {
    super(detail);
    this.name = new.target.name;
  }
}

/** 400: unparseable body, empty or unextractable upload. */
export class BadRequestError extends DomainError {
  readonly status = 400;
}

/** 401: missing, malformed, unknown, expired or revoked credential. */
export class UnauthorizedError extends DomainError {
  readonly status = 401;
}

/** 403: authenticated but lacking the scope. */
export class ForbiddenError extends DomainError {
  readonly status = 403;
}

/** 404: unknown resource, or one of another tenant. */
export class NotFoundError extends DomainError {
  readonly status = 404;
}

/** 409: uniqueness conflict (e.g. duplicate application name within the tenant). */
export class ConflictError extends DomainError {
  readonly status = 409;
}

/** 413: body or upload over a limit. The detail names the offending file and the limit. */
export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
}

/** One entry of a 422 body: where (`["body","service_ids",2]`), what, and a machine-readable type. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** 422: any validation failure of body, query or path. */
export class ValidationFailedError extends DomainError {
  readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

/** 429: rate limit, cooldown or quota. `retryAfterSeconds` becomes the Retry-After header. */
export class RateLimitedError extends DomainError {
  readonly status = 429;
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
    /** App-budget headers to send with the 429 (only when the app budget rejected). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** 502: the scanner ran but produced no result (worker crash, internal deadline). */
export class ScannerFailedError extends DomainError {
  readonly status = 502;
}

/**
 * 503: scan capacity saturated (retryAfterSeconds set, request never processed), or the scanner
 * or database is down (retryAfterSeconds undefined: the client backs off on its own schedule).
 */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  constructor(
    detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }
}
