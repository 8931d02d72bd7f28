import { Global, Inject, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { buildDataSourceOptions, createDataSource } from './data-source-options';
import { runMigrationsLocked } from './run-migrations';
import { UnitOfWork } from './unit-of-work';

/** Runs pending migrations once the DataSource is up: at start-up, never `synchronize` (docs/decisions/0020-config-providers-and-migrations.md). */
@Injectable()
class StartupMigrations implements OnModuleInit {
  private readonly logger = new Logger('Database');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.migrationsRun) return;
    const ran = await runMigrationsLocked(this.dataSource, this.config.database.kind === 'pglite');
    if (ran.length) this.logger.log(`Applied ${ran.length} migration(s): ${ran.join(', ')}`);
  }
}

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config),
        // Embedded PGlite cannot be "down"; a real server gets a few tries at start-up.
        retryAttempts: config.database.kind === 'postgres' ? 3 : 0,
        retryDelay: 1000,
      }),
      dataSourceFactory: async (options) => createDataSource(options!).initialize(),
    }),
  ],
  providers: [StartupMigrations, UnitOfWork],
  exports: [UnitOfWork],
})
export class DatabaseModule {}
