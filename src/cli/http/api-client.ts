import { CliError, isAbortError } from '../cli-io';
import { cancellableSleep, type Sleep } from './cancellable-sleep';
import { RatePacer } from './rate-pacer';
import { DEFAULT_RETRY_POLICY, decideRetry, type AttemptOutcome, type RetryPolicyOptions, type RetryReason } from './retry-policy';

export interface RetryEvent {
  /** 1-based number of the retry about to happen. */
  retry: number;
  delayMs: number;
  reason: RetryReason;
  status: number | null;
  serverAsked: boolean;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string | null;
  signal: AbortSignal;
  userAgent: string;
  fetchImpl?: typeof fetch;
  sleep?: Sleep;
  now?: () => number;
  retry?: Partial<RetryPolicyOptions>;
  pacer?: RatePacer;
  onRetry?: (event: RetryEvent) => void;
  /** Called with every pacing wait longer than zero (for a "slowing down" note). */
  onPace?: (delayMs: number) => void;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Retries made before this response. */
  retries: number;
  /** Set when the client stopped retrying a retryable status (the response is the last one seen). */
  gaveUp?: 'retries_exhausted' | 'retry_after_beyond_window' | 'window_exhausted';
  /** For retry_after_beyond_window: what the server asked for. */
  askedDelayMs?: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  /** A factory so each attempt gets a fresh body. */
  body?: () => NonNullable<RequestInit['body']>;
  headers?: Record<string, string>;
}

/** The service's `{"detail": …}` as one line (422 arrays joined), or null. */
export function errorDetail(text: string): string | null {
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
    if (Array.isArray(body.detail)) {
      return body.detail.map((i: { loc?: unknown[]; msg?: unknown }) => `${Array.isArray(i.loc) ? i.loc.join('.') : '?'}: ${String(i.msg ?? '')}`).join('; ');
    }
  } catch {
    // not JSON: an edge or proxy page
  }
  return null;
}

/**
 * HTTP for the CLI: Node's fetch, the bearer key, the retry policy of docs/cli.md (Retry-After on 429
 * and 503, at most three retries within 60 s, bounded backoff otherwise) and pacing on
 * X-RateLimit-Remaining. Every wait is cancellable through `signal`. A 403 without a JSON body is
 * an edge block: the client backs off and retries with the same key (rotating keys would not help:
 * edge limits are per source address, and buckets follow the principal, not the token).
 */
export class ApiClient {
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly retry: RetryPolicyOptions;
  readonly pacer: RatePacer;

  constructor(private readonly o: ApiClientOptions) {
    this.fetchImpl = o.fetchImpl ?? fetch;
    this.sleep = o.sleep ?? cancellableSleep;
    this.now = o.now ?? Date.now;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...o.retry };
    this.pacer = o.pacer ?? new RatePacer(this.now);
  }

  url(path: string): string {
    return `${this.o.baseUrl.replace(/(?<!\/)\/+$/, '')}${path}`;
  }

  async request(spec: RequestSpec): Promise<ApiResponse> {
    const started = this.now();
    for (let retries = 0; ; retries++) {
      const pace = this.pacer.reserve();
      if (pace > 0) {
        this.o.onPace?.(pace);
        await this.sleep(pace, this.o.signal);
      }
      let outcome: AttemptOutcome;
      let response: ApiResponse | null = null;
      let networkError: unknown = null;
      try {
        const res = await this.fetchImpl(this.url(spec.path), {
          method: spec.method,
          headers: {
            accept: 'application/json',
            'user-agent': this.o.userAgent,
            ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
            ...spec.headers,
          },
          body: spec.body?.(),
          signal: this.o.signal,
          redirect: 'error',
        });
        const text = await res.text();
        this.pacer.observe(res.headers);
        response = { status: res.status, headers: res.headers, text, retries };
        outcome = { kind: 'response', status: res.status, retryAfter: res.headers.get('retry-after'), hasDetailBody: errorDetail(text) !== null };
      } catch (err) {
        if (isAbortError(err) || this.o.signal.aborted) throw err;
        outcome = { kind: 'network_error' };
        networkError = err;
      }
      if (response && response.status < 400) return response;
      const decision = decideRetry(outcome, { retriesSoFar: retries, elapsedMs: this.now() - started, nowMs: this.now() }, this.retry);
      if (!decision.retry) {
        if (!response) {
          throw new CliError(
            `Could not reach ${this.o.baseUrl} (${networkCause(networkError)}); gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}.`,
          );
        }
        return decision.giveUp ? { ...response, gaveUp: decision.giveUp, askedDelayMs: decision.delayMs } : response;
      }
      this.o.onRetry?.({
        retry: retries + 1,
        delayMs: decision.delayMs,
        reason: decision.reason,
        status: response?.status ?? null,
        serverAsked: decision.serverAsked,
      });
      await this.sleep(decision.delayMs, this.o.signal);
    }
  }
}

function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : 'network error');
}
