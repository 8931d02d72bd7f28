/**
 * `npm run eval -- [<corpus-dir> ...] [--judge none|openai|anthropic] [--json] [--filter <id-part>]`
 * Prints each corpus's table, then (for several corpora) one summary line per corpus and a combined
 * line. Without a corpus it measures DEFAULT_CORPORA and skips, with a line saying why, any that is
 * absent; a corpus named on the command line must exist. Judge settings other than the provider
 * come from the JUDGE_* variables, read as the server reads them (src/config/app-config.ts). With
 * --json the last stdout line is one JSON object: the EvalResult when one corpus was named,
 * otherwise `{ corpora: [{ name, dir, result }], skipped: [{ name, dir, reason }], combined }`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { judgeSettingsFrom } from '../../config/app-config';
import type { Judge } from '../engine/scan-report.types';
import { createJudge } from '../judge/create-judge';
import type { JudgeProviderName } from '../judge/judge-options';
import { combineRuns, formatSummary, formatTable, runEval, type EvalRun } from './eval-harness';

/** The development corpora, the project's red-team set and its blind set, relative to the repository root. */
export const DEFAULT_CORPORA = ['../shared/corpus', '../shared/corpus-wild', 'test/fixtures/red-team', 'test/fixtures/red-team-blind'] as const;

export interface CorpusRef {
  /** As given on the command line (or in DEFAULT_CORPORA); used in headings. */
  name: string;
  dir: string;
}

interface CliArgs {
  corpora: CorpusRef[];
  /** True when the corpora came from the command line rather than DEFAULT_CORPORA. */
  named: boolean;
  judge: JudgeProviderName;
  json: boolean;
  filter?: string;
}

export function parseEvalArgs(argv: readonly string[], cwd = process.cwd()): CliArgs {
  const names: string[] = [];
  let judge: JudgeProviderName = 'none';
  let json = false;
  let filter: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--judge') judge = argv[++i] as JudgeProviderName;
    else if (a.startsWith('--judge=')) judge = a.slice(8) as JudgeProviderName;
    else if (a === '--filter') filter = argv[++i];
    else if (!a.startsWith('--')) names.push(a);
    else throw new Error(`Unknown option ${a}`);
  }
  if (!['none', 'openai', 'anthropic'].includes(judge)) throw new Error(`--judge must be none, openai or anthropic`);
  const named = names.length > 0;
  const corpora = (named ? names : [...DEFAULT_CORPORA]).map((name) => ({ name, dir: resolve(cwd, name) }));
  return { corpora, named, judge, json, filter };
}

export interface CorpusSelection {
  run: CorpusRef[];
  skipped: (CorpusRef & { reason: string })[];
}

/** Default corpora without a manifest are skipped with a reason; named ones are all run (a missing one fails loudly). */
export function selectCorpora(args: Pick<CliArgs, 'corpora' | 'named'>, hasManifest: (dir: string) => boolean): CorpusSelection {
  if (args.named) return { run: args.corpora, skipped: [] };
  const selection: CorpusSelection = { run: [], skipped: [] };
  for (const c of args.corpora) {
    if (hasManifest(c.dir)) selection.run.push(c);
    else selection.skipped.push({ ...c, reason: `no manifest.jsonl in ${c.dir}` });
  }
  return selection;
}

function judgeFromEnv(provider: JudgeProviderName): Judge | undefined {
  if (provider === 'none') return undefined;
  // The CLI is an entry point like main.ts: it reads its own environment, with the server's reading of JUDGE_*.
  return createJudge({ ...judgeSettingsFrom(process.env), provider });
}

async function main(): Promise<void> {
  const args = parseEvalArgs(process.argv.slice(2));
  const { run, skipped } = selectCorpora(args, (dir) => existsSync(join(dir, 'manifest.jsonl')));
  const write = (text: string): boolean => process.stdout.write(`${text}\n`);
  for (const s of skipped) write(`skipped ${s.name}: ${s.reason}`);
  const judge = judgeFromEnv(args.judge);
  const single = args.named && args.corpora.length === 1;
  const runs: (CorpusRef & { run: EvalRun })[] = [];
  for (const c of run) {
    const result = await runEval(c.dir, { judge, filter: args.filter });
    runs.push({ ...c, run: result });
    if (!single) write(`\n=== ${c.name} ===`);
    write(formatTable(result.result));
  }
  const combined = combineRuns(runs.map((r) => r.run));
  if (runs.length > 1)
    write(
      `\n=== summary ===\n${formatSummary(
        runs.map((r) => ({ name: r.name, result: r.run.result })),
        combined,
      )}`,
    );
  if (!args.json) return;
  if (single) write(JSON.stringify(runs[0].run.result));
  else write(JSON.stringify({ corpora: runs.map((r) => ({ name: r.name, dir: r.dir, result: r.run.result })), skipped, combined }));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`eval failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
