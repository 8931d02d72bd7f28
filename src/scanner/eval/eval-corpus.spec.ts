import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runEval } from './eval-harness';

/**
 * The scanner's detection targets (the bars asserted below) on the development corpus (judge off). The corpus lives
 * outside the repository (../shared/corpus) and is never copied in; without it the suite says so.
 */
const CORPUS = join(__dirname, '..', '..', '..', '..', 'shared', 'corpus');
const present = existsSync(join(CORPUS, 'manifest.jsonl'));

describe('scanner evaluation on ../shared/corpus (judge off)', () => {
  if (!present) {
    // Reported as skipped, with its reason, never as a passing test.
    console.warn(`Corpus not found at ${CORPUS}: detection targets were NOT checked.`);
    it.skip(`is skipped: corpus not found at ${CORPUS}`, () => undefined);
    return;
  }

  it('meets the detection targets', async () => {
    const { result } = await runEval(CORPUS);
    const summary = {
      malicious_recall: result.malicious_recall,
      benign_fpr: result.benign_fpr,
      suspicious_recall: result.suspicious_recall,
      category_recall: result.category_recall,
      attribution: result.attribution,
      misses: result.misses,
      false_positives: result.false_positives,
    };
    expect(result.errors).toEqual([]);
    expect(summary.malicious_recall).toBeGreaterThanOrEqual(0.95);
    expect(summary.benign_fpr).toBeLessThanOrEqual(0.03);
    expect(summary.suspicious_recall).toBeGreaterThanOrEqual(0.8);
    expect(summary.category_recall).toBeGreaterThanOrEqual(0.9);
    expect(summary.attribution).toBeGreaterThanOrEqual(0.95);
  }, 300_000);
});
