import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import { ApplicationsModule } from './applications/applications.module';
import { AuthModule } from './auth/auth.module';
import { CliApiModule } from './cli-api/cli-api.module';
import { ClockModule } from './common/clock/clock.module';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { RequestValidationPipe } from './common/pipes/request-validation.pipe';
import type { AppConfig } from './config/app-config';
import { APP_CONFIG, ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { REDIS_CLIENT, RedisModule, type RedisClient } from './database/redis.module';
import { GraphModule } from './graph/graph.module';
import { HealthModule } from './health/health.module';
import { InventoryImportModule } from './inventory-import/inventory-import.module';
import { LoggingModule } from './logging/logging.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { rateLimitOptionsFromConfig } from './rate-limit/rate-limit.options';
import { SbomModule } from './sbom/sbom.module';
import { ScannerModule } from './scanner/scanner.module';
import { SettingsModule } from './settings/settings.module';

export interface AppModuleOptions {
  /** Pre-built config (tests, CLI); default: read from the environment once. */
  config?: AppConfig;
  /** Log destination (tests capture logs); default stdout. */
  logDestination?: DestinationStream;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        LoggingModule.forRoot(options.logDestination),
        DatabaseModule,
        RedisModule,
        MetricsModule,
        AuthModule,
        // After AuthModule: its global guard must set req.principal before the rate-limit guard runs.
        ClockModule.forRoot(),
        RateLimitModule.forRootAsync({
          inject: [APP_CONFIG, REDIS_CLIENT],
          useFactory: (config: AppConfig, redis: RedisClient) => rateLimitOptionsFromConfig(config, redis),
        }),
        CliApiModule,
        HealthModule,
        ApplicationsModule,
        InventoryImportModule,
        GraphModule,
        SettingsModule,
        SbomModule,
        ScannerModule,
        McpModule,
      ],
      providers: [
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
