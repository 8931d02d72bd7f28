/**
 * The full static scan report of every sample of the evaluation corpora, one line per sample
 * (every finding's rule, locator, severity, confidence, context, hard block and evidence; each
 * file's score, band and intent), for proving that an engine change leaves detection unchanged:
 * run it before and after, and diff. The judge is off and the per-file budget unlimited, so the
 * output does not depend on the machine's speed. Corpora absent here are skipped with a line on stderr.
 *
 *   npx ts-node --transpile-only bench/scan-fingerprint.ts > /tmp/after.txt   (before: the same on the base tree)
 *   diff /tmp/before.txt /tmp/after.txt
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { initCodeParsers } from '../src/scanner/code/tree-sitter';
import { scanUpload } from '../src/scanner/engine/scan-engine';
import { buildUpload, loadManifest } from '../src/scanner/eval/corpus-loader';
import { DEFAULT_CORPORA } from '../src/scanner/eval/eval.cli';
import { createStaticAnalyzer } from '../src/scanner/rules/static-analyzer';
import { scoreFile } from '../src/scanner/scoring/score-file';

async function main(): Promise<void> {
  await initCodeParsers();
  const analyzer = createStaticAnalyzer({ budgetMs: Number.POSITIVE_INFINITY });
  for (const name of DEFAULT_CORPORA) {
    const dir = resolve(join(__dirname, '..'), name);
    if (!existsSync(join(dir, 'manifest.jsonl'))) {
      process.stderr.write(`skipped ${name}: no manifest.jsonl in ${dir}\n`);
      continue;
    }
    for (const sample of loadManifest(dir)) {
      const upload = buildUpload(dir, sample);
      const report = await scanUpload({ filename: upload.filename, bytes: upload.bytes }, { analyzer, scoreFile });
      const files = report.files.map((f) => {
        const findings = f.static_findings
          .map((x) => `${x.rule_id}@${x.locator}/${x.severity}/${x.confidence}/${x.context}/${x.hard_block}/${x.evidence}`)
          .sort();
        return `${f.relative_path}:${f.score}:${f.band}:${f.assessed_intent}:${findings.join('|')}`;
      });
      process.stdout.write(`${name}/${sample.id}\t${files.join(' ;; ')}\n`);
    }
  }
}

void main();
