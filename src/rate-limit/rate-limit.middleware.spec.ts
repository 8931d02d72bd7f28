import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeClock } from '../../test/fakes/fake-clock';
import { MetricsService } from '../metrics/metrics.service';
import { TrustedProxies } from './client-address';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { getRateLimitState } from './rate-limit-request-state';
import type { RateLimitModuleOptions } from './rate-limit.options';
import { RATE_LIMIT_POLICY, type RateLimitPolicy } from './rate-limit.policy';
import { RateLimiter } from './rate-limiter';
import { EdgeCounter } from './store/edge-counter';
import { MemoryRateLimitStore } from './store/memory-rate-limit.store';
import type { RateLimitStore } from './store/rate-limit-store';

const policy: RateLimitPolicy = { ...RATE_LIMIT_POLICY, edge: { ...RATE_LIMIT_POLICY.edge, api: { ...RATE_LIMIT_POLICY.edge.api, limit: 2 } } };

function fakeReq(method: string, url: string, remoteAddress = '127.0.0.9'): IncomingMessage {
  return { method, url, headers: {}, socket: { remoteAddress } } as unknown as IncomingMessage;
}

interface FakeRes {
  statusCode: number;
  headers: Record<string, string | number>;
  body: string | undefined;
  ended: boolean;
}

function run(mw: { handle: (req: IncomingMessage, res: ServerResponse, next: (e?: unknown) => void) => void }, req: IncomingMessage) {
  return new Promise<{ res: FakeRes; passed: boolean; err?: unknown }>((resolve) => {
    const res: FakeRes & { setHeader: (n: string, v: string | number) => void; end: (b?: string) => void } = {
      statusCode: 200,
      headers: {},
      body: undefined,
      ended: false,
      setHeader: (name, value) => {
        res.headers[name.toLowerCase()] = value;
      },
      // A rejection ends the response instead of calling next().
      end: (body) => {
        res.body = body;
        res.ended = true;
        resolve({ res, passed: false });
      },
    };
    mw.handle(req, res as unknown as ServerResponse, (err?: unknown) => resolve({ res, passed: err === undefined, err }));
  });
}

function middleware(mode: RateLimitModuleOptions['edgeLimits'], store: RateLimitStore = new MemoryRateLimitStore(), metrics?: MetricsService) {
  const clock = new FakeClock();
  const limiter = new RateLimiter(store, clock, { policy });
  const options: RateLimitModuleOptions = { redis: null, edgeLimits: mode, trustedProxies: [] };
  const edge = new EdgeCounter(null, clock);
  return { mw: new RateLimitMiddleware(limiter, edge, new TrustedProxies([]), options, metrics), edge };
}

describe('RateLimitMiddleware: edge layer', () => {
  it('on: 403 with no body and no Retry-After past the allowance, counted in the metric', async () => {
    const metrics = new MetricsService();
    const { mw } = middleware('on', undefined, metrics);
    expect((await run(mw, fakeReq('GET', '/api/x'))).passed).toBe(true);
    expect((await run(mw, fakeReq('GET', '/api/x'))).passed).toBe(true);
    const blocked = await run(mw, fakeReq('GET', '/api/x'));
    expect(blocked.passed).toBe(false);
    expect(blocked.res).toMatchObject({ statusCode: 403, body: undefined, headers: { 'content-length': '0' } });
    expect(blocked.res.headers['retry-after']).toBeUndefined();
    expect(await metrics.registry.getSingleMetricAsString('bulwark_rate_limit_edge_blocks_total')).toContain('mode="on"} 1');
    // Another network is unaffected.
    expect((await run(mw, fakeReq('GET', '/api/x', '127.0.0.10'))).passed).toBe(true);
  });

  it('shadow: counts would-be blocks but lets them through', async () => {
    const metrics = new MetricsService();
    const { mw } = middleware('shadow', undefined, metrics);
    for (let i = 0; i < 4; i++) expect((await run(mw, fakeReq('GET', '/api/x'))).passed).toBe(true);
    expect(await metrics.registry.getSingleMetricAsString('bulwark_rate_limit_edge_blocks_total')).toContain('mode="shadow"} 2');
  });

  it('off: counts nothing', async () => {
    const { mw, edge } = middleware('off');
    for (let i = 0; i < 4; i++) expect((await run(mw, fakeReq('GET', '/api/x'))).passed).toBe(true);
    expect(edge.size).toBe(0);
  });

  it('ignores traffic outside the API', async () => {
    const { mw, edge } = middleware('on');
    for (let i = 0; i < 5; i++) expect((await run(mw, fakeReq('GET', '/health'))).passed).toBe(true);
    expect(edge.size).toBe(0);
  });

  it('never waits on the store for the edge: a failing store does not touch requests without per-endpoint limits', async () => {
    const store: RateLimitStore = { evaluate: () => Promise.reject(new Error('boom')), release: () => Promise.resolve() };
    expect((await run(middleware('on', store).mw, fakeReq('GET', '/api/x'))).passed).toBe(true);
  });
});

describe('RateLimitMiddleware: per-endpoint layer', () => {
  it('hands the guard the units a per-endpoint limit counted, and nothing for requests without one', async () => {
    const { mw } = middleware('off');
    const limited = await run(mw, fakeReq('PATCH', '/api/reset_password?x=1', '::ffff:127.0.0.7'));
    expect(limited.passed).toBe(true);
    const reservations = getRateLimitState(limited.res)!.endpointReservations;
    // Counted per source network: the IPv4-mapped peer counts as its IPv4 address.
    expect(reservations.map((r) => r.key)).toEqual(['ep:reset-password:127.0.0.7']);

    const plain = await run(mw, fakeReq('POST', '/api/secrets/abc/recheck?x=1'));
    expect(plain.passed).toBe(true);
    expect(getRateLimitState(plain.res)).toBeUndefined();
  });

  it("keeps the state in Express's res.locals when there is one, not on the request", async () => {
    const { mw } = middleware('off');
    const req = fakeReq('PATCH', '/api/reset_password');
    const locals = Object.create(null) as object;
    await new Promise<void>((resolve) => mw.handle(req, { locals } as unknown as ServerResponse, () => resolve()));
    expect(getRateLimitState({ locals })!.endpointReservations).toHaveLength(1);
    expect(Object.getOwnPropertySymbols(req)).toEqual([]);
  });

  it('passes store errors to next() instead of hanging the request', async () => {
    const store: RateLimitStore = { evaluate: () => Promise.reject(new Error('boom')), release: () => Promise.resolve() };
    const r = await run(middleware('on', store).mw, fakeReq('PATCH', '/api/reset_password'));
    expect((r.err as Error).message).toBe('boom');
  });

  it('answers 503 (not a per-process count) for fail-closed limits when the store is unavailable', async () => {
    const store: RateLimitStore = {
      evaluate: (checks) =>
        Promise.resolve({
          allowed: false,
          degraded: 'unavailable',
          buckets: checks.map((c) => ({ key: c.key, limit: c.limit, remaining: 0, resetAt: 0, allowed: false })),
        }),
      release: () => Promise.resolve(),
    };
    const r = await run(middleware('on', store).mw, fakeReq('PATCH', '/api/reset_password'));
    expect(r.res.statusCode).toBe(503);
    expect(r.res.headers['retry-after']).toBeUndefined();
    expect(JSON.parse(r.res.body!)).toEqual({ detail: expect.stringContaining('Rate limiter unavailable') as unknown });
  });
});
