import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, type LoggerService } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import type { HttpLogger } from 'pino-http';

/** The request's logger (pino-http's `req.log`, carrying the request id) while a request is handled. */
const requestLog = new AsyncLocalStorage<Pino>();

/** Runs the rest of the request inside its logger's context, so Nest log lines carry its id. */
export function bindRequestLog(req: IncomingMessage & { log?: Pino }, _res: ServerResponse, next: () => void): void {
  if (req.log) requestLog.run(req.log, next);
  else next();
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's logger on pino (docs/decisions/0009-node-20-dependency-set.md: replaces nestjs-pino, whose
 * releases for Nest 12 require Node 22). Nest calls `log(message, ...params, context)`: the last
 * parameter is the context, an object message is merged into the line, an Error becomes `err`.
 */
@Injectable()
export class AppLogger implements LoggerService {
  constructor(private readonly http: HttpLogger) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.call('trace', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.call('debug', message, params);
  }
  log(message: unknown, ...params: unknown[]): void {
    this.call('info', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.call('warn', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.call('error', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.call('fatal', message, params);
  }

  private call(level: Level, message: unknown, params: unknown[]): void {
    const logger = requestLog.getStore() ?? this.http.logger;
    const fields: Record<string, unknown> = {};
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (message instanceof Error) {
      fields.err = message;
      logger[level](fields, ...(rest as []));
    } else if (typeof message === 'object' && message !== null) {
      logger[level]({ ...fields, ...message }, ...(rest as []));
    } else if (level === 'error' && typeof message === 'string' && rest.length === 1 && typeof rest[0] === 'string' && rest[0].includes('\n    at ')) {
      // Nest's exception handlers call error(message, stack, context).
      const err = new Error(message);
      err.stack = rest[0];
      logger.error({ ...fields, err });
    } else {
      logger[level](fields, String(message), ...(rest as []));
    }
  }
}
