import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { prettyDestination, resolveLogFormat } from './pretty-log';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Logs (pino) with a request id: JSON lines, or human-readable ones on a terminal (LOG_FORMAT). Only method, route path, status and timing are logged per
 * request: never headers (Authorization, cookies), bodies, query strings or file names.
 */
@Module({})
export class LoggingModule {
  static forRoot(destination?: DestinationStream): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            pinoHttp: [
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
            ].filter((x) => x !== undefined) as never,
          }),
        }),
      ],
    };
  }
}
