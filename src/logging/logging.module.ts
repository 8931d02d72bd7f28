import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Global, Inject, Module, RequestMethod, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AppLogger, bindRequestLog } from './app-logger';
import { prettyDestination, resolveLogFormat } from './pretty-log';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

const HTTP_LOGGER = Symbol('HTTP_LOGGER');

/**
 * Logs (pino) with a request id: JSON lines, or human-readable ones on a terminal (LOG_FORMAT). Only method, route path, status and timing are logged per
 * request: never headers (Authorization, cookies), bodies, query strings or file names.
 */
@Global()
@Module({})
export class LoggingModule implements NestModule {
  constructor(@Inject(HTTP_LOGGER) private readonly http: HttpLogger) {}

  static forRoot(destination?: DestinationStream): DynamicModule {
    return {
      module: LoggingModule,
      providers: [
        {
          provide: HTTP_LOGGER,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig): HttpLogger =>
            pinoHttp(
              {
                level: config.logLevel,
                genReqId: (req: IncomingMessage) => {
                  const given = req.headers['x-request-id'];
                  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
                },
                customProps: () => ({ service: 'bulwark' }),
                autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') || req.url === '/metrics' },
                serializers: {
                  req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
                  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
                },
                // Defence in depth: should anything put headers on a log line, they are censored.
                redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization', 'token'], censor: '[redacted]' },
              },
              destination ?? (resolveLogFormat(config.logFormat, process.stdout.isTTY === true) === 'pretty' ? prettyDestination(process.stdout) : undefined),
            ),
        },
        { provide: AppLogger, inject: [HTTP_LOGGER], useFactory: (http: HttpLogger) => new AppLogger(http) },
      ],
      exports: [AppLogger],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(this.http, bindRequestLog).forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }
}
