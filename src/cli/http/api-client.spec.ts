import { cancellableSleep } from './cancellable-sleep';
import { ApiClient, type RetryEvent } from './api-client';

type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'network';

function fakeFetch(replies: Reply[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const r = replies.shift() ?? { status: 200, body: '{}' };
    if (r === 'network') throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    return new Response(r.body ?? '', { status: r.status, headers: r.headers });
  }) as unknown as typeof fetch;
  return { impl, calls };
}

function client(replies: Reply[], signal = new AbortController().signal) {
  const f = fakeFetch(replies);
  const sleeps: number[] = [];
  const retries: RetryEvent[] = [];
  const c = new ApiClient({
    baseUrl: 'http://scan.test/',
    apiKey: 'bwk_test',
    signal,
    userAgent: 'test',
    fetchImpl: f.impl,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    retry: { random: () => 0.5 },
    onRetry: (e) => retries.push(e),
  });
  return { c, f, sleeps, retries };
}

describe('ApiClient', () => {
  it('sends the bearer key and returns a success at once', async () => {
    const { c, f, sleeps } = client([{ status: 200, body: '{"ok":true}' }]);
    const res = await c.request({ method: 'GET', path: '/api/cli/whoami' });
    expect(res).toMatchObject({ status: 200, text: '{"ok":true}', retries: 0 });
    expect(f.calls[0].url).toBe('http://scan.test/api/cli/whoami');
    expect((f.calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer bwk_test');
    expect(sleeps).toEqual([]);
  });

  it('sleeps what Retry-After says, then returns the success with the retry count', async () => {
    const { c, sleeps, retries } = client([{ status: 429, headers: { 'retry-after': '2' }, body: '{"detail":"x"}' }, { status: 200 }]);
    expect(await c.request({ method: 'POST', path: '/x', body: () => 'b' })).toMatchObject({ status: 200, retries: 1 });
    expect(sleeps).toEqual([2000]);
    expect(retries).toEqual([{ retry: 1, delayMs: 2000, reason: 'rate_limited', status: 429, serverAsked: true }]);
  });

  it('builds a fresh body for every attempt', async () => {
    let built = 0;
    const { c } = client([{ status: 503 }, { status: 200 }]);
    await c.request({ method: 'POST', path: '/x', body: () => `body-${++built}` });
    expect(built).toBe(2);
  });

  it('returns the last refusal marked gaveUp after three retries', async () => {
    const r429 = { status: 429, headers: { 'retry-after': '1' }, body: '{"detail":"slow down"}' };
    const { c, f } = client([r429, r429, r429, r429, { status: 200 }]);
    const res = await c.request({ method: 'GET', path: '/x' });
    expect(res).toMatchObject({ status: 429, retries: 3, gaveUp: 'retries_exhausted' });
    expect(f.calls).toHaveLength(4);
  });

  it('retries network failures, then throws a CliError naming the cause', async () => {
    const { c, sleeps } = client(['network', 'network', 'network', 'network']);
    await expect(c.request({ method: 'GET', path: '/x' })).rejects.toThrow('Could not reach http://scan.test/ (ECONNRESET); gave up after 3 retries.');
    expect(sleeps).toEqual([750, 1500, 3000]);
  });

  it('waits before a request when X-RateLimit-Remaining is low', async () => {
    const { c, sleeps } = client([
      { status: 200, headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '4' } },
      { status: 200 },
    ]);
    await c.request({ method: 'GET', path: '/x' });
    await c.request({ method: 'GET', path: '/x' });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(3000);
  });

  it('a Ctrl-C during the wait rejects at once with an AbortError', async () => {
    const ac = new AbortController();
    const f = fakeFetch([{ status: 429, headers: { 'retry-after': '30' }, body: '{"detail":"x"}' }]);
    const c = new ApiClient({ baseUrl: 'http://scan.test', apiKey: null, signal: ac.signal, userAgent: 't', fetchImpl: f.impl, sleep: cancellableSleep });
    const started = Date.now();
    const pending = c.request({ method: 'GET', path: '/x' });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
