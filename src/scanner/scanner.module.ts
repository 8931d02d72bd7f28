import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { DEFAULT_SCAN_LIMITS } from './archive/scan-limits';
import { JudgeModule } from './judge/judge.module';
import { ScanUploadInterceptor } from './scan-upload.interceptor';
import { ScannerController } from './scanner.controller';
import { ScannerService } from './scanner.service';
import { SCAN_EXECUTOR, SCAN_POOL_OPTIONS, SCAN_UPLOAD_LIMIT_BYTES } from './scanner.tokens';
import { PiscinaScanExecutor, type ScanPoolOptions } from './worker/scan-pool';

/**
 * The agent-file scan endpoint. The engine is a Nest-free library (engine/, archive/, rules/,
 * scoring/); this module adds the upload handling, the worker pool (scan capacity) and the judge.
 */
@Module({
  imports: [JudgeModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => config.judge })],
  controllers: [ScannerController],
  providers: [
    ScannerService,
    ScanUploadInterceptor,
    { provide: SCAN_UPLOAD_LIMIT_BYTES, useValue: DEFAULT_SCAN_LIMITS.maxUploadBytes },
    {
      provide: SCAN_POOL_OPTIONS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ScanPoolOptions => ({
        threads: config.scan.workers,
        maxQueue: config.scan.maxQueue,
        timeoutMs: config.scan.timeoutMs,
      }),
    },
    { provide: SCAN_EXECUTOR, inject: [SCAN_POOL_OPTIONS], useFactory: (options: ScanPoolOptions) => new PiscinaScanExecutor(options) },
  ],
  exports: [ScannerService],
})
export class ScannerModule {}
