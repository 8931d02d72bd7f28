import { randomUUID } from 'node:crypto';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';

type ModuleImport = Type<unknown> | DynamicModule;
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { BOOTSTRAP_OUTPUT } from '../../src/auth/bootstrap-admin-key';
import { ApiKeysRepository } from '../../src/auth/persistence/api-keys.repository';
import { ALL_SCOPES, type Scope } from '../../src/auth/principal';
import type { AppConfig } from '../../src/config/app-config';
import { configureApp, createHttpAdapter, NEST_APP_OPTIONS } from '../../src/create-app';
import { testConfig } from './test-config';

export interface TestTenant {
  id: string;
  slug: string;
  /** A key of this tenant with the given scopes (default: all). */
  key(scopes?: Scope[], extra?: { expiresAt?: Date | null; rateLimitPerMinute?: number | null }): Promise<string>;
}

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  dataSource: DataSource;
  /** supertest bound to the app's HTTP server. */
  http: () => ReturnType<typeof request>;
  /** A fresh tenant with a unique slug, so tests sharing one PostgreSQL never see each other. */
  tenant(slug?: string): Promise<TestTenant>;
  /** Lines the bootstrap would print to stdout. */
  bootstrapLines: string[];
  close(): Promise<void>;
}

export interface CreateTestAppOptions {
  config?: Partial<AppConfig>;
  env?: Record<string, string>;
  logDestination?: DestinationStream;
  /** Extra (test-only) modules mounted beside the app. */
  imports?: ModuleImport[];
  /** Replace providers (fakes: judge, clock, scan engine, ...). */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/** Boots the whole app as production does (same module, same configureApp), on a real database. */
export async function createTestApp(options: CreateTestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.config, options.env);
  const bootstrapLines: string[] = [];
  let builder = Test.createTestingModule({ imports: [AppModule.forRoot({ config, logDestination: options.logDestination }), ...(options.imports ?? [])] })
    .overrideProvider(BOOTSTRAP_OUTPUT)
    .useValue((line: string) => bootstrapLines.push(line));
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication(createHttpAdapter(), NEST_APP_OPTIONS);
  configureApp(app, config);
  await app.init();
  const dataSource = app.get(DataSource);
  const repository = app.get(ApiKeysRepository);
  const apiKeys = app.get(ApiKeysService);
  const server = app.getHttpServer() as App;

  const tenant = async (slug = `t-${randomUUID()}`): Promise<TestTenant> => {
    const t = await repository.findOrCreateTenant(slug);
    return {
      id: t.id,
      slug: t.slug,
      key: async (scopes = [...ALL_SCOPES], extra = {}) =>
        (
          await apiKeys.create({
            tenantId: t.id,
            name: `test-${randomUUID().slice(0, 8)}`,
            scopes,
            expiresAt: extra.expiresAt ?? null,
            rateLimitPerMinute: extra.rateLimitPerMinute ?? null,
          })
        ).token,
    };
  };

  return {
    app,
    config,
    dataSource,
    http: () => request(server),
    tenant,
    bootstrapLines,
    close: () => app.close(),
  };
}
