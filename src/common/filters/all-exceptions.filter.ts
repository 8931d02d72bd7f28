import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { exceptionToResponse, logErrorResponse, type ErrorResponse } from './exception-to-response';

/** Longest path echoed in an unknown-route 404 (the rest is cut, so a huge URL is not sent back whole). */
const MAX_ECHOED_PATH = 256;

/**
 * Nest answers a request no route matches with NotFoundException("Cannot GET /x"), Express's
 * wording; this service throws NotFoundError for its own 404s, so the exception marks an unknown route.
 */
function unknownRoute(req: Request): ErrorResponse {
  const path = (req.originalUrl ?? req.url).split('?')[0]!;
  const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
  return { status: 404, headers: {}, body: { detail: `No route for ${req.method} ${shown}` }, unexpected: false };
}

/** The one global filter: every error becomes the status and body of docs/errors.md. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const out = exception instanceof NotFoundException ? unknownRoute(http.getRequest<Request>()) : exceptionToResponse(exception);
    // Stack or outage to the log only (never the body); no request content is logged.
    logErrorResponse(this.logger, exception, out);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(out.status).set(out.headers);
    if (out.body === undefined) res.end();
    else res.json(out.body);
  }
}
