import { Controller, Get, HttpCode, Module, Post, Query } from '@nestjs/common';
import { Public } from '../../src/auth/auth.decorators';
import { CliApiService } from '../../src/cli-api/cli-api.service';
import { ConflictError } from '../../src/common/errors';
import { RateLimitGuard } from '../../src/rate-limit/rate-limit.guard';
import { RateLimiter } from '../../src/rate-limit/rate-limiter';
import { Cooldown } from '../../src/rate-limit/rate-limit.decorators';
import { FakeClock } from '../fakes/fake-clock';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { burst, cleanupRedisPrefix, destroyAgents, listen, rateLimitOverrides, send, uniqueKeyPrefix } from './rate-limit.helpers';

/**
 * The whole pipeline (edge → auth → rate-limit guard → controller) over HTTP, with a fake clock.
 * Uses the real Redis when REDIS_URL is set (unique key prefix), memory otherwise. Probe routes
 * stand in for actions this service does not serve itself (secret re-check, guidance generation).
 */
@Controller('api')
class ProbeController {
  @Get('rl-probe/ping')
  ping() {
    return { ok: true };
  }

  @Public()
  @Get('rl-probe/public')
  open() {
    return { ok: true };
  }

  @Post('upgrade-guidance/generate')
  @HttpCode(200)
  generate() {
    return { ok: true };
  }

  @Post('secrets/:secret_id/recheck')
  @HttpCode(200)
  recheck(@Query('fail') fail?: string) {
    if (fail) throw new ConflictError('re-check failed');
    return { ok: true };
  }

  @Post('rl-probe/branches/:repo')
  @HttpCode(200)
  @Cooldown({
    id: 'probe-branch',
    description: 'a probe branch can change once a minute',
    scope: 'repository',
    scopeParam: 'repo',
    limit: 1,
    windowMs: 60_000,
    routes: [],
  })
  branch() {
    return { ok: true };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

const MINUTE = 60_000;

describe('rate limiting over HTTP', () => {
  const clock = new FakeClock();
  const keyPrefix = uniqueKeyPrefix();
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: { EDGE_LIMITS: 'on', TRUSTED_PROXIES: '127.0.0.30' },
      config: { authCacheTtlMs: 0 },
      imports: [ProbeModule],
      override: rateLimitOverrides(clock, keyPrefix),
    });
    port = await listen(t.app);
  });

  afterAll(async () => {
    destroyAgents();
    await t.close();
    await cleanupRedisPrefix(keyPrefix);
  });

  async function newKey(extra: { rateLimitPerMinute?: number | null } = {}): Promise<string> {
    return (await t.tenant()).key(undefined, extra);
  }

  describe('application budget (after auth)', () => {
    it('puts X-RateLimit-* on every evaluated request, and none on 401s or public routes', async () => {
      const token = await newKey();
      const ok = await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.40' });
      expect(ok.status).toBe(200);
      expect([ok.headers['x-ratelimit-limit'], ok.headers['x-ratelimit-remaining'], ok.headers['x-ratelimit-reset']]).toEqual(['2000', '1999', '60']);
      // A handler error still carries the headers: the request was evaluated and charged.
      const notFound = await send(port, { path: '/api/rl-probe/nowhere', token, from: '127.0.0.40' });
      expect(notFound.status).toBe(404);
      const again = await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.40' });
      expect(again.headers['x-ratelimit-remaining']).toBe('1998');
      const unauth = await send(port, { path: '/api/rl-probe/ping', from: '127.0.0.40' });
      expect(unauth.status).toBe(401);
      expect(unauth.headers['x-ratelimit-limit']).toBeUndefined();
      const open = await send(port, { path: '/api/rl-probe/public', from: '127.0.0.40' });
      expect(open.status).toBe(200);
      expect(open.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('admits 2,000 per key per window, then 429 with Retry-After = seconds left; resets in full after 60 s', async () => {
      const token = await newKey();
      // Two source addresses: the budget is per key, not per address (and stays under the edge's 2,000).
      const statuses = await burst(
        2000,
        8,
        (() => {
          let i = 0;
          return () => send(port, { path: '/api/rl-probe/ping', token, from: i++ % 2 ? '127.0.0.41' : '127.0.0.42' });
        })(),
      );
      expect(statuses).toEqual(new Map([[200, 2000]]));
      clock.advance(15_000);
      const rejected = await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.43' });
      expect(rejected.status).toBe(429);
      expect(rejected.headers['retry-after']).toBe('45');
      expect([rejected.headers['x-ratelimit-limit'], rejected.headers['x-ratelimit-remaining'], rejected.headers['x-ratelimit-reset']]).toEqual([
        '2000',
        '0',
        '45',
      ]);
      expect(JSON.parse(rejected.body)).toEqual({ detail: expect.stringMatching(/^Rate limit exceeded: /) as unknown });
      // Rejected requests consumed nothing: the next window is a full 2,000.
      clock.advance(45_000);
      const fresh = await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.43' });
      expect(fresh.status).toBe(200);
      expect(fresh.headers['x-ratelimit-remaining']).toBe('1999');
    });

    it('applies a tenant/key raise mid-window', async () => {
      const token = await newKey({ rateLimitPerMinute: 3 });
      for (let i = 0; i < 3; i++) expect((await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.44' })).status).toBe(200);
      expect((await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.44' })).status).toBe(429);
      await t.dataSource.query('UPDATE api_keys SET rate_limit_per_minute = 5 WHERE display_prefix = $1', [token.slice(0, 10)]);
      clock.advance(5_000);
      const raised = await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.44' });
      expect(raised.status).toBe(200);
      expect([raised.headers['x-ratelimit-limit'], raised.headers['x-ratelimit-remaining'], raised.headers['x-ratelimit-reset']]).toEqual(['5', '1', '55']);
    });

    it('whoami reads the limiter the global guard charges (RateLimitModule imported twice, one instance)', () => {
      expect((t.app.get(CliApiService) as any).limiter).toBe((t.app.get(RateLimitGuard) as any).limiter);
      expect(t.app.get(RateLimiter)).toBe((t.app.get(RateLimitGuard) as any).limiter);
    });

    it('charges the CLI control-plane calls to their own 600/min budget', async () => {
      const token = await newKey();
      const who = await send(port, { path: '/api/cli/whoami', token, from: '127.0.0.45' });
      expect(who.status).toBe(200);
      expect(who.headers['x-ratelimit-limit']).toBe('600');
      expect(who.headers['x-ratelimit-remaining']).toBe('599');
      const api = await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.45' });
      expect(api.headers['x-ratelimit-remaining']).toBe('1999');
    });
  });

  describe('per-endpoint limits (before routing, per source address)', () => {
    it('limits PATCH /api/reset_password although this service does not serve it (404 ×3, then 429)', async () => {
      for (let i = 0; i < 3; i++) expect((await send(port, { method: 'PATCH', path: '/api/reset_password', from: '127.0.0.50' })).status).toBe(404);
      const r = await send(port, { method: 'PATCH', path: '/api/reset_password', from: '127.0.0.50' });
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('3600');
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(r.body)).toEqual({ detail: 'Rate limit exceeded: PATCH /api/reset_password allows 3 requests per hour from one address' });
      // Spelling the path differently does not dodge it; another address is unaffected.
      expect((await send(port, { method: 'PATCH', path: '/API/reset_password/?x=1', from: '127.0.0.50' })).status).toBe(429);
      expect((await send(port, { method: 'PATCH', path: '/api/reset_password', from: '127.0.0.51' })).status).toBe(404);
    });

    it('a per-endpoint 429 leaves the app budget and its headers untouched', async () => {
      const token = await newKey();
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await send(port, { method: 'POST', path: '/api/upgrade-guidance/generate', token, from: '127.0.0.52' });
        expect(r.status).toBe(200);
        remaining.push(r.headers['x-ratelimit-remaining'] as string);
      }
      expect(remaining).toEqual(['1999', '1998', '1997', '1996', '1995']);
      const limited = await send(port, { method: 'POST', path: '/api/upgrade-guidance/generate', token, from: '127.0.0.52' });
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.headers['x-ratelimit-remaining']).toBeUndefined();
      const next = await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.52' });
      expect(next.headers['x-ratelimit-remaining']).toBe('1994');
    });

    it('hands per-endpoint units back when the app budget rejects the request', async () => {
      const exhausted = await newKey({ rateLimitPerMinute: 1 });
      expect((await send(port, { method: 'POST', path: '/api/upgrade-guidance/generate', token: exhausted, from: '127.0.0.53' })).status).toBe(200);
      for (let i = 0; i < 6; i++) {
        const r = await send(port, { method: 'POST', path: '/api/upgrade-guidance/generate', token: exhausted, from: '127.0.0.53' });
        expect(r.status).toBe(429);
        expect(r.headers['x-ratelimit-remaining']).toBe('0'); // the app budget rejected, not the endpoint
      }
      const fresh = await newKey();
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await send(port, { method: 'POST', path: '/api/upgrade-guidance/generate', token: fresh, from: '127.0.0.53' })).status);
      expect(codes).toEqual([200, 200, 200, 200, 429]);
    });

    it('believes X-Forwarded-For only from TRUSTED_PROXIES', async () => {
      const viaProxy = (xff: string) => send(port, { method: 'PATCH', path: '/api/reset_password', from: '127.0.0.30', headers: { 'x-forwarded-for': xff } });
      for (let i = 0; i < 3; i++) expect((await viaProxy('198.51.100.7')).status).toBe(404);
      expect((await viaProxy('198.51.100.7')).status).toBe(429);
      expect((await viaProxy('198.51.100.8')).status).toBe(404);
      // An untrusted peer cannot borrow (or poison) someone else's bucket by sending the header.
      const spoof = await send(port, { method: 'PATCH', path: '/api/reset_password', from: '127.0.0.31', headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(spoof.status).toBe(404);
    });
  });

  describe('cooldowns (only successful actions count)', () => {
    it('re-check a secret once per 15 minutes; a failed attempt is not counted', async () => {
      const token = await newKey();
      const failed = await send(port, { method: 'POST', path: '/api/secrets/s1/recheck?fail=1', token, from: '127.0.0.60' });
      expect(failed.status).toBe(409);
      expect((await send(port, { method: 'POST', path: '/api/secrets/s1/recheck', token, from: '127.0.0.60' })).status).toBe(200);
      clock.advance(5 * MINUTE);
      const cooled = await send(port, { method: 'POST', path: '/api/secrets/s1/recheck', token, from: '127.0.0.61' });
      expect(cooled.status).toBe(429);
      expect(cooled.headers['retry-after']).toBe('600');
      expect(JSON.parse(cooled.body)).toEqual({ detail: 'Rate limit exceeded: a secret can be re-checked once every 15 minutes' });
      // The app-budget headers are present and show the cooldown 429 charged nothing.
      const before = Number(cooled.headers['x-ratelimit-remaining']);
      expect((await send(port, { path: '/api/rl-probe/ping', token, from: '127.0.0.60' })).headers['x-ratelimit-remaining']).toBe(String(before - 1));
      expect((await send(port, { method: 'POST', path: '/api/secrets/s2/recheck', token, from: '127.0.0.60' })).status).toBe(200);
    });

    it('honours a cooldown a controller declares with @Cooldown', async () => {
      const token = await newKey();
      expect((await send(port, { method: 'POST', path: '/api/rl-probe/branches/r1', token, from: '127.0.0.62' })).status).toBe(200);
      const r = await send(port, { method: 'POST', path: '/api/rl-probe/branches/r1', token, from: '127.0.0.62' });
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('60');
      expect((await send(port, { method: 'POST', path: '/api/rl-probe/branches/r2', token, from: '127.0.0.62' })).status).toBe(200);
    });
  });

  describe('CLI control-plane endpoints', () => {
    it('whoami describes the key and its budgets; it needs a credential', async () => {
      const tenant = await t.tenant();
      const token = await tenant.key(['scan'], { rateLimitPerMinute: 2500 });
      const r = await send(port, { path: '/api/cli/whoami', token, from: '127.0.0.80' });
      expect(r.status).toBe(200);
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({
        kind: 'api_key',
        tenant_id: tenant.id,
        scopes: ['scan'],
        api_key: { display_prefix: token.slice(0, 10), expires_at: null },
        rate_limits: { api: { limit: 2500, window_seconds: 60 }, control_plane: { limit: 600, window_seconds: 60 } },
      });
      expect(body.api_key.name).toMatch(/^test-/);
      expect(r.body).not.toContain(token);
      expect((await send(port, { path: '/api/cli/whoami', from: '127.0.0.80' })).status).toBe(401);
    });

    it('config advertises the SBOM batch size, scan limits and budgets', async () => {
      const token = await newKey();
      const r = await send(port, { path: '/api/cli/config', token, from: '127.0.0.80' });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({
        sbom_batch_size: 10,
        scan_limits: { files_per_upload: 3, file_bytes: 250 * 1024, total_uncompressed_bytes: 750 * 1024, upload_bytes: 1024 * 1024 },
        scan_retry: { max_retries: 3, within_seconds: 60 },
        rate_limits: { api: { limit: 2000, window_seconds: 60 }, control_plane: { limit: 600, window_seconds: 60 } },
        edge_api: { limit: 2000, window_seconds: 300 },
        edge_scan: { limit: 6000, window_seconds: 300 },
        min_cli_version: '1.0.21',
      });
    });

    it('telemetry accepts a valid small event and refuses malformed ones with 422', async () => {
      const token = await newKey();
      const post = (json: unknown) => send(port, { method: 'POST', path: '/api/cli/telemetry', token, from: '127.0.0.80', json });
      const ok = await post({
        event: 'command_finished',
        cli_version: '1.0.23',
        command: 'scan',
        duration_ms: 812,
        os: 'linux',
        properties: { files: 3, ci: true },
      });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body)).toEqual({ accepted: true });
      expect(ok.headers['x-ratelimit-limit']).toBe('600');
      for (const bad of [
        {},
        { event: 'something_else', cli_version: '1.0.23' },
        { event: 'retry', cli_version: 'latest' },
        { event: 'retry', cli_version: '1.0.23', properties: { secret: 'x'.repeat(65) } },
        { event: 'retry', cli_version: '1.0.23', properties: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`p${i}`, i])) },
        { event: 'retry', cli_version: '1.0.23', properties: { nested: { a: 1 } } },
      ]) {
        const r = await post(bad);
        expect(r.status).toBe(422);
        expect(Array.isArray(JSON.parse(r.body).detail)).toBe(true);
      }
    });
  });

  describe('edge layer (before body parsing and auth, per source address)', () => {
    it('blocks past 2,000 API requests per 5 minutes with 403, an empty body and no Retry-After; other addresses unaffected', async () => {
      const from = '127.0.0.20';
      const statuses = await burst(2000, 16, () => send(port, { path: '/api/cli/whoami', from }));
      expect(statuses).toEqual(new Map([[401, 2000]])); // unauthenticated traffic counts too
      const blocked = await send(port, { method: 'POST', path: '/api/applications', from, json: { big: 'x'.repeat(1000) } });
      expect(blocked.status).toBe(403);
      expect(blocked.body).toBe('');
      expect(blocked.headers['content-length']).toBe('0');
      expect(blocked.headers['retry-after']).toBeUndefined();
      expect(blocked.headers['www-authenticate']).toBeUndefined();
      expect((await send(port, { path: '/api/cli/whoami', from: '127.0.0.21' })).status).toBe(401);
      // Non-API paths (health, docs) are not edge traffic.
      expect((await send(port, { path: '/health', from })).status).not.toBe(403);
      // The scan route has its own allowance.
      expect((await send(port, { method: 'POST', path: '/api/agent_files/scan', from })).status).not.toBe(403);
      clock.advance(5 * MINUTE);
      expect((await send(port, { path: '/api/cli/whoami', from })).status).toBe(401);
    });

    it('refused requests spend no edge units: 4,200 rate-limited (429) requests from one address, then a 200', async () => {
      const from = '127.0.0.23';
      // The app budget refuses: a client retrying on 429 must not be edge-blocked (403) on every key.
      const limited = await newKey({ rateLimitPerMinute: 3 });
      const app = await burst(2100, 16, () => send(port, { path: '/api/rl-probe/ping', token: limited, from }));
      expect(app).toEqual(
        new Map([
          [200, 3],
          [429, 2097],
        ]),
      );
      // A per-endpoint limit refuses (before auth): the same holds.
      const token = await newKey();
      const endpoint = await burst(2100, 16, () => send(port, { method: 'POST', path: '/api/upgrade-guidance/generate', token, from }));
      expect(endpoint).toEqual(
        new Map([
          [200, 5],
          [429, 2095],
        ]),
      );
      // Eight requests were served, so the address has 1,992 of its 2,000 left, and only those.
      const more = await burst(1992, 16, () => send(port, { path: '/api/rl-probe/ping', token, from }));
      expect(more).toEqual(new Map([[200, 1992]]));
      expect((await send(port, { path: '/api/rl-probe/ping', token, from })).status).toBe(403);
      // Six thousand authenticated requests: well over a minute on a loaded two-core CI machine.
    }, 240_000);

    it('gives POST /api/agent_files/scan a separate 6,000 per 5 minutes, not counted in the 2,000', async () => {
      const from = '127.0.0.22';
      const statuses = await burst(6000, 16, () => send(port, { method: 'POST', path: '/api/agent_files/scan', from }));
      expect(statuses.get(403)).toBeUndefined();
      expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(6000);
      expect((await send(port, { method: 'POST', path: '/api/agent_files/scan', from })).status).toBe(403);
      expect((await send(port, { path: '/api/cli/whoami', from })).status).toBe(401);
    });
  });
});
