/**
 * Static rule engine benchmark (no judge, no HTTP), in-process on one core (docs/performance.md):
 *  - throughput over the corpus files (MB/s of CPU time: steady on a shared machine; wall beside it),
 *    target ≥ 20 MB/s;
 *  - p50/p99 ms per corpus sample through the whole engine (`scanUpload`: archive, kinds, rules,
 *    scoring), each sample exactly as it would be uploaded (bundles zipped);
 *  - peak RSS of the process.
 * The 250 KB worst case is its own part, bench/scanner-worst-case.bench.ts.
 * Writes bench/results/scanner-static.json (bench/support/bench-result.ts shape).
 *
 *   npm run bench:scanner-static [-- <corpus-dir>]
 */
import { initCodeParsers } from '../src/scanner/code/tree-sitter';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { scanUpload } from '../src/scanner/engine/scan-engine';
import type { AnalysisFile } from '../src/scanner/engine/scan-report.types';
import { buildUpload, loadManifest } from '../src/scanner/eval/corpus-loader';
import { scoreFile } from '../src/scanner/scoring/score-file';
import { atLeast, figure, runPart } from './support/bench-result';
import { peakRssMb, percentile, round } from './support/stats';
import { detectTextKind } from '../src/scanner/engine/kind-detector';
import { createStaticAnalyzer } from '../src/scanner/rules/static-analyzer';

const analyzer = createStaticAnalyzer();

runPart('scanner-static', async (report) => {
  // The code layer's parsers load asynchronously: ready before anything is timed.
  await initCodeParsers();
  const corpusDir = resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? join(__dirname, '..', '..', 'shared', 'corpus'));
  const result: Record<string, unknown> = { node: process.version, corpus_dir: corpusDir };

  if (existsSync(join(corpusDir, 'manifest.jsonl'))) {
    const files: AnalysisFile[] = [];
    const samples = loadManifest(corpusDir);
    for (const s of samples) {
      for (const f of s.files) {
        const text = readFileSync(join(corpusDir, 'samples', s.id, f), 'utf8');
        files.push({ relativePath: f, kind: detectTextKind(f, text), text, byteLength: Buffer.byteLength(text) });
      }
    }
    const bytes = files.reduce((n, f) => n + f.byteLength, 0);
    const rounds: number[] = [];
    const cpuRounds: number[] = [];
    for (let r = 0; r < 3; r++) {
      const cpu = process.cpuUsage();
      const t = performance.now();
      for (const f of files) analyzer.analyze(f, { files: [f], skipped: [], primaryPath: f.relativePath });
      rounds.push(performance.now() - t);
      const c = process.cpuUsage(cpu);
      cpuRounds.push((c.user + c.system) / 1000);
    }
    const best = Math.min(...rounds);
    const bestCpu = Math.min(...cpuRounds);
    // Per sample, the whole engine as the endpoint runs it; the median of 3 passes per sample.
    const uploads = samples.map((s) => buildUpload(corpusDir, s));
    const perSample: number[][] = uploads.map(() => []);
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < uploads.length; i++) {
        const t = performance.now();
        await scanUpload({ filename: uploads[i]!.filename, bytes: uploads[i]!.bytes }, { analyzer, scoreFile });
        perSample[i]!.push(performance.now() - t);
      }
    }
    const sampleMs = perSample.map((xs) => [...xs].sort((a, b) => a - b)[1]!).sort((a, b) => a - b);
    result.corpus = {
      files: files.length,
      samples: samples.length,
      bytes,
      best_ms: Math.round(best),
      mb_per_s_wall: round(bytes / 1e6 / (best / 1000), 2),
      mb_per_s_cpu: round(bytes / 1e6 / (bestCpu / 1000), 2),
      sample_p50_ms: round(percentile(sampleMs, 50), 2),
      sample_p99_ms: round(percentile(sampleMs, 99), 2),
      sample_max_ms: round(sampleMs[sampleMs.length - 1]!, 2),
    };
    const c = result.corpus as Record<string, number>;
    report.add(
      figure(
        'scanner.static.mb_per_s_cpu',
        'static engine throughput over the corpus (CPU time, one core)',
        c.mb_per_s_cpu!,
        'MB/s',
        atLeast(20),
        `wall ${c.mb_per_s_wall} MB/s; ${files.length} files, ${round(bytes / 1e6, 2)} MB`,
      ),
    );
    report.add(figure('scanner.sample.p50', 'scanUpload per corpus sample p50', c.sample_p50_ms!, 'ms'));
    report.add(
      figure(
        'scanner.sample.p99',
        'scanUpload per corpus sample p99',
        c.sample_p99_ms!,
        'ms',
        undefined,
        `max ${c.sample_max_ms} ms, ${samples.length} samples`,
      ),
    );
  } else {
    process.stderr.write(`corpus not found at ${corpusDir}: skipping throughput\n`);
    report.skip('scanner.static.mb_per_s_cpu', 'static engine throughput over the corpus', 'MB/s', `skipped (no corpus at ${corpusDir})`, atLeast(20));
  }

  report.add(figure('scanner.static.peak_rss', 'peak RSS of the scanning process', peakRssMb(), 'MB'));
  Object.assign(report.details, result);
});
