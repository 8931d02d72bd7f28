import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { completeScan } from './engine/scan-engine';
import type { Judge, ScanReport } from './engine/scan-report.types';
import { JUDGE } from './judge/judge.token';
import { scoreFile } from './scoring/score-file';
import { SCAN_EXECUTOR } from './scanner.tokens';
import type { ScanExecutor } from './worker/scan-pool';

export interface ScanUpload {
  filename: string | null;
  bytes: Uint8Array;
}

/**
 * Runs one scan: the CPU-bound phase in the worker pool (capacity, deadline, crash isolation),
 * then the judge (network wait, bounded by its own timeout and by what is left of the scan
 * deadline) and scoring on the event loop. Stores nothing and logs no content or file names.
 */
@Injectable()
export class ScannerService implements OnApplicationShutdown {
  constructor(
    @Inject(SCAN_EXECUTOR) private readonly executor: ScanExecutor,
    @Inject(JUDGE) private readonly judge: Judge,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async scan(upload: ScanUpload): Promise<ScanReport> {
    const began = Date.now();
    const prepared = await this.executor.prepare({ filename: upload.filename, bytes: upload.bytes });
    // The judge gets what is left of the scan deadline (at least 1 s): when it runs out the judge
    // answers `timeout` and the file is scored statically. A slow judge never turns into a 502.
    const judgeBudget = Math.max(this.config.scan.timeoutMs - (Date.now() - began), 1000);
    return completeScan(prepared, { judge: this.judge, scoreFile, signal: AbortSignal.timeout(judgeBudget) });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.executor.close();
  }
}
