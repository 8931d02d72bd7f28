import { initCodeParsers } from '../code/tree-sitter';
import { createHash } from 'node:crypto';
import { DomainError, ScannerFailedError } from '../../common/errors';
import { extractUpload, type UploadEntry } from '../archive/upload-extractor';
import { isOsMetadataFolder } from '../archive/os-metadata';
import { DEFAULT_SCAN_LIMITS, type ScanLimits } from '../archive/scan-limits';
import { disguisedMetadataFinding, encodingFindings, prefixedArchiveFinding, skippedFileFindings, type SkippedEntry } from './coverage-findings';
import { boundEvidence, boundText } from './evidence';
import { classifyOpaque, detectTextKind, nameClaimsText } from './kind-detector';
import { buildSummary } from './report-summary';
import {
  BANDS,
  INTENTS,
  judgeFindingsApply,
  severityRank,
  type AnalysisBundle,
  type AnalysisFile,
  type FileKind,
  type Judge,
  type JudgeFinding,
  type JudgeResult,
  type ScanFileEntry,
  type ScanReport,
  type ScoreBreakdown,
  type ScoreFileFn,
  type SkipReason,
  type SkippedFile,
  type StaticAnalyzer,
  type StaticFinding,
  type Verdict,
} from './scan-report.types';
import { decodeText } from './text-decoder';
import { staticIntent, worseIntent } from '../scoring/static-intent';

/**
 * The scan pipeline (docs/scanner-pipeline.md): upload → entries → kind → decode → rule engine → judge →
 * scoring → ScanReport. Plain TypeScript, no Nest: the HTTP worker pool, the CLI (`--local`) and
 * the evaluation harness all call `scanUpload`. Stateless; nothing touches disk or logs.
 */

export interface ScanUploadInput {
  /** Client file name (may carry a relative path such as `.claude/settings.json`). */
  filename?: string | null;
  bytes: Uint8Array;
}

export interface ScanDeps {
  analyzer: StaticAnalyzer;
  scoreFile: ScoreFileFn;
  /** Defaults to the `none` judge (status `disabled`). */
  judge?: Judge;
  limits?: Partial<ScanLimits>;
  /** Internal deadline: 502 if it fires during the CPU-bound phase; the judge receives it too. */
  signal?: AbortSignal;
}

/** Findings kept per file in the report, worst first (bounds the response size). */
export const MAX_REPORTED_FINDINGS = 200;

const DISABLED_RESULT: JudgeResult = { status: 'disabled', assessed_intent: null, confidence: null, findings: [], demoted_rule_ids: [] };
const DISABLED_JUDGE: Judge = { provider: 'none', judge: () => Promise.resolve(DISABLED_RESULT) };

interface AnalysableEntry {
  entry: UploadEntry;
  file: AnalysisFile;
  invalidSequences: number;
  controlChars: number;
}

interface ClassifiedSkip extends SkippedEntry {
  kind: FileKind;
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function classify(entries: UploadEntry[]): { analysable: AnalysableEntry[]; skipped: ClassifiedSkip[] } {
  const analysable: AnalysableEntry[] = [];
  const skipped: ClassifiedSkip[] = [];
  for (const entry of entries) {
    const path = entry.relativePath;
    if (entry.type === 'directory') {
      // A folder macOS or a volume adds (`__MACOSX/`) is metadata; a directory holds no bytes either way.
      skipped.push({ entry, kind: 'directory', reason: isOsMetadataFolder(path) ? 'os_metadata' : 'directory' });
      continue;
    }
    if (entry.type === 'os_metadata') {
      skipped.push({ entry, kind: 'binary', reason: 'os_metadata' });
      continue;
    }
    if (entry.bytes.length === 0) {
      skipped.push({ entry, kind: detectTextKind(path, ''), reason: 'empty' });
      continue;
    }
    const opaque = classifyOpaque(path, entry.bytes);
    if (opaque) {
      skipped.push({ entry, kind: opaque.kind, reason: opaque.skipReason });
      continue;
    }
    const decoded = decodeText(entry.bytes, { claimsText: nameClaimsText(path) });
    if (!decoded.ok) {
      const kind = decoded.reason === 'binary' ? 'binary' : detectTextKind(path, '');
      skipped.push({ entry, kind, reason: decoded.reason });
      continue;
    }
    analysable.push({
      entry,
      file: { relativePath: path, kind: detectTextKind(path, decoded.text), text: decoded.text, byteLength: entry.bytes.length },
      invalidSequences: decoded.invalidSequences,
      controlChars: decoded.controlChars,
    });
  }
  return { analysable, skipped };
}

/** The file bundle-level findings attach to: SKILL.md, else an agent file, else the first text file. */
function choosePrimary(files: AnalysisFile[]): string | null {
  const depth = (p: string): number => p.split('/').length;
  const byDepth = [...files].sort((a, b) => depth(a.relativePath) - depth(b.relativePath) || cmp(a.relativePath, b.relativePath));
  return (
    byDepth.find((f) => /(^|\/)skill\.md$/i.test(f.relativePath))?.relativePath ??
    byDepth.find((f) => f.kind === 'agent_file')?.relativePath ??
    byDepth[0]?.relativePath ??
    null
  );
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function boundStatic(findings: StaticFinding[]): StaticFinding[] {
  const sorted = findings.length > MAX_REPORTED_FINDINGS ? [...findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity)) : findings;
  return sorted.slice(0, MAX_REPORTED_FINDINGS).map((f) => ({ ...f, evidence: boundEvidence(f.evidence), message: boundText(f.message) }));
}

function boundJudge(findings: JudgeFinding[]): JudgeFinding[] {
  return findings.slice(0, MAX_REPORTED_FINDINGS).map((f) => ({ ...f, evidence: boundEvidence(f.evidence), rationale: boundText(f.rationale) }));
}

async function runJudge(judge: Judge, input: Parameters<Judge['judge']>[0]): Promise<JudgeResult> {
  try {
    const r = await judge.judge(input);
    const intentOk = r.assessed_intent === null || INTENTS.includes(r.assessed_intent);
    return intentOk ? r : { ...r, status: 'malformed_output', assessed_intent: null };
  } catch {
    // The Judge contract says "never throws"; if one does, the file is still scored statically.
    return { status: 'provider_error', assessed_intent: null, confidence: null, findings: [], demoted_rule_ids: [] };
  }
}

function checkDeadline(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ScannerFailedError('The scan did not finish within its internal deadline.');
}

const HARMLESS_SKIPS: ReadonlySet<SkipReason> = new Set<SkipReason>(['directory', 'os_metadata', 'empty']);

/** The entry of a file that was not analysed; its risk, if any, is carried by findings elsewhere. */
function skippedEntry(s: ClassifiedSkip, primary: string | null, risky: boolean): ScanFileEntry {
  const harmless = HARMLESS_SKIPS.has(s.reason) && !risky;
  const verdict: Verdict = {
    decision: harmless ? 'allow' : 'review',
    reasons: [
      harmless
        ? `Not analysed: ${s.reason.replace('_', ' ')}.`
        : `Content not analysed (${s.reason.replace('_', ' ')})${primary ? '; the risk is reported on the primary file' : ''}.`,
    ],
    hard_block_rule_ids: [],
    judge_used: false,
  };
  return {
    relative_path: s.entry.relativePath,
    kind: s.kind,
    score: null,
    band: 'info',
    assessed_intent: null,
    static_findings: [],
    llm_findings: [],
    content_skipped: true,
    skip_reason: s.reason,
    sha256: sha256(s.entry.bytes),
    verdict,
    score_breakdown: notAnalysedBreakdown(s.reason, s.entry.bytes.length),
  };
}

/** Nothing was scored: no risk, no ceiling, no judge; the coverage says what was not analysed and why. */
function notAnalysedBreakdown(reason: SkipReason, bytesTotal: number): ScoreBreakdown {
  return {
    raw_score: 100,
    ceiling: { value: 100, source: null },
    static_risk: 0,
    judge_risk: 0,
    per_category: {},
    adjustments: [],
    coverage: { bytes_analysed: 0, bytes_total: bytesTotal, judge_status: 'skipped', skip_reason: reason },
  };
}

/** A file after the CPU-bound phase: decoded, analysed statically, hashed. Structured-cloneable. */
export interface PreparedFile {
  file: AnalysisFile;
  sha256: string;
  staticFindings: StaticFinding[];
}

/**
 * The result of the CPU-bound half of a scan (extract, decode, classify, rule engine). Plain data,
 * so a worker thread can produce it and the main thread can finish the scan with the judge, whose
 * time is network wait rather than CPU.
 */
export interface PreparedScan {
  bundle: AnalysisBundle;
  files: PreparedFile[];
  skipped: PreparedSkip[];
  /** A part of a scan shared between workers (PrepareDeps.shard): the bundle's files it holds, by index. */
  shardFiles?: number[];
}

/** One of `count` parts of a scan, each analysing its own files of the same bundle (mergeShards joins them). */
export interface ScanShard {
  index: number;
  count: number;
}

/**
 * The part each analysed file belongs to: largest file first, to the part with the fewest bytes so
 * far (ties to the lower index), so every part computes the same split from the bundle alone.
 */
export function shardOwners(byteLengths: readonly number[], count: number): number[] {
  const owners = new Array<number>(byteLengths.length).fill(0);
  const load = new Array<number>(count).fill(0);
  const bySize = byteLengths.map((_, i) => i).sort((a, b) => byteLengths[b]! - byteLengths[a]! || a - b);
  for (const i of bySize) {
    let least = 0;
    for (let k = 1; k < count; k++) if (load[k]! < load[least]!) least = k;
    owners[i] = least;
    load[least]! += byteLengths[i]!;
  }
  return owners;
}

/** The scan of a whole bundle from its parts (one per shard, any order): the files back in bundle order. */
export function mergeShards(parts: readonly PreparedScan[]): PreparedScan {
  const first = parts[0];
  if (!first) throw new ScannerFailedError('The scanner returned no result.');
  const files = new Array<PreparedFile>(first.bundle.files.length);
  let placed = 0;
  for (const part of parts) {
    part.files.forEach((f, k) => {
      const at = part.shardFiles?.[k];
      if (at === undefined || files[at] !== undefined) throw new ScannerFailedError('The scanner returned inconsistent parts.');
      files[at] = f;
      placed++;
    });
  }
  if (placed !== files.length) throw new ScannerFailedError('The scanner returned inconsistent parts.');
  return { bundle: first.bundle, files, skipped: first.skipped };
}

/**
 * A file that was not analysed. When nothing in the upload was analysed, its risk findings are
 * its own and it is scored from them alone (no primary file can carry them).
 */
export interface PreparedSkip {
  entry: ScanFileEntry;
  byteLength: number;
  findings: StaticFinding[];
}

export interface PrepareDeps {
  analyzer: StaticAnalyzer;
  limits?: Partial<ScanLimits>;
  /** Checked between CPU phases; once aborted the scan fails with 502. */
  signal?: AbortSignal;
  /** Analyse only this part's files (shardOwners); the result names them in `shardFiles`. */
  shard?: ScanShard;
}

export interface CompleteDeps {
  scoreFile: ScoreFileFn;
  /** Defaults to the `none` judge (status `disabled`). */
  judge?: Judge;
  /** Handed to the judge: when it fires, the judge answers `timeout` and scoring stays static. */
  signal?: AbortSignal;
}

function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // No content or stack in the message: it reaches the client and possibly logs.
    throw new ScannerFailedError('The scanner failed while analysing the upload.');
  }
}

/** CPU-bound half: upload → entries → kinds → text → static findings. Throws 400/413/502. */
export function prepareScan(input: ScanUploadInput, deps: PrepareDeps): PreparedScan {
  const limits: ScanLimits = { ...DEFAULT_SCAN_LIMITS, ...deps.limits };
  const { entries, prefixBytes } = extractUpload(input, limits);
  checkDeadline(deps.signal);

  const { analysable, skipped } = classify(entries);
  const files = analysable.map((a) => a.file);
  const primaryPath = choosePrimary(files);
  const skippedFiles: SkippedFile[] = skipped
    .filter((s) => s.reason !== 'directory' && s.reason !== 'os_metadata')
    .map((s) => ({ relativePath: s.entry.relativePath, kind: s.kind, skipReason: s.reason, byteLength: s.entry.bytes.length }));
  const bundle: AnalysisBundle = { files, skipped: skippedFiles, primaryPath };
  // What was not analysed is reported on the primary file, or on itself when nothing was analysed.
  const skipFindings = skippedFileFindings(skipped, files, (s) => primaryPath ?? s.entry.relativePath);
  const bundleFindings = primaryPath ? [...skipFindings.values(), ...(prefixBytes ? [prefixedArchiveFinding(primaryPath, prefixBytes)] : [])] : [];

  const shard = deps.shard;
  const owners = shard
    ? shardOwners(
        files.map((f) => f.byteLength),
        shard.count,
      )
    : null;
  const shardFiles: number[] = [];
  const prepared: PreparedFile[] = [];
  analysable.forEach((a, i) => {
    if (owners && owners[i] !== shard?.index) return;
    const found = guarded(() => deps.analyzer.analyze(a.file, bundle));
    checkDeadline(deps.signal);
    const extra = a.file.relativePath === primaryPath ? bundleFindings : [];
    const disguise = a.entry.metadataName ? [disguisedMetadataFinding(a.file, a.entry.bytes)] : [];
    shardFiles.push(i);
    prepared.push({
      file: a.file,
      sha256: sha256(a.entry.bytes),
      staticFindings: [...found, ...encodingFindings(a.file, a.invalidSequences, a.controlChars), ...disguise, ...extra],
    });
  });
  const ownFindings = (path: string): StaticFinding[] => {
    const own = primaryPath ? undefined : skipFindings.get(path);
    if (!own) return [];
    return prefixBytes ? [own, prefixedArchiveFinding(path, prefixBytes)] : [own];
  };
  return {
    bundle,
    files: prepared,
    skipped: skipped.map((s) => ({
      entry: skippedEntry(s, primaryPath, skipFindings.has(s.entry.relativePath)),
      byteLength: s.entry.bytes.length,
      findings: ownFindings(s.entry.relativePath),
    })),
    ...(shard ? { shardFiles } : {}),
  };
}

function checkedScore(scored: ReturnType<ScoreFileFn>): ReturnType<ScoreFileFn> {
  if (!Number.isInteger(scored.score) || scored.score < 0 || scored.score > 100 || !BANDS.includes(scored.band)) {
    throw new ScannerFailedError('The scanner produced an invalid score.');
  }
  return scored;
}

/** A skipped file that carries its own risk findings: scored from them, content still marked skipped. */
function completeSkip(s: PreparedSkip, deps: CompleteDeps): ScanFileEntry {
  if (s.findings.length === 0) return s.entry;
  const file: AnalysisFile = { relativePath: s.entry.relative_path, kind: s.entry.kind, text: '', byteLength: s.byteLength };
  const scored = checkedScore(guarded(() => deps.scoreFile({ file, staticFindings: s.findings, judge: DISABLED_RESULT })));
  return {
    ...s.entry,
    score: scored.score,
    band: scored.band,
    static_findings: boundStatic(scored.staticFindings),
    verdict: {
      ...scored.verdict,
      // Content that was not analysed is never allowed on its score alone.
      decision: scored.verdict.decision === 'allow' ? 'review' : scored.verdict.decision,
      reasons: [...s.entry.verdict.reasons, ...scored.verdict.reasons].map((r) => boundText(r, 300)),
    },
    score_breakdown: { ...scored.breakdown, coverage: s.entry.score_breakdown.coverage },
  };
}

async function completeFile(p: PreparedFile, bundle: AnalysisBundle, deps: CompleteDeps, judge: Judge): Promise<ScanFileEntry> {
  const judged = await runJudge(judge, { file: p.file, bundle, staticFindings: p.staticFindings, signal: deps.signal });
  const scored = checkedScore(guarded(() => deps.scoreFile({ file: p.file, staticFindings: p.staticFindings, judge: judged })));
  return {
    relative_path: p.file.relativePath,
    kind: p.file.kind,
    score: scored.score,
    band: scored.band,
    // The judge's read when it answered, never milder than what the static signals show.
    assessed_intent: worseIntent(judged.status === 'ok' ? judged.assessed_intent : null, staticIntent(scored.band, scored.staticFindings)),
    static_findings: boundStatic(scored.staticFindings),
    llm_findings: judgeFindingsApply(judged) ? boundJudge(judged.findings) : [],
    content_skipped: false,
    sha256: p.sha256,
    verdict: { ...scored.verdict, reasons: scored.verdict.reasons.map((r) => boundText(r, 300)) },
    score_breakdown: scored.breakdown,
  };
}

/** I/O half: judge each analysed file (concurrently), score, assemble the report. */
export async function completeScan(prepared: PreparedScan, deps: CompleteDeps): Promise<ScanReport> {
  const judge = deps.judge ?? DISABLED_JUDGE;
  const analysed = await Promise.all(prepared.files.map((p) => completeFile(p, prepared.bundle, deps, judge)));
  const skipped = prepared.skipped.map((s) => completeSkip(s, deps));
  const files = [...analysed, ...skipped].sort((x, y) => cmp(x.relative_path, y.relative_path));
  const byteLengths = new Map<string, number>([
    ...prepared.files.map((p): [string, number] => [p.file.relativePath, p.file.byteLength]),
    ...prepared.skipped.map((s): [string, number] => [s.entry.relative_path, s.byteLength]),
  ]);
  return { summary: buildSummary(files, byteLengths), files };
}

/**
 * Scans one upload (a single file or a zip bundle) and returns the report, in-process (CLI,
 * evaluation harness). Throws the typed domain errors: 400 (empty/unextractable), 413 (limits),
 * 502 (analysis failed or the deadline passed during the CPU-bound phase). A deadline reached
 * while judging is not an error: the judge answers `timeout` and the file is scored statically.
 */
export async function scanUpload(input: ScanUploadInput, deps: ScanDeps): Promise<ScanReport> {
  // The code layer's parsers load asynchronously; wait for them rather than scan without them.
  await initCodeParsers();
  const prepared = prepareScan(input, deps);
  return completeScan(prepared, deps);
}
