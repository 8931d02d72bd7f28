/**
 * Interleaved A/B of the static engine of two source trees, in one process: each corpus sample is
 * scanned by both engines back to back (order alternating), so load from other processes on a
 * shared machine hits both alike. Prints per-sample p50/p99 (median of the rounds), MB/s (wall and
 * CPU) per engine, and the per-sample p50 ratio. For comparing a branch with its base when
 * `npm run bench:scanner-static` readings drift by more than the change being measured.
 *
 *   git archive main | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   npx ts-node --transpile-only bench/scanner-static-ab.ts /tmp/base [--rounds 5] [<corpus-dir> ...]
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildUpload, loadManifest, type SampleUpload } from '../src/scanner/eval/corpus-loader';
import { percentile, round } from './support/stats';

interface Engine {
  name: string;
  scan: (u: SampleUpload) => Promise<unknown>;
}

/** The engine of the source tree at `root`, loaded through its own modules (nothing shared with the other). */
async function engineAt(root: string, name: string): Promise<Engine> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const engine = require(join(root, 'src/scanner/engine/scan-engine')) as typeof import('../src/scanner/engine/scan-engine');
  const scoring = require(join(root, 'src/scanner/scoring/score-file')) as typeof import('../src/scanner/scoring/score-file');
  const rules = require(join(root, 'src/scanner/rules/static-analyzer')) as typeof import('../src/scanner/rules/static-analyzer');
  // Trees from before the code layer (e.g. 10aa113) have no parsers to start.
  const parsersPath = join(root, 'src/scanner/code/tree-sitter.ts');
  if (existsSync(parsersPath)) await (require(parsersPath) as typeof import('../src/scanner/code/tree-sitter')).initCodeParsers();
  /* eslint-enable @typescript-eslint/no-require-imports */
  const analyzer = rules.createStaticAnalyzer();
  return { name, scan: (u) => engine.scanUpload({ filename: u.filename, bytes: u.bytes }, { analyzer, scoreFile: scoring.scoreFile }) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 5;
  const [baseRoot, ...corpora] = args;
  if (!baseRoot) throw new Error('usage: scanner-static-ab.ts <baseline-root> [--rounds n] [<corpus-dir> ...]');
  const dirs = (corpora.length > 0 ? corpora : [join(__dirname, '..', '..', 'shared', 'corpus')]).map((d) => resolve(d));
  const engines = [await engineAt(resolve(baseRoot), 'base'), await engineAt(resolve(__dirname, '..'), 'this')];
  const uploads = dirs.flatMap((d) => loadManifest(d).map((s) => buildUpload(d, s)));
  const bytes = uploads.reduce((n, u) => n + u.contentBytes, 0);
  // Warm-up pass: JIT and regex compilation are not what is compared.
  for (const u of uploads) for (const e of engines) await e.scan(u);
  const wall = engines.map(() => uploads.map(() => [] as number[]));
  const cpu = engines.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < uploads.length; i++) {
      for (let k = 0; k < engines.length; k++) {
        const e = (r + i) % 2 === 0 ? k : engines.length - 1 - k;
        const c = process.cpuUsage();
        const t = performance.now();
        await engines[e]!.scan(uploads[i]!);
        wall[e]![i]!.push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpu[e]! += (used.user + used.system) / 1000;
      }
    }
  }
  const medians = wall.map((perSample) =>
    perSample.map((xs) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      ),
    ),
  );
  engines.forEach((e, k) => {
    const sorted = [...medians[k]!].sort((a, b) => a - b);
    const totalMs = wall[k]!.reduce((n, xs) => n + xs.reduce((a, b) => a + b, 0), 0) / rounds;
    process.stdout.write(
      `${e.name}: per-sample p50 ${round(percentile(sorted, 50), 2)} ms, p99 ${round(percentile(sorted, 99), 2)} ms; ` +
        `${round(bytes / 1e6 / (totalMs / 1000), 2)} MB/s wall, ${round(bytes / 1e6 / (cpu[k]! / rounds / 1000), 2)} MB/s CPU\n`,
    );
  });
  const ratios = uploads.map((_, i) => medians[1]![i]! / medians[0]![i]!).sort((a, b) => a - b);
  process.stdout.write(
    `this/base per sample: p50 ratio ${round(percentile(ratios, 50), 3)}; CPU ratio ${round(cpu[1]! / cpu[0]!, 3)} (${uploads.length} samples, ${bytes} B, ${rounds} rounds)\n`,
  );
}

void main();
