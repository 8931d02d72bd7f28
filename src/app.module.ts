import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import { AppGuard } from './app-guard';
import { ApplicationsModule } from './applications/applications.module';
import { AuthModule } from './auth/auth.module';
import { CliApiModule } from './cli-api/cli-api.module';
import { ClockModule } from './common/clock/clock.module';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { RequestValidationPipe } from './common/pipes/request-validation.pipe';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { RedisModule } from './database/redis.module';
import { GraphModule } from './graph/graph.module';
import { HealthModule } from './health/health.module';
import { InventoryImportModule } from './inventory-import/inventory-import.module';
import { LoggingModule } from './logging/logging.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
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
        ClockModule.forRoot(),
        RateLimitModule,
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
        { provide: APP_GUARD, useClass: AppGuard },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
