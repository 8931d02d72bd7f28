import { prepareScan } from '../engine/scan-engine';
import { createStaticAnalyzer } from '../rules/static-analyzer';
import type { ScanEngineModule } from './scan-task.types';

/** The production engine a scan worker runs: the real rule engine, built once per thread. */
const analyzer = createStaticAnalyzer();

export const prepare: ScanEngineModule['prepare'] = (task, options) =>
  prepareScan({ filename: task.filename, bytes: task.bytes }, { analyzer, limits: options.limits });
