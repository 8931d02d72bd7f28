/**
 * `npm run eval -- <corpus-dir> [--judge none|openai|anthropic] [--json] [--filter <id-part>]`
 * Judge settings other than the provider come from JUDGE_BASE_URL / JUDGE_MODEL / JUDGE_API_KEY /
 * JUDGE_TIMEOUT_MS (DESIGN.md §11). With --json the last stdout line is one JSON object.
 */
import { resolve } from 'node:path';
import type { Judge } from '../engine/scan-report.types';
import { createJudge } from '../judge/create-judge';
import type { JudgeProviderName } from '../judge/judge-options';
import { formatTable, runEval } from './eval-harness';

interface CliArgs {
  corpusDir: string;
  judge: JudgeProviderName;
  json: boolean;
  filter?: string;
}

export function parseEvalArgs(argv: readonly string[]): CliArgs {
  let corpusDir: string | undefined;
  let judge: JudgeProviderName = 'none';
  let json = false;
  let filter: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--judge') judge = argv[++i] as JudgeProviderName;
    else if (a.startsWith('--judge=')) judge = a.slice(8) as JudgeProviderName;
    else if (a === '--filter') filter = argv[++i];
    else if (!a.startsWith('--')) corpusDir = a;
    else throw new Error(`Unknown option ${a}`);
  }
  if (!['none', 'openai', 'anthropic'].includes(judge)) throw new Error(`--judge must be none, openai or anthropic`);
  return { corpusDir: resolve(corpusDir ?? '../shared/corpus'), judge, json, filter };
}

function judgeFromEnv(provider: JudgeProviderName): Judge | undefined {
  if (provider === 'none') return undefined;
  // The CLI is an entry point like main.ts: it reads its own environment, nothing else does.
  const env = process.env;
  return createJudge({
    provider,
    baseUrl: env.JUDGE_BASE_URL,
    model: env.JUDGE_MODEL,
    apiKey: env.JUDGE_API_KEY,
    timeoutMs: env.JUDGE_TIMEOUT_MS ? Number(env.JUDGE_TIMEOUT_MS) : undefined,
  });
}

async function main(): Promise<void> {
  const args = parseEvalArgs(process.argv.slice(2));
  const { result } = await runEval(args.corpusDir, { judge: judgeFromEnv(args.judge), filter: args.filter });
  process.stdout.write(`${formatTable(result)}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`eval failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
