/**
 * Static rule engine benchmark (no judge, no HTTP), in-process on one core (docs/performance.md):
 *  - throughput over every file of ../shared/corpus and ../shared/corpus-wild together (MB/s of CPU
 *    time: steady on a shared machine; wall beside it; the best of ROUNDS passes), target ≥ 20 MB/s;
 *  - p50/p99 ms per sample of both corpora through the whole engine (`scanUpload`: archive, kinds,
 *    rules, scoring), each sample exactly as it would be uploaded (bundles zipped);
 *  - peak RSS of the process.
 * A corpus absent here is skipped with a line saying so; with neither, the figures say skipped.
 * The 250 KB worst case is its own part, bench/scanner-worst-case.bench.ts.
 * Writes bench/results/scanner-static.json (bench/support/bench-result.ts shape).
 *
 *   npm run bench -- scanner-static            (or `throughput`: this part with the others of that target)
 *   npm run bench:scanner-static [-- <corpus-dir> ...]
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { initCodeParsers } from '../src/scanner/code/tree-sitter';
import { detectTextKind } from '../src/scanner/engine/kind-detector';
import { scanUpload } from '../src/scanner/engine/scan-engine';
import type { AnalysisFile } from '../src/scanner/engine/scan-report.types';
import { buildUpload, loadManifest, type SampleUpload } from '../src/scanner/eval/corpus-loader';
import { createStaticAnalyzer } from '../src/scanner/rules/static-analyzer';
import { scoreFile } from '../src/scanner/scoring/score-file';
import { atLeast, figure, runPart } from './support/bench-result';
import { presentCorpora } from './support/corpora';
import { median, peakRssMb, percentile, round } from './support/stats';

/** Passes over every file; the fastest is reported (the first also compiles the engine's code). */
const ROUNDS = 5;
/** Passes per sample through scanUpload; its median is the sample's time. */
const SAMPLE_RUNS = 3;

const analyzer = createStaticAnalyzer();

runPart('scanner-static', async (report) => {
  // The code layer's parsers load asynchronously: ready before anything is timed.
  await initCodeParsers();
  const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const corpora = named.length > 0 ? named.map((d) => resolve(d)) : presentCorpora((dir) => process.stderr.write(`corpus not found at ${dir}: skipped\n`));
  const result: Record<string, unknown> = { node: process.version, corpora };

  if (corpora.length > 0) {
    const files: AnalysisFile[] = [];
    const uploads: SampleUpload[] = [];
    const perCorpus: Record<string, { samples: number; files: number; bytes: number }> = {};
    for (const dir of corpora) {
      const samples = loadManifest(dir);
      const counts = { samples: samples.length, files: 0, bytes: 0 };
      for (const s of samples) {
        for (const f of s.files) {
          const text = readFileSync(join(dir, 'samples', s.id, f), 'utf8');
          const file: AnalysisFile = { relativePath: f, kind: detectTextKind(f, text), text, byteLength: Buffer.byteLength(text) };
          files.push(file);
          counts.files++;
          counts.bytes += file.byteLength;
        }
        uploads.push(buildUpload(dir, s));
      }
      perCorpus[basename(dir)] = counts;
    }
    const bytes = files.reduce((n, f) => n + f.byteLength, 0);
    const rounds: number[] = [];
    const cpuRounds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const cpu = process.cpuUsage();
      const t = performance.now();
      for (const f of files) analyzer.analyze(f, { files: [f], skipped: [], primaryPath: f.relativePath });
      rounds.push(performance.now() - t);
      const c = process.cpuUsage(cpu);
      cpuRounds.push((c.user + c.system) / 1000);
    }
    const best = Math.min(...rounds);
    const bestCpu = Math.min(...cpuRounds);
    // Per sample, the whole engine as the endpoint runs it.
    const perSample: number[][] = uploads.map(() => []);
    for (let r = 0; r < SAMPLE_RUNS; r++) {
      for (let i = 0; i < uploads.length; i++) {
        const t = performance.now();
        await scanUpload({ filename: uploads[i]!.filename, bytes: uploads[i]!.bytes }, { analyzer, scoreFile });
        perSample[i]!.push(performance.now() - t);
      }
    }
    const sampleMs = perSample.map(median).sort((a, b) => a - b);
    result.throughput = {
      per_corpus: perCorpus,
      files: files.length,
      samples: uploads.length,
      bytes,
      rounds: ROUNDS,
      best_ms: Math.round(best),
      best_cpu_ms: Math.round(bestCpu),
      mb_per_s_wall: round(bytes / 1e6 / (best / 1000), 2),
      mb_per_s_cpu: round(bytes / 1e6 / (bestCpu / 1000), 2),
      sample_p50_ms: round(percentile(sampleMs, 50), 2),
      sample_p99_ms: round(percentile(sampleMs, 99), 2),
      sample_max_ms: round(sampleMs[sampleMs.length - 1]!, 2),
    };
    const c = result.throughput as Record<string, number>;
    const over = corpora.map((d) => basename(d)).join(' + ');
    report.add(
      figure(
        'scanner.static.mb_per_s_cpu',
        `static engine throughput over ${over} (CPU time, one core)`,
        c.mb_per_s_cpu!,
        'MB/s',
        atLeast(20),
        `wall ${c.mb_per_s_wall} MB/s; ${files.length} files, ${round(bytes / 1e6, 2)} MB`,
      ),
    );
    report.add(figure('scanner.sample.p50', `scanUpload per sample p50 (${over})`, c.sample_p50_ms!, 'ms'));
    report.add(
      figure(
        'scanner.sample.p99',
        `scanUpload per sample p99 (${over})`,
        c.sample_p99_ms!,
        'ms',
        undefined,
        `max ${c.sample_max_ms} ms, ${uploads.length} samples`,
      ),
    );
  } else {
    report.skip('scanner.static.mb_per_s_cpu', 'static engine throughput over the corpora', 'MB/s', 'skipped (no corpus beside the project)', atLeast(20));
  }

  report.add(figure('scanner.static.peak_rss', 'peak RSS of the scanning process', peakRssMb(), 'MB'));
  Object.assign(report.details, result);
});
