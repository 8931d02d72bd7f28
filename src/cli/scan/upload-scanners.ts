import { DomainError } from '../../common/errors';
import { DEFAULT_SCAN_LIMITS, LOCAL_SCAN_LIMITS, type ScanLimits } from '../../scanner/archive/scan-limits';
import { scanUpload } from '../../scanner/engine/scan-engine';
import type { ScanReport } from '../../scanner/engine/scan-report.types';
import { judgeSettingsFrom, type JudgeSettings } from '../../config/app-config';
import { createJudge } from '../../scanner/judge/create-judge';
import { usePatternCompilation } from '../../scanner/rules/pattern-compilation';
import { createStaticAnalyzer, DEFAULT_FILE_BUDGET_MS } from '../../scanner/rules/static-analyzer';
import { scoreFile } from '../../scanner/scoring/score-file';
import { CliError } from '../cli-io';
import type { ApiClient } from '../http/api-client';
import { describeFailure, type FailureContext } from '../http/describe-failure';
import type { PlannedUpload } from './upload-planner';

/** A failed upload that does not stop the run (413, 400, 502 …). */
export class UploadFailedError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** A failure that every further upload would hit too (bad key, missing scope, persistent limits). */
export class RunStoppedError extends CliError {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

export interface UploadScanner {
  /** What the report header says about the judge. */
  readonly judge: string;
  /** What one upload may hold: the server's limits, or the local engine's (docs/decisions/0015-local-per-file-limit.md). */
  readonly limits: Readonly<ScanLimits>;
  scan(upload: PlannedUpload): Promise<ScanReport>;
}

/** Per-file analysis budget of `--local`: the server's budget scaled by the larger per-file limit. */
export function localFileBudgetMs(): number {
  return Math.ceil((DEFAULT_FILE_BUDGET_MS * LOCAL_SCAN_LIMITS.maxFileBytes) / DEFAULT_SCAN_LIMITS.maxFileBytes);
}

/**
 * `--local`: the scanner engine in-process, the same code the server's workers run. The judge is
 * off unless JUDGE_PROVIDER (and its JUDGE_* settings) are set in the environment.
 */
export function createLocalScanner(env: Readonly<Record<string, string | undefined>>): UploadScanner {
  let judgeOptions: JudgeSettings;
  let judge;
  try {
    // The same JUDGE_* reading, bounds and messages as the server's (src/config/app-config.ts).
    judgeOptions = judgeSettingsFrom(env);
    judge = createJudge(judgeOptions);
  } catch (err) {
    throw new CliError(`Judge configuration: ${(err as Error).message}`);
  }
  // The same analysis time per byte as the server's budget for its 250 KB files (decision 0015).
  // No warm-up: a run pays only for the rules and grammars its files reach (decision 0035); and
  // its patterns run over a few files, so compiling them costs more than running them (decision 0038).
  usePatternCompilation('cheap-to-compile');
  const analyzer = createStaticAnalyzer({ budgetMs: localFileBudgetMs(), warmUp: false });
  return {
    judge:
      judgeOptions.provider === 'none'
        ? 'off (set JUDGE_PROVIDER to enable)'
        : `${judgeOptions.provider}${judgeOptions.model ? ` (${judgeOptions.model})` : ''}`,
    limits: LOCAL_SCAN_LIMITS,
    async scan(upload) {
      try {
        return await scanUpload({ filename: upload.filename, bytes: upload.bytes }, { analyzer, scoreFile, judge, limits: LOCAL_SCAN_LIMITS });
      } catch (err) {
        if (err instanceof DomainError) throw new UploadFailedError(err.status, err.detail);
        throw err;
      }
    },
  };
}

const SCAN_PATH = '/api/agent_files/scan';

function looksLikeReport(v: unknown): v is ScanReport {
  const r = v as ScanReport | null;
  return !!r && typeof r === 'object' && !!r.summary && Array.isArray(r.files);
}

/** Remote mode: `POST /api/agent_files/scan`, multipart with the one field `file`. */
export function createRemoteScanner(client: ApiClient, failure: FailureContext): UploadScanner {
  return {
    judge: 'as configured on the server',
    limits: DEFAULT_SCAN_LIMITS,
    async scan(upload) {
      const res = await client.request({
        method: 'POST',
        path: SCAN_PATH,
        body: () => {
          const form = new FormData();
          const type = upload.container === 'file' ? 'application/octet-stream' : 'application/zip';
          form.append('file', new Blob([new Uint8Array(upload.bytes)], { type }), upload.filename);
          return form;
        },
      });
      if (res.status === 200) {
        let body: unknown;
        try {
          body = JSON.parse(res.text);
        } catch {
          throw new UploadFailedError(200, 'The server answered 200 with a body that is not JSON.');
        }
        if (!looksLikeReport(body)) throw new UploadFailedError(200, 'The server answered 200 without a scan report.');
        return body;
      }
      const message = describeFailure(res, failure);
      // These would hit every further upload too: stop instead of burning the budget.
      if (res.status === 401 || res.status === 403 || res.gaveUp) throw new RunStoppedError(res.status, message);
      throw new UploadFailedError(res.status, message);
    },
  };
}
