import type { JudgeStatus } from '../engine/scan-report.types';

/** A failed provider call, already classified into the JudgeStatus the file will carry. */
export class JudgeCallError extends Error {
  constructor(
    readonly status: Extract<JudgeStatus, 'timeout' | 'rate_limited' | 'provider_error' | 'refused' | 'malformed_output'>,
    message: string,
    /** HTTP status when the provider answered. */
    readonly httpStatus?: number,
    /** The provider rejected `response_format: json_schema`; the caller may fall back to json_object. */
    readonly schemaUnsupported = false,
  ) {
    super(message);
    this.name = 'JudgeCallError';
  }
}

const MAX_BODY_BYTES = 1_000_000;

/** Reads a response body up to a cap, so a hostile or broken server cannot exhaust memory. */
export async function readCapped(res: Response, max = MAX_BODY_BYTES): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new JudgeCallError('provider_error', `response body over ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POSTs JSON and returns the parsed JSON body, mapping every failure to a JudgeCallError:
 * abort by the deadline → timeout, 429 → rate_limited, other non-2xx or network failure →
 * provider_error. Error messages carry status codes only, never request or response content.
 */
export async function postJson(
  fetchImpl: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
  isSchemaRejection: (status: number, text: string) => boolean = () => false,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
      redirect: 'error',
    });
  } catch (err) {
    if (signal.aborted) throw new JudgeCallError('timeout', 'judge deadline reached');
    throw new JudgeCallError('provider_error', `request failed: ${(err as Error).name}`);
  }
  let text: string;
  try {
    text = await readCapped(res);
  } catch (err) {
    if (err instanceof JudgeCallError) throw err;
    if (signal.aborted) throw new JudgeCallError('timeout', 'judge deadline reached');
    throw new JudgeCallError('provider_error', 'reading response failed');
  }
  if (res.status === 429) throw new JudgeCallError('rate_limited', 'provider rate limit (429)', 429);
  if (!res.ok) {
    throw new JudgeCallError('provider_error', `provider answered ${res.status}`, res.status, isSchemaRejection(res.status, text));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new JudgeCallError('provider_error', 'provider answered non-JSON body', res.status);
  }
}
