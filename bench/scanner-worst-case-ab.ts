/**
 * The 250 KB worst case of this engine against another tree's (docs/performance.md, "Scanner engine
 * cost against the engine before issue 26"). Both engines scan the same inputs: every generated and
 * corpus-derived 250 KB input of this tree's harness (src/scanner/eval/worst-case.ts), each engine
 * with its own `scanCpuMs`. Each engine runs in a process of its own, one after the other, as a
 * long-lived server would: every input once, then the slowest again (2 scans to warm up, median of
 * 5). This tree runs with the service's V8 options (src/config/node-runtime.ts); the other tree as
 * it was started, or with the same options when `--same-options` is given.
 *
 *   npx ts-node --transpile-only bench/scanner-worst-case-ab.ts <other-tree> [--top 30] [--same-options]
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../src/config/node-runtime';
import { worstCaseInputs } from '../src/scanner/eval/worst-case';
import { presentCorpora } from './support/corpora';
import { corpusInputs, slowestInputs, type SlowestInputs } from './support/worst-case-runs';

type EngineResult = SlowestInputs & { inputs: number };

/** In the child: scan every input with the engine of `root`, then the `top` slowest again. */
async function measure(root: string, top: number): Promise<EngineResult> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const engine = require(join(root, 'src/scanner/eval/worst-case')) as typeof import('../src/scanner/eval/worst-case');
  // Trees from before the code layer (e.g. 10aa113) have no parsers to start.
  const parsers = join(root, 'src/scanner/code/tree-sitter.ts');
  if (existsSync(parsers)) await (require(parsers) as typeof import('../src/scanner/code/tree-sitter')).initCodeParsers();
  /* eslint-enable @typescript-eslint/no-require-imports */
  const inputs = [...worstCaseInputs(), ...corpusInputs(presentCorpora())];
  return { inputs: inputs.length, ...slowestInputs(engine.scanCpuMs, inputs, { top, warmRuns: 2, runs: 5 }) };
}

function runChild(root: string, flags: readonly string[], top: number): EngineResult {
  // --single-threaded: background GC and compiler threads made one input read 255 or 420 ms from
  // one process to the next on a 2-core machine.
  const out = execFileSync(
    process.execPath,
    ['--single-threaded', ...flags, '--require', 'ts-node/register/transpile-only', __filename, '--child', root, '--top', String(top)],
    { cwd: join(__dirname, '..'), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as EngineResult;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const child = option('--child');
  const top = Number(option('--top') ?? 30);
  if (child) {
    process.stdout.write(`${JSON.stringify(await measure(child, top))}\n`);
    return;
  }
  const same = args.includes('--same-options');
  const [other] = args.filter((a) => a !== '--same-options');
  if (!other) throw new Error('usage: scanner-worst-case-ab.ts <other-tree> [--top n] [--same-options]');
  const base = runChild(resolve(other), same ? SERVICE_NODE_FLAGS : [], top);
  const self = runChild(resolve(__dirname, '..'), SERVICE_NODE_FLAGS, top);
  for (const [name, r] of [
    ['other', base],
    ['this', self],
  ] as const) {
    process.stdout.write(`${name}: ${r.inputs} inputs, sum ${r.sumS.toFixed(1)} s; slowest:\n`);
    for (const s of r.slowest.slice(0, 5)) process.stdout.write(`  ${s.ms.toFixed(0).padStart(5)} ms  ${s.name}\n`);
  }
  process.stdout.write(
    `this/other: worst ${(self.slowest[0]!.ms / base.slowest[0]!.ms).toFixed(2)} (${self.slowest[0]!.ms.toFixed(0)} / ${base.slowest[0]!.ms.toFixed(0)} ms), ` +
      `sum ${(self.sumS / base.sumS).toFixed(2)}\n`,
  );
}

void main();
