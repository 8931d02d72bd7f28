import type { Judge, JudgeResult } from '../engine/scan-report.types';

/** `JUDGE_PROVIDER=none` (the default): nothing leaves the process, every file is unjudged. */
export class NoneJudge implements Judge {
  readonly provider = 'none' as const;

  judge(): Promise<JudgeResult> {
    return Promise.resolve({ status: 'disabled', assessed_intent: null, confidence: null, findings: [], demoted_rule_ids: [] });
  }
}
