import { initCodeParsers } from '../code/tree-sitter';
import { prepareScan } from '../engine/scan-engine';
import { createStaticAnalyzer } from '../rules/static-analyzer';
import type { ScanEngineModule } from './scan-task.types';

/** The production engine a scan worker runs: the real rule engine, built once per thread. */
const analyzer = createStaticAnalyzer();

/** The code layer's parsers load asynchronously (started by createStaticAnalyzer): a scan waits for them. */
export const prepare: ScanEngineModule['prepare'] = async (task, options) => {
  await initCodeParsers();
  return prepareScan({ filename: task.filename, bytes: task.bytes }, { analyzer, limits: options.limits, shard: task.shard });
};

export const ready: NonNullable<ScanEngineModule['ready']> = () => initCodeParsers();
