import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Runs the real `bulwark` CLI as a child process. The CLI is compiled once per Jest worker with
 * swc (the same transform Jest uses, ~1 s for all of src/) into a temp folder laid out like the
 * package (dist/ beside package.json, node_modules linked), so the child starts like
 * `node dist/cli/main.js` does after `npm run build`, without touching the shared dist/.
 */
const ROOT = join(__dirname, '..', '..');
let built: { dir: string; main: string } | null = null;

function walkTs(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walkTs(p, out);
    else out.push(p);
  }
  return out;
}

export function buildCli(): string {
  if (built) return built.main;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const swc = require('@swc/core') as typeof import('@swc/core');
  const swcrc = JSON.parse(readFileSync(join(ROOT, '.swcrc'), 'utf8')) as Record<string, unknown>;
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-cli-'));
  const src = join(ROOT, 'src');
  for (const file of walkTs(src)) {
    const rel = relative(src, file);
    if (rel.endsWith('.spec.ts')) continue;
    const target = join(dir, 'dist', rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    if (file.endsWith('.ts')) {
      const { code } = swc.transformFileSync(file, { ...swcrc, swcrc: false, sourceMaps: false, filename: file });
      writeFileSync(target, code);
    } else {
      copyFileSync(file, join(dir, 'dist', rel));
    }
  }
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  built = { dir, main: join(dir, 'dist', 'cli', 'main.js') };
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return built.main;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Called once the child is running (e.g. to send it SIGINT later). */
  onSpawn?: (child: ChildProcess) => void;
}

/** A clean environment: no inherited BULWARK_*, JUDGE_* or DATABASE_URL unless given. */
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT']) if (process.env[k] !== undefined) base[k] = process.env[k];
  base.BULWARK_CONFIG = join(tmpdir(), 'bulwark-cli-no-config.json');
  base.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const main = buildCli();
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { cwd: options.cwd ?? ROOT, env: childEnv(options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
    options.onSpawn?.(child);
  });
}

export interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RecordedRequest {
  at: number;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * A loopback server that answers from a script, for the retry cases a real server cannot be made
 * to produce on cue (429 then 200, 503 with and without Retry-After, edge 403, pacing headers).
 * When the script runs out it answers with `fallback`.
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  url = '';

  constructor(
    private script: ScriptedReply[],
    private readonly fallback: ScriptedReply,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({ at: Date.now(), method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        const reply = this.script.shift() ?? this.fallback;
        const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status, { ...(body && typeof reply.body !== 'string' ? { 'content-type': 'application/json' } : {}), ...reply.headers });
        res.end(body);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  reset(script: ScriptedReply[]): void {
    this.script = script;
    this.requests.length = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }
}

/** A minimal valid ScanReport for one file, as the scripted server's 200 body. */
export function fakeReport(path: string, band: 'info' | 'low' | 'medium' | 'high' | 'critical' = 'info', score = 100): unknown {
  return {
    summary: { file_count: 1, scored_count: 1, judged_count: 0, worst_score: score, worst_band: band, aggregate_assessed_intent: null },
    files: [
      {
        relative_path: path,
        kind: 'agent_file',
        score,
        band,
        assessed_intent: null,
        static_findings: [],
        llm_findings: [],
        content_skipped: false,
        sha256: '0'.repeat(64),
        verdict: { decision: 'allow', reasons: [], hard_block_rule_ids: [], judge_used: false },
        score_breakdown: {
          raw_score: score,
          ceiling: { value: 100, source: null },
          static_risk: 0,
          judge_risk: 0,
          per_category: {},
          adjustments: [],
          coverage: { bytes_analysed: 10, bytes_total: 10, judge_status: 'disabled' },
        },
      },
    ],
  };
}

/** SARIF 2.1.0 schema (draft-04, as published) shipped by @microsoft/jest-sarif. */
export function sarifValidator(): ValidateFunction {
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
  // Ajv 8 speaks draft-07: the draft-04 header and `id` are the only parts it does not accept here.
  delete schema.$schema;
  schema.$id = schema.id;
  delete schema.id;
  // unicodeRegExp off: the published `language` pattern has a stray "]" that the u flag rejects.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}
