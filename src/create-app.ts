import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { AppModule, type AppModuleOptions } from './app.module';
import { AppLogger } from './logging/app-logger';
import { loadConfig, type AppConfig } from './config/app-config';
import { replicaHeaderMiddleware } from './common/replica-header.middleware';
import { serveOpenApi } from './openapi/openapi';
import { installRateLimiting } from './rate-limit/rate-limit.module';
import { DEFAULT_SCAN_LIMITS } from './scanner/archive/scan-limits';
import { MULTIPART_OVERHEAD_BYTES, requestBodyCap } from './common/security/request-body-cap.middleware';
import { rejectNulCharacters } from './common/security/nul-characters.middleware';
import { securityHeaders } from './common/security/security-headers';
import { applyServerTimeouts } from './common/security/server-timeouts';

/** Options for NestFactory.create / createNestApplication: body parsers are ours (configureApp). */
export const NEST_APP_OPTIONS = { bufferLogs: true, bodyParser: false } as const;

/**
 * Everything applied to the app after module creation. main.ts, the e2e tests and the benchmarks
 * all come through here so they exercise the same pipeline.
 */
export function configureApp(app: INestApplication, config: AppConfig): void {
  const nest = app as NestExpressApplication;
  nest.useLogger(nest.get(AppLogger));
  // Hardening first, so every response (403 edge blocks and 413s included) carries it (docs/security.md).
  applyServerTimeouts(nest.getHttpServer());
  nest.use(securityHeaders());
  if (config.replicaId) nest.use(replicaHeaderMiddleware(config.replicaId));
  // Edge and per-endpoint limits run raw, before body parsing and auth: a flood costs no parsing (docs/decisions/0023-rate-limiting-model.md).
  installRateLimiting(nest);
  nest.use(requestBodyCap({ jsonLimitBytes: config.jsonBodyLimitBytes, uploadLimitBytes: DEFAULT_SCAN_LIMITS.maxUploadBytes + MULTIPART_OVERHEAD_BYTES }));
  // Not strict: any JSON value parses, so a well-formed body of the wrong shape ("tier", 5, null)
  // reaches validation and is answered 422; only unparseable JSON is a 400.
  nest.useBodyParser('json', { limit: config.jsonBodyLimitBytes, strict: false });
  nest.use(rejectNulCharacters());
  if (config.corsOrigins.length) nest.enableCors({ origin: config.corsOrigins, credentials: false });
  nest.enableShutdownHooks();
  serveOpenApi(nest);
}

/**
 * The HTTP adapter over an Express instance whose router is strict about trailing slashes. It must
 * be set before Nest first touches the router: Express 5 reads the setting when it creates it.
 */
export function createHttpAdapter(): ExpressAdapter {
  const instance = express();
  instance.set('strict routing', true);
  instance.disable('x-powered-by');
  return new ExpressAdapter(instance);
}

export async function createApp(options: AppModuleOptions = {}): Promise<NestExpressApplication> {
  const config: AppConfig = options.config ?? loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ ...options, config }), createHttpAdapter(), NEST_APP_OPTIONS);
  configureApp(app, config);
  return app;
}
