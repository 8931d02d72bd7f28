/**
 * Options for `createJudge`. The JUDGE_* settings as every entry point reads them
 * (`judgeSettingsFrom`, src/config/app-config.ts) are assignable to this type as is; null and
 * undefined both mean "not set".
 */
export type JudgeProviderName = 'none' | 'openai' | 'anthropic';

export const JUDGE_PROVIDERS: readonly JudgeProviderName[] = ['none', 'openai', 'anthropic'];

export interface JudgeOptions {
  provider: JudgeProviderName;
  /** OpenAI-compatible: the base including `/v1` (default https://api.openai.com/v1). Anthropic: default https://api.anthropic.com. */
  baseUrl?: string | null;
  model?: string | null;
  /** Optional for local OpenAI-compatible servers (Ollama, vLLM); required for Anthropic's API. */
  apiKey?: string | null;
  /** Upper bound on judging one file, including every chunk, queueing and the retry. */
  timeoutMs?: number;
  /** Provider requests in flight at once, per judge instance. */
  maxConcurrency?: number;
  /** Characters of numbered file text per request; larger files are split into overlapping chunks. */
  maxChunkChars?: number;
  /** Lines repeated between consecutive chunks. */
  overlapLines?: number;
  /** Output token cap (Anthropic requires one; sent as `max_tokens`). */
  maxOutputTokens?: number;
  /** Prompt and schema version folder under prompts/. */
  promptVersion?: string;
  /** Injected for tests; defaults to global fetch. */
  fetch?: typeof fetch;
  /** Injected for request snapshots; defaults to 128 random bits in hex. */
  nonceFactory?: () => string;
}

export const JUDGE_DEFAULTS = {
  timeoutMs: 20_000,
  maxConcurrency: 4,
  maxChunkChars: 24_000,
  overlapLines: 20,
  maxOutputTokens: 4096,
  openaiBaseUrl: 'https://api.openai.com/v1',
  anthropicBaseUrl: 'https://api.anthropic.com',
} as const;

/** Throws on options that cannot work, so a misconfigured judge fails at start-up. */
export function validateJudgeOptions(o: JudgeOptions): void {
  if (!JUDGE_PROVIDERS.includes(o.provider)) throw new Error(`Unknown judge provider "${String(o.provider)}"`);
  if (o.provider === 'none') return;
  if (!o.model) throw new Error(`JUDGE_MODEL is required for JUDGE_PROVIDER=${o.provider}`);
  if (o.provider === 'anthropic' && !o.apiKey && !o.baseUrl) {
    throw new Error('JUDGE_API_KEY is required for JUDGE_PROVIDER=anthropic with the default base URL');
  }
  if (o.baseUrl != null) {
    let url: URL;
    try {
      url = new URL(o.baseUrl);
    } catch {
      throw new Error('JUDGE_BASE_URL is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('JUDGE_BASE_URL must be http(s)');
    if (url.username || url.password) throw new Error('JUDGE_BASE_URL must not carry credentials; use JUDGE_API_KEY');
  }
  const positiveInt = (name: string, v: number | undefined, min = 1) => {
    if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new Error(`${name} must be an integer >= ${min}`);
  };
  positiveInt('JUDGE_TIMEOUT_MS', o.timeoutMs, 1);
  positiveInt('maxConcurrency', o.maxConcurrency, 1);
  positiveInt('maxChunkChars', o.maxChunkChars, 1000);
  positiveInt('overlapLines', o.overlapLines, 0);
  positiveInt('maxOutputTokens', o.maxOutputTokens, 256);
}
