import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BANDS, SEVERITIES, type Band, type Severity } from '../../scanner/engine/scan-report.types';
import { ALL_RULES } from '../../scanner/rules/presets';
import { EXIT_OK, UsageError, type CliIo } from '../cli-io';
import { resolveRemoteSettings, requireKey } from '../cli-settings';
import { cliVersion, userAgent } from '../cli-version';
import { ApiClient } from '../http/api-client';
import { formatJson } from '../output/json-report.formatter';
import { formatMarkdown } from '../output/markdown-report.formatter';
import { formatSarif } from '../output/sarif-report.formatter';
import { choosePalette, safeText } from '../output/terminal';
import { formatText } from '../output/text-report.formatter';
import { discoverTargets } from '../scan/agent-file-discovery';
import { readBaseline, writeBaseline, type Baseline } from '../scan/baseline';
import { coverageLine } from '../scan/coverage';
import { markersInUpload } from '../scan/inline-markers';
import { DEFAULT_POLICY, parsePolicyName, POLICY_NAMES, policyOf, rulesOff } from '../scan/policy';
import { CONFIG_FILE_NAMES, loadScanConfig } from '../scan/scan-config';
import { exitCodeOf, findingsOf, gateLines, outcomeOf, summarise, type ScanRun, type UploadOutcome } from '../scan/scan-run';
import { DEFAULT_MAX_UPLOADS, planUploads, type PlannedUpload } from '../scan/upload-planner';
import { createLocalScanner, createRemoteScanner, RunStoppedError, UploadFailedError, type UploadScanner } from '../scan/upload-scanners';

export const SCAN_HELP = `Usage: bulwark scan [options] <path…>

Scans agent files: single files, skill folders, .zip bundles, or a whole repository
(\`bulwark scan .\` finds SKILL.md, AGENTS.md, CLAUDE.md, .cursorrules, .cursor/rules,
copilot-instructions.md, MCP configs, agent settings…; node_modules and .git are ignored).

Options:
  --local                 run the scanner engine in-process (no server; judge off unless JUDGE_PROVIDER is set)
  --server <url>          server base URL (default: BULWARK_SERVER, the config file, or http://localhost:3000)
  --format <f>            text (default), json (the ScanReports), sarif (SARIF 2.1.0) or markdown
                          (for a pull-request comment or $GITHUB_STEP_SUMMARY)
  -o, --output <file>     write the report to a file instead of stdout
  --policy <p>            strict|balanced|permissive (default balanced): which rules and finding contexts
                          count, before the config file's entries (table: docs/rules.md#policy-presets)
  --report <f>=<file>     also write the same run as format f to file (repeatable), e.g.
                          --report sarif=bulwark.sarif --report markdown=summary.md
  --progress              show progress on stderr even when it is not a terminal (one line per 5%)
  --fail-on <band>        exit 1 when a file is in this band or worse: info|low|medium|high|critical|none (default none)
  --fail-on-severity <s>  exit 1 when any finding has this severity or worse: info|low|medium|high|critical|none (default none)
  --allow-unscanned       do not fail (exit 3) when agent files were found but not analysed
  --config <file>         suppressions file (default: .bulwark.yaml in the working folder; see docs/cli.md)
  --baseline <file>       findings recorded in this baseline are accepted: only new ones count
  --write-baseline <file> record this run's findings as the accepted baseline
  --concurrency <n>       uploads in flight at once (default 4 remote, 1 local)
  --max-uploads <n>       uploads at most; files past it are not analysed, which fails the run (default ${DEFAULT_MAX_UPLOADS})
  -h, --help              show this help

Suppressions come only from the config file and the baseline; markers inside scanned files
("bulwark-disable", "nosec" …) are listed, never obeyed. Suppressed findings stay in the reports.
Remote mode sends Authorization: Bearer $BULWARK_API_KEY (or "api_key" from the config file).
Exit codes: 0 pass, 1 gated findings, 2 usage or transport errors (incomplete scan),
3 agent files found but not analysed (without --allow-unscanned), 4 invalid config or baseline, 130 interrupted.
`;

const FORMATS = ['text', 'json', 'sarif', 'markdown'] as const;
type Format = (typeof FORMATS)[number];
const isFormat = (f: string): f is Format => (FORMATS as readonly string[]).includes(f);

/** `--report sarif=out.sarif`: the format and the file, checked before anything is scanned. */
function reportTarget(raw: string): { format: Format; file: string } {
  const eq = raw.indexOf('=');
  const format = raw.slice(0, Math.max(0, eq));
  const file = raw.slice(eq + 1);
  if (eq < 0 || !isFormat(format) || file === '') throw new UsageError(`--report takes <format>=<file> with format ${FORMATS.join(', ')}; got "${raw}"`);
  return { format, file };
}

function intFlag(raw: string | undefined, name: string, def: number, min: number, max: number): number {
  if (raw === undefined) return def;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}; got "${raw}"`);
  return Number(raw);
}

/** Runs `fn` over items with at most `limit` in flight; stops scheduling after a RunStoppedError. */
async function pool<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let stopped: unknown = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && stopped === null) {
      const i = next++;
      try {
        await fn(items[i], i);
      } catch (err) {
        stopped ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (stopped !== null) throw stopped;
}

export async function runScan(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        local: { type: 'boolean', default: false },
        server: { type: 'string' },
        format: { type: 'string', default: 'text' },
        output: { type: 'string', short: 'o' },
        policy: { type: 'string', default: DEFAULT_POLICY },
        report: { type: 'string', multiple: true, default: [] },
        progress: { type: 'boolean', default: false },
        'fail-on': { type: 'string', default: 'none' },
        'fail-on-severity': { type: 'string', default: 'none' },
        'allow-unscanned': { type: 'boolean', default: false },
        config: { type: 'string' },
        baseline: { type: 'string' },
        'write-baseline': { type: 'string' },
        concurrency: { type: 'string' },
        'max-uploads': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(SCAN_HELP);
    return EXIT_OK;
  }
  const format = values.format ?? 'text';
  if (!isFormat(format)) throw new UsageError(`--format must be ${FORMATS.join(', ')}; got "${values.format}"`);
  const extraReports = values.report.map(reportTarget);
  const failOnRaw = values['fail-on'].toLowerCase();
  if (failOnRaw !== 'none' && !BANDS.includes(failOnRaw as Band))
    throw new UsageError(`--fail-on must be one of ${BANDS.join('|')}|none; got "${values['fail-on']}"`);
  const failOn = failOnRaw === 'none' ? null : (failOnRaw as Band);
  const policy = parsePolicyName(values.policy);
  if (!policy) throw new UsageError(`--policy must be ${POLICY_NAMES.join(', ').replace(/, (\w+)$/, ' or $1')}; got "${values.policy}"`);
  const failOnSevRaw = values['fail-on-severity'].toLowerCase();
  if (failOnSevRaw !== 'none' && !SEVERITIES.includes(failOnSevRaw as Severity)) {
    throw new UsageError(`--fail-on-severity must be one of ${SEVERITIES.join('|')}|none; got "${values['fail-on-severity']}"`);
  }
  const failOnSeverity = failOnSevRaw === 'none' ? null : (failOnSevRaw as Severity);
  if (positionals.length === 0) throw new UsageError('Give at least one file or folder to scan, e.g. `bulwark scan .`');
  if (values.local && values.server) throw new UsageError('--local and --server exclude each other');
  const concurrency = intFlag(values.concurrency, '--concurrency', values.local ? 1 : 4, 1, 32);
  const maxUploads = intFlag(values['max-uploads'], '--max-uploads', DEFAULT_MAX_UPLOADS, 1, 100_000);
  // The scanning user's side only, read before anything is sent: a bad config stops the run (exit 4).
  const config = loadScanConfig(io.cwd, values.config);
  let baseline: Baseline | null = values.baseline ? readBaseline(io.cwd, values.baseline) : null;
  const notes: string[] = [];
  if (policy !== DEFAULT_POLICY) {
    const preset = policyOf(policy);
    const off = rulesOff(preset).length;
    const rules = off ? `findings of ${off} rule(s) below ${preset.minRuleSeverity} severity are listed as suppressed` : 'every rule counts';
    const contexts = preset.gatedContexts.length > 1 ? 'findings in every context (quoted, negated, example …)' : 'direct findings only';
    notes.push(`Policy ${policy}: ${rules}; --fail-on-severity counts ${contexts} (docs/rules.md#policy-presets).`);
  }
  if (config) notes.push(`Suppressions from ${safeText(config.source)}: ${config.rules.length} rule setting(s), ${config.ignore.length} path ignore(s).`);
  if (config) {
    // A typo in a rule id would silently disable nothing: say so (a warning, not an error: a
    // server can run rules newer than this CLI).
    const known = new Set(ALL_RULES.map((r) => r.meta.id));
    for (const r of config.rules) {
      if (!known.has(r.ruleId) && !/^(?:judge\/|bundle\.|encoding\.)/.test(r.ruleId))
        notes.push(`${safeText(config.source)}: rules.${safeText(r.ruleId)} names no rule this CLI knows (typo?); see docs/rules.md.`);
    }
  }
  for (const arg of positionals) {
    const dir = resolve(io.cwd, arg);
    let isDir = false;
    try {
      isDir = dir !== resolve(io.cwd) && statSync(dir).isDirectory();
    } catch {
      // a missing path is reported by discovery
    }
    for (const name of isDir ? CONFIG_FILE_NAMES : []) {
      if (existsSync(join(dir, name)))
        notes.push(`${safeText(arg)}/${name} was not read: suppressions come from the working folder or --config, never from a scanned folder.`);
    }
  }

  let scanner: UploadScanner;
  let server: string | null = null;
  if (values.local) {
    scanner = createLocalScanner(io.env);
  } else {
    const settings = resolveRemoteSettings(io, values.server);
    for (const w of settings.warnings) io.stderr(`${w}\n`);
    const apiKey = requireKey(settings);
    server = settings.server;
    let lastPaceNote = 0;
    const client = new ApiClient({
      baseUrl: settings.server,
      apiKey,
      signal: io.signal,
      userAgent: userAgent(),
      onRetry: (e) =>
        io.stderr(
          `${e.status ?? 'network error'} (${e.reason.replace('_', ' ')}): retrying in ${(e.delayMs / 1000).toFixed(1)} s${e.serverAsked ? ' as Retry-After asks' : ''} (retry ${e.retry} of 3)\n`,
        ),
      onPace: (ms) => {
        if (Date.now() - lastPaceNote > 5000) {
          lastPaceNote = Date.now();
          io.stderr(`Rate budget nearly used (X-RateLimit-Remaining): slowing down, next request in ${(ms / 1000).toFixed(1)} s\n`);
        }
      },
    });
    scanner = createRemoteScanner(client, { keySource: settings.keySource });
  }

  const discovery = await discoverTargets(positionals, io.cwd);
  if (discovery.truncated) io.stderr('Warning: stopped walking after 200,000 entries; pass narrower paths.\n');
  const plan = await planUploads(discovery, { maxUploads, limits: scanner.limits });

  const outcomes: UploadOutcome[] = new Array<UploadOutcome>(plan.uploads.length);
  // A redrawn line on a terminal; with --progress elsewhere (CI logs), one line per 5% of the uploads.
  const progress = (io.stderrIsTty || values.progress) && plan.uploads.length > 1;
  const redraw = io.stderrIsTty;
  const step = Math.max(1, Math.ceil(plan.uploads.length / 20));
  let done = 0;
  let stoppedMessage: string | null = null;
  try {
    await pool(plan.uploads, concurrency, async (upload: PlannedUpload, i: number) => {
      try {
        outcomes[i] = { ...outcomeOf(upload), report: await scanner.scan(upload) };
      } catch (err) {
        if (err instanceof UploadFailedError || err instanceof RunStoppedError) {
          outcomes[i] = { ...outcomeOf(upload), error: { status: err.status, message: err.message } };
        }
        if (!(err instanceof UploadFailedError)) throw err;
      } finally {
        done += 1;
        if (progress && redraw) io.stderr(`\r\u001b[2KScanning: ${done}/${plan.uploads.length} uploads`);
        else if (progress && (done % step === 0 || done === plan.uploads.length)) io.stderr(`Scanning: ${done}/${plan.uploads.length} uploads\n`);
      }
    });
  } catch (err) {
    if (!(err instanceof RunStoppedError)) throw err;
    stoppedMessage = err.message;
  } finally {
    if (progress && redraw) io.stderr('\r\u001b[2K');
  }
  // Uploads never started because the run stopped: listed as failed, so the scan reads incomplete.
  plan.uploads.forEach((u, i) => {
    outcomes[i] ??= { ...outcomeOf(u), error: { status: null, message: 'not attempted: the run stopped after the error above' } };
  });
  if (stoppedMessage) io.stderr(`${stoppedMessage}\n`);

  const run: ScanRun = {
    mode: values.local ? 'local' : 'remote',
    server,
    judge: scanner.judge,
    outcomes,
    notSent: plan.notSent,
    failOn,
    failOnSeverity,
    policy,
    allowUnscanned: values['allow-unscanned'],
    emptyRoots: discovery.emptyRoots,
    walkTruncated: discovery.truncated,
    config,
    baseline,
    inlineMarkers: plan.uploads.flatMap(markersInUpload),
    notes,
  };
  if (values['write-baseline']) {
    baseline = writeBaseline(io.cwd, values['write-baseline'], findingsOf(run));
    run.baseline = baseline;
    io.stderr(
      `Wrote baseline ${safeText(values['write-baseline'])} (${baseline.fingerprints.length} finding${baseline.fingerprints.length === 1 ? '' : 's'} accepted)\n`,
    );
  }
  const render = (f: Format, colour: boolean): string => {
    switch (f) {
      case 'json':
        return formatJson(run, cliVersion());
      case 'sarif':
        return formatSarif(run, cliVersion(), io.env);
      case 'markdown':
        return formatMarkdown(run, cliVersion(), io.env);
      default:
        return formatText(run, choosePalette(colour, io.env), io.env);
    }
  };
  for (const r of extraReports) {
    writeFileSync(resolve(io.cwd, r.file), render(r.format, false));
    io.stderr(`Wrote ${r.format} report to ${safeText(r.file)}\n`);
  }
  const rendered = render(format, values.output ? false : io.stdoutIsTty);
  if (values.output) {
    const target = resolve(io.cwd, values.output);
    writeFileSync(target, rendered);
    io.stderr(`Wrote ${format} report to ${safeText(values.output)}\n`);
    if (format !== 'text') io.stderr(render('text', io.stderrIsTty));
  } else {
    io.stdout(rendered);
    // Machine formats on stdout: the coverage and gate lines still reach a human (and CI logs).
    if (format !== 'text') io.stderr(`${[coverageLine(summarise(run).coverage), ...gateLines(run)].join('\n')}\n`);
  }
  return exitCodeOf(run);
}
