import { Controller, Get, type ExecutionContext, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Principal } from '../auth/principal';
import { RateLimitedError, ServiceUnavailableError } from '../common/errors';
import { FakeClock } from '../../test/fakes/fake-clock';
import { TrustedProxies } from './client-address';
import { RateLimitClass } from './rate-limit.decorators';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_POLICY } from './rate-limit.policy';
import { RateLimiter } from './rate-limiter';
import { EdgeCounter } from './store/edge-counter';
import { MemoryRateLimitStore } from './store/memory-rate-limit.store';
import type { RateLimitStore } from './store/rate-limit-store';

@Controller('mcp')
@RateLimitClass('mcp')
class McpProbe {
  @Get() handle() {}
}

@Controller('api/x')
class ApiProbe {
  @Get() handle() {}
  @Get('none') @RateLimitClass('none') none() {}
}

function context(handler: () => void, cls: object, req: Record<string, unknown>): { ctx: ExecutionContext; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const res = { set: (h: Record<string, string>) => Object.assign(headers, h), setHeader: (n: string, v: string) => (headers[n] = v), once: () => undefined };
  const request = { method: 'GET', headers: {}, params: {}, socket: { remoteAddress: '127.0.0.9' }, ...req };
  // Nest's own context class, so the guard sees exactly what it sees in the app.
  const ctx: ExecutionContext = new ExecutionContextHost([request, res, () => undefined], cls as Type, handler);
  return { ctx, headers };
}

function guard(store: RateLimitStore = new MemoryRateLimitStore()) {
  const clock = new FakeClock();
  return new RateLimitGuard(
    new Reflector(),
    new RateLimiter(store, clock, { policy: RATE_LIMIT_POLICY }),
    new TrustedProxies([]),
    new EdgeCounter(null, clock),
  );
}

describe('RateLimitGuard', () => {
  it('MCP without a credential: 60 per minute per source network', async () => {
    const g = guard();
    // canActivate answers synchronously on the memory store and with a promise on Redis.
    const call = (ip: string) =>
      Promise.resolve().then(() => g.canActivate(context(McpProbe.prototype.handle, McpProbe, { originalUrl: '/mcp', socket: { remoteAddress: ip } }).ctx));
    for (let i = 0; i < 60; i++) await expect(call('2001:db8::1')).resolves.toBe(true);
    await expect(call('2001:db8::2')).rejects.toBeInstanceOf(RateLimitedError); // same /64
    await expect(call('127.0.0.9')).resolves.toBe(true);
  });

  it('MCP with an API key: the key budget and its headers', async () => {
    const principal: Principal = { kind: 'api_key', tenantId: 't', apiKeyId: 'k', scopes: [], rateLimitPerMinute: null };
    const { ctx, headers } = context(McpProbe.prototype.handle, McpProbe, { originalUrl: '/mcp', principal });
    await guard().canActivate(ctx);
    expect(headers['X-RateLimit-Limit']).toBe('2000');
  });

  it('skips handlers marked none, and unauthenticated requests with no cooldown', async () => {
    const store: RateLimitStore = { evaluate: () => Promise.reject(new Error('not expected')), release: () => Promise.resolve() };
    const principal: Principal = { kind: 'api_key', tenantId: 't', apiKeyId: 'k', scopes: [], rateLimitPerMinute: null };
    expect(guard(store).canActivate(context(ApiProbe.prototype.none, ApiProbe, { originalUrl: '/api/x/none', principal }).ctx)).toBe(true);
    expect(guard(store).canActivate(context(ApiProbe.prototype.handle, ApiProbe, { originalUrl: '/api/x' }).ctx)).toBe(true);
  });

  it('maps an unavailable fail-closed store to 503', async () => {
    const store: RateLimitStore = {
      evaluate: (checks) =>
        Promise.resolve({
          allowed: false,
          degraded: 'unavailable',
          buckets: checks.map((c) => ({ key: c.key, limit: c.limit, remaining: 0, resetAt: 0, allowed: false })),
        }),
      release: () => Promise.resolve(),
    };
    const principal: Principal = { kind: 'api_key', tenantId: 't', apiKeyId: 'k', scopes: [], rateLimitPerMinute: null };
    await expect(guard(store).canActivate(context(ApiProbe.prototype.handle, ApiProbe, { originalUrl: '/api/x', principal }).ctx)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });
});
