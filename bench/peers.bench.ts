/**
 * Peers side by side (docs/performance.md "Peers"): the open agent-file scanners on npm and `bulwark scan
 * --local`, over the same ../shared/corpus samples, each tool in its own process with its own file
 * discovery, on a copy of the samples in a temporary folder (one folder per sample):
 *  - ferret-scan        `ferret scan <folder> --format json`
 *  - ecc-agentshield    `agentshield scan -p <folder> -f json`
 *  - agent-threat-rules its engine over every file, reporting off (bench/support/peer-atr-runner.mjs)
 *  - bulwark            `node dist/cli/main.js scan --local --format json .` (the built CLI)
 * Time per sample = the tool's wall time (start-up included, best of --runs) / samples. Detection:
 * severities mapped to our bands (bench/support/peer-mapping.ts), then malicious recall and benign
 * false-positive rate by the corpus rules. Targets: bulwark faster per sample than every peer and
 * ahead on both rates.
 *
 * The peers are installed OUTSIDE the repository, install scripts disabled, never in package.json:
 *   npm install --ignore-scripts --no-save --prefix <tmp>/bulwark-bench-peers ferret-scan@… …
 * (BENCH_PEERS_DIR overrides the folder; an existing install at the pinned versions is reused).
 *
 *   npx ts-node --transpile-only bench/peers.bench.ts [--runs 2]
 */
import { execFile, type ExecFileOptions } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Band } from '../src/scanner/engine/scan-report.types';
import { loadManifest } from '../src/scanner/eval/corpus-loader';
import { atLeast, atMost, figure, runPart } from './support/bench-result';
import { bandOfSeverity, bandsBySample, detection, type Detection } from './support/peer-mapping';
import { arg, round } from './support/stats';

export const PEERS = { 'ferret-scan': '2.10.0', 'ecc-agentshield': '1.6.0', 'agent-threat-rules': '4.0.0' } as const;

const REPO = resolve(__dirname, '..');

interface Run {
  stdout: string;
  ms: number;
  code: number;
}

function exec(cmd: string, args: string[], opts: ExecFileOptions & { timeoutMs?: number } = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolveRun) => {
    execFile(cmd, args, { maxBuffer: 256 * 1024 * 1024, timeout: opts.timeoutMs ?? 300_000, ...opts, encoding: 'utf8' }, (err, stdout) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolveRun({ stdout: String(stdout), ms: performance.now() - started, code });
    });
  });
}

function installed(dir: string): boolean {
  return Object.entries(PEERS).every(([name, version]) => {
    const p = join(dir, 'node_modules', name, 'package.json');
    return existsSync(p) && (JSON.parse(readFileSync(p, 'utf8')) as { version: string }).version === version;
  });
}

interface Tool {
  name: string;
  /** One run over the staging folder: per-file bands. */
  run(staging: string): Promise<{ ms: number; hits: { path: string; band: Band }[]; files_reported: number }>;
}

function tools(peersDir: string): Tool[] {
  const nm = join(peersDir, 'node_modules');
  const node = process.execPath;
  return [
    {
      name: 'ferret-scan',
      run: async (staging) => {
        // Its own -o file: piped stdout is cut short when it exits non-zero on findings.
        const outFile = join(tmpdir(), `bulwark-bench-ferret-${process.pid}.json`);
        const r = await exec(node, [join(nm, 'ferret-scan', 'bin', 'ferret.js'), 'scan', staging, '--format', 'json', '-o', outFile], { cwd: staging });
        const out = JSON.parse(readFileSync(outFile, 'utf8')) as { analyzedFiles: number; findings: { relativePath: string; severity: string }[] };
        return { ms: r.ms, files_reported: out.analyzedFiles, hits: out.findings.map((f) => ({ path: f.relativePath, band: bandOfSeverity(f.severity) })) };
      },
    },
    {
      name: 'ecc-agentshield',
      run: async (staging) => {
        const outFile = join(tmpdir(), `bulwark-bench-agentshield-${process.pid}.json`);
        const r = await exec(node, [join(nm, 'ecc-agentshield', 'dist', 'index.js'), 'scan', '-p', staging, '-f', 'json', '-o', outFile], { cwd: staging });
        const out = JSON.parse(readFileSync(outFile, 'utf8')) as { findings: { file?: string; severity: string }[] };
        // Findings about the folder as a whole (no file) name no sample: they cannot count for one.
        const hits = out.findings.filter((f) => f.file).map((f) => ({ path: f.file!, band: bandOfSeverity(f.severity) }));
        return { ms: r.ms, files_reported: new Set(hits.map((h) => h.path)).size, hits };
      },
    },
    {
      name: 'agent-threat-rules',
      run: async (staging) => {
        const r = await exec(node, [join(__dirname, 'support', 'peer-atr-runner.mjs'), join(nm, 'agent-threat-rules'), staging], {
          cwd: staging,
          timeoutMs: 600_000,
        });
        const out = JSON.parse(r.stdout) as { files: Record<string, string | null> };
        const hits = Object.entries(out.files)
          .filter(([, s]) => s !== null)
          .map(([path, s]) => ({ path, band: bandOfSeverity(s!) }));
        return { ms: r.ms, files_reported: Object.keys(out.files).length, hits };
      },
    },
    {
      name: 'bulwark',
      run: async (staging) => {
        const r = await exec(node, [join(REPO, 'dist', 'cli', 'main.js'), 'scan', '--local', '--format', 'json', '--max-uploads', '100000', '.'], {
          cwd: staging,
          env: { ...process.env, NO_COLOR: '1' },
        });
        const out = JSON.parse(r.stdout) as {
          summary: { files: number };
          uploads: { report?: { files: { relative_path: string; band: Band; content_skipped?: boolean }[] } }[];
        };
        const hits = out.uploads.flatMap((u) => u.report?.files ?? []).map((f) => ({ path: f.relative_path, band: f.band }));
        return { ms: r.ms, files_reported: out.summary.files, hits };
      },
    },
  ];
}

runPart('peers', async (report) => {
  const runs = arg('runs', 2);
  const corpusDir = resolve(process.env.BENCH_CORPUS_DIR ?? join(REPO, '..', 'shared', 'corpus'));
  if (!existsSync(join(corpusDir, 'manifest.jsonl'))) {
    report.skipPart(`no corpus at ${corpusDir}`);
    return;
  }
  if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) {
    report.skipPart('no dist/cli/main.js: run `npm run build` first');
    return;
  }
  const peersDir = resolve(process.env.BENCH_PEERS_DIR ?? join(tmpdir(), 'bulwark-bench-peers'));
  if (!installed(peersDir)) {
    const r = await exec(
      'npm',
      ['install', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', '--prefix', peersDir, ...Object.entries(PEERS).map(([n, v]) => `${n}@${v}`)],
      { timeoutMs: 240_000 },
    );
    if (r.code !== 0 || !installed(peersDir)) {
      report.skipPart(`could not install the peers into ${peersDir} (npm exit ${r.code})`);
      return;
    }
  }
  const samples = loadManifest(corpusDir);
  const staging = mkdtempSync(join(tmpdir(), 'bulwark-bench-peers-corpus-'));
  try {
    // A copy: a tool that writes beside what it scans (baselines, caches) never touches the corpus.
    cpSync(join(corpusDir, 'samples'), staging, { recursive: true });
    const results: Record<string, { ms_per_sample: number; best_run_ms: number; files_reported: number; detection: Detection }> = {};
    const failures: Record<string, string> = {};
    for (const tool of tools(peersDir)) {
      try {
        let best: Awaited<ReturnType<Tool['run']>> | null = null;
        // agent-threat-rules takes minutes per pass here: one pass (its time is far from the others').
        const passes = tool.name === 'agent-threat-rules' ? 1 : runs;
        for (let i = 0; i < passes; i++) {
          const r = await tool.run(staging);
          if (!best || r.ms < best.ms) best = r;
        }
        results[tool.name] = {
          ms_per_sample: round(best!.ms / samples.length, 2),
          best_run_ms: Math.round(best!.ms),
          files_reported: best!.files_reported,
          detection: detection(samples, bandsBySample(best!.hits)),
        };
      } catch (err) {
        failures[tool.name] = err instanceof Error ? err.message : String(err);
      }
    }
    const peers = Object.keys(PEERS).filter((p) => results[p]);
    const bw = results.bulwark;
    for (const name of [...peers, 'bulwark']) {
      const r = results[name];
      if (!r) continue;
      const d = r.detection;
      report.add(
        figure(
          `peers.${name}.ms_per_sample`,
          `${name}: time per sample (whole-corpus run / ${samples.length})`,
          r.ms_per_sample,
          'ms',
          undefined,
          `${r.files_reported} files scanned`,
        ),
      );
      report.add(
        figure(
          `peers.${name}.recall`,
          `${name}: malicious recall (band ≥ min_band)`,
          d.malicious_recall,
          '%',
          undefined,
          `${d.malicious_hits}/${d.malicious_total}`,
        ),
      );
      report.add(
        figure(`peers.${name}.fpr`, `${name}: benign false-positive rate (band > max_band)`, d.benign_fpr, '%', undefined, `${d.benign_fps}/${d.benign_total}`),
      );
    }
    if (bw && peers.length) {
      const fastest = Math.min(...peers.map((p) => results[p]!.ms_per_sample));
      const bestRecall = Math.max(...peers.map((p) => results[p]!.detection.malicious_recall));
      const bestFpr = Math.min(...peers.map((p) => results[p]!.detection.benign_fpr));
      // Targets relative to the best peer of this run: "faster than every peer" is ≤ the fastest.
      report.add(
        figure(
          'peers.bulwark.vs_fastest_ms',
          'bulwark time per sample vs the fastest peer',
          bw.ms_per_sample,
          'ms',
          atMost(fastest),
          'target = fastest peer of this run',
        ),
      );
      report.add(
        figure(
          'peers.bulwark.vs_best_recall',
          'bulwark malicious recall vs the best peer',
          bw.detection.malicious_recall,
          '%',
          atLeast(bestRecall),
          'target = best peer',
        ),
      );
      report.add(
        figure('peers.bulwark.vs_best_fpr', 'bulwark benign FP rate vs the best peer', bw.detection.benign_fpr, '%', atMost(bestFpr), 'target = best peer'),
      );
    }
    for (const [name, reason] of Object.entries(failures)) report.skip(`peers.${name}.failed`, `${name}: run failed`, '', reason);
    Object.assign(report.details, {
      samples: samples.length,
      versions: PEERS,
      peers_dir: peersDir,
      runs,
      severity_to_band: 'bench/support/peer-mapping.ts (critical→critical, high→high, medium→medium, low→low, info/informational→info)',
      results,
      failures,
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
});
