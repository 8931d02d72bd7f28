import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { exceptionToResponse } from './exception-to-response';

/** The one global filter: every error becomes the status and body of DESIGN.md §3. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const out = exceptionToResponse(exception);
    if (out.unexpected) {
      // Stack to the log only (never the body); no request content is logged.
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : 'Non-error thrown');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(out.status).set(out.headers);
    if (out.body === undefined) res.end();
    else res.json(out.body);
  }
}
