import { randomBytes } from 'node:crypto';
import {
  confidenceRank,
  intentRank,
  type AssessedIntent,
  type Confidence,
  type Judge,
  type JudgeFinding,
  type JudgeInput,
  type JudgeResult,
  type JudgeStatus,
  type StaticFinding,
} from '../engine/scan-report.types';
import { chunkLines, type Chunk } from './chunker';
import { ConcurrencyLimiter } from './concurrency-limiter';
import { renderFile, type RenderedLine } from './content-renderer';
import { verifyFinding, normaliseForMatch } from './evidence-verifier';
import { checkForInjection } from './injection-guard';
import { JudgeCallError } from './judge-call-error';
import { JUDGE_DEFAULTS, type JudgeOptions } from './judge-options';
import { loadPromptAssets, type PromptAssets } from './prompt-assets';
import { buildPrompt, hypothesesForChunk, type JudgePrompt } from './prompt-builder';
import { parseReply, type JudgeReply } from './reply-parser';

const MAX_FINDINGS = 50;
/** Severities a documentation-context demotion may touch (docs/decisions/0022-scanner-scoring-and-judge-authority.md). */
const DEMOTABLE = new Set(['info', 'low', 'medium']);

/** The result for a file the judge did not (fully) read: scored from static rules alone. */
export function unjudgedResult(status: JudgeStatus, findings: JudgeFinding[] = []): JudgeResult {
  return { status, assessed_intent: null, confidence: null, findings, demoted_rule_ids: [] };
}

interface ChunkVerdict {
  chunk: Chunk;
  reply: JudgeReply;
  offeredRuleIds: Set<string>;
}

/**
 * The provider-independent half of the judge: rendering, the injection guard, chunking, prompt
 * building, bounded concurrency, the deadline, one retry on malformed output, evidence
 * verification, authority filtering and failure mapping. Subclasses only speak a wire format.
 * Plain class (no Nest) so it runs in the Nest process, worker threads and the CLI alike.
 */
export abstract class LlmJudge implements Judge {
  abstract readonly provider: 'openai' | 'anthropic';
  protected readonly fetchImpl: typeof fetch;
  protected readonly assets: PromptAssets;
  private readonly limiter: ConcurrencyLimiter;
  private readonly timeoutMs: number;
  private readonly maxChunkChars: number;
  private readonly overlapLines: number;
  private readonly nonceFactory: () => string;

  protected constructor(protected readonly options: JudgeOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.assets = loadPromptAssets(options.promptVersion);
    this.limiter = new ConcurrencyLimiter(options.maxConcurrency ?? JUDGE_DEFAULTS.maxConcurrency);
    this.timeoutMs = options.timeoutMs ?? JUDGE_DEFAULTS.timeoutMs;
    this.maxChunkChars = options.maxChunkChars ?? JUDGE_DEFAULTS.maxChunkChars;
    this.overlapLines = options.overlapLines ?? JUDGE_DEFAULTS.overlapLines;
    this.nonceFactory = options.nonceFactory ?? (() => randomBytes(16).toString('hex'));
  }

  get promptVersion(): string {
    return this.assets.version;
  }

  /** Provider requests currently in flight (for tests and metrics). */
  get inFlight(): number {
    return this.limiter.inFlight;
  }

  /** Sends one prompt; returns the assistant text or throws a JudgeCallError. */
  protected abstract complete(prompt: JudgePrompt, signal: AbortSignal): Promise<string>;

  async judge(input: JudgeInput): Promise<JudgeResult> {
    try {
      return await this.judgeFile(input);
    } catch {
      // The contract is "never throws"; anything unforeseen is reported as a provider failure.
      return unjudgedResult('provider_error');
    }
  }

  private async judgeFile(input: JudgeInput): Promise<JudgeResult> {
    const { file } = input;
    if (file.text.trim() === '') return unjudgedResult('skipped');
    const rendered = renderFile(file.text);
    const guard = checkForInjection(file.relativePath, rendered.lines);
    if (guard.delimiterFindings.length > 0) {
      return {
        status: 'injection_detected',
        assessed_intent: 'suspicious',
        confidence: 'medium',
        findings: [...guard.delimiterFindings, ...guard.reviewerFindings],
        demoted_rule_ids: [],
      };
    }

    const chunks = chunkLines(rendered.lines, { maxChars: this.maxChunkChars, overlapLines: this.overlapLines });
    const staticFindings = input.staticFindings;
    // One controller for the file: the deadline, the caller's signal, or the first failed chunk stop the rest.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new JudgeCallError('timeout', 'judge deadline reached')), this.timeoutMs);
    const onCallerAbort = () => controller.abort(new JudgeCallError('timeout', 'scan deadline reached'));
    input.signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (input.signal?.aborted) onCallerAbort();
    let verdicts: ChunkVerdict[];
    try {
      verdicts = await Promise.all(
        chunks.map(async (chunk) => {
          try {
            return await this.judgeChunk(input, rendered.lines, chunk, staticFindings, controller.signal);
          } catch (err) {
            if (!controller.signal.aborted) controller.abort(err);
            throw err;
          }
        }),
      );
    } catch (err) {
      const reason: unknown = controller.signal.reason ?? err;
      const status = reason instanceof JudgeCallError ? reason.status : 'provider_error';
      return unjudgedResult(status, guard.reviewerFindings);
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onCallerAbort);
    }
    return this.merge(file.relativePath, rendered.lines, verdicts, staticFindings, guard.reviewerFindings);
  }

  private async judgeChunk(
    input: JudgeInput,
    lines: readonly RenderedLine[],
    chunk: Chunk,
    staticFindings: readonly StaticFinding[],
    signal: AbortSignal,
  ): Promise<ChunkVerdict> {
    const hypotheses = hypothesesForChunk(input.file, staticFindings, chunk);
    let lastError = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const prompt = buildPrompt({
        assets: this.assets,
        file: input.file,
        bundle: input.bundle,
        totalLines: lines.length,
        chunk,
        hypotheses,
        nonce: this.freshNonce(input.file.text),
        retry: attempt > 0,
      });
      const text = await this.limiter.run(() => this.complete(prompt, signal), signal);
      const parsed = parseReply(text, this.assets.replySchema);
      if (parsed.ok) return { chunk, reply: parsed.reply, offeredRuleIds: new Set(hypotheses.map((h) => h.rule_id)) };
      lastError = parsed.error;
    }
    throw new JudgeCallError('malformed_output', `reply rejected twice (${lastError})`);
  }

  /** A nonce that does not occur in the file, so the file cannot already contain our delimiter. */
  private freshNonce(text: string): string {
    for (;;) {
      const nonce = this.nonceFactory();
      if (!text.includes(nonce)) return nonce;
    }
  }

  private merge(
    path: string,
    lines: readonly RenderedLine[],
    verdicts: ChunkVerdict[],
    staticFindings: readonly StaticFinding[],
    reviewerFindings: JudgeFinding[],
  ): JudgeResult {
    // Intent: the worst over chunks; confidence: the highest among chunks that reached it.
    let intent: AssessedIntent = 'benign';
    for (const v of verdicts) if (intentRank(v.reply.assessed_intent) > intentRank(intent)) intent = v.reply.assessed_intent;
    let confidence: Confidence = intent === 'benign' ? 'high' : 'low';
    for (const v of verdicts) {
      if (v.reply.assessed_intent !== intent) continue;
      const c = v.reply.confidence;
      // Benign must hold in every chunk, so its confidence is the weakest; a risk needs one strong read.
      if (intent === 'benign' ? confidenceRank(c) < confidenceRank(confidence) : confidenceRank(c) > confidenceRank(confidence)) confidence = c;
    }

    const findings: JudgeFinding[] = [];
    const seen = new Set<string>();
    for (const f of [...reviewerFindings, ...verdicts.flatMap((v) => v.reply.findings.map((x) => verifyFinding(x, path, lines)))]) {
      if (!f) continue;
      const key = `${f.category}|${f.locator}|${normaliseForMatch(f.evidence)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
    findings.splice(MAX_FINDINGS);

    // A file that addresses the reviewer cannot be read as benign, and its judge may not demote.
    if (reviewerFindings.length > 0 && intent === 'benign') {
      intent = 'suspicious';
      confidence = 'medium';
    }
    const demoted = reviewerFindings.length > 0 ? [] : this.allowedDemotions(verdicts, staticFindings);
    return { status: 'ok', assessed_intent: intent, confidence, findings, demoted_rule_ids: demoted };
  }

  /**
   * Demotions the judge is allowed to make: rule ids of this file's static findings that are all
   * low/medium (or info) and not hard-block, demoted by every chunk they were offered to.
   * Scoring enforces the hard-block ceiling again; this keeps the JudgeResult honest on its own.
   */
  private allowedDemotions(verdicts: ChunkVerdict[], staticFindings: readonly StaticFinding[]): string[] {
    const requested = new Set(verdicts.flatMap((v) => v.reply.demote_rule_ids));
    const out: string[] = [];
    for (const ruleId of requested) {
      const instances = staticFindings.filter((f) => f.rule_id === ruleId);
      if (instances.length === 0) continue;
      if (instances.some((f) => f.hard_block || !DEMOTABLE.has(f.severity))) continue;
      const offeredTo = verdicts.filter((v) => v.offeredRuleIds.has(ruleId));
      if (offeredTo.length === 0 || offeredTo.some((v) => !v.reply.demote_rule_ids.includes(ruleId))) continue;
      out.push(ruleId);
    }
    return out.sort();
  }
}
