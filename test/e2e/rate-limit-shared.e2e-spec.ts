import { Controller, Get, Module } from '@nestjs/common';
import { ApiKeyEntity } from '../../src/auth/persistence/api-key.entity';
import { TenantEntity } from '../../src/auth/persistence/tenant.entity';
import { FakeClock } from '../fakes/fake-clock';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { usingPostgres } from '../support/test-config';
import { cleanupRedisPrefix, destroyAgents, listen, rateLimitOverrides, send, uniqueKeyPrefix } from './rate-limit.helpers';

/**
 * Two app instances (replicas) sharing one Redis admit exactly the budget between them: 2,000
 * per key per window, however the requests are spread. Needs the real Redis (REDIS_URL).
 */
@Controller('api/rl-shared')
class PingController {
  @Get('ping')
  ping() {
    return { ok: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

const redisUrl = process.env.REDIS_URL;

if (!redisUrl) {
  describe('rate limits shared across replicas', () => {
    // Reported as skipped, with its reason, never as a passing test.
    console.warn('SKIPPED rate-limit-shared e2e: REDIS_URL is not set, so two replicas cannot share counters.');
    it.skip('is skipped: REDIS_URL is not set (run with REDIS_URL=redis://127.0.0.1:6379)', () => undefined);
  });
} else {
  describe('rate limits shared across replicas (real Redis)', () => {
    const clock = new FakeClock();
    const keyPrefix = uniqueKeyPrefix();
    let a: TestApp;
    let b: TestApp;
    let ports: [number, number];

    beforeAll(async () => {
      const options = { env: { REDIS_URL: redisUrl }, imports: [PingModule], override: rateLimitOverrides(clock, keyPrefix) };
      [a, b] = await Promise.all([createTestApp(options), createTestApp(options)]);
      ports = [await listen(a.app), await listen(b.app)];
    });

    afterAll(async () => {
      destroyAgents();
      await Promise.all([a?.close(), b?.close()]);
      await cleanupRedisPrefix(keyPrefix);
    });

    /** One key known to both replicas (same database on PostgreSQL; copied rows on two PGlites). */
    async function sharedKey(): Promise<string> {
      const tenant = await a.tenant();
      const token = await tenant.key();
      if (!usingPostgres()) {
        const t = await a.dataSource.getRepository(TenantEntity).findOneByOrFail({ id: tenant.id });
        const k = await a.dataSource.getRepository(ApiKeyEntity).findOneByOrFail({ tenantId: tenant.id });
        await b.dataSource.getRepository(TenantEntity).insert(t);
        await b.dataSource.getRepository(ApiKeyEntity).insert(k);
      }
      return token;
    }

    it('admits exactly 2,000 between two replicas, concurrently, then both answer 429', async () => {
      const token = await sharedKey();
      let admitted = 0;
      let rejected = 0;
      const replicaHits = [0, 0];
      let next = 0;
      const worker = async () => {
        while (next < 2300) {
          const i = next++;
          const r = await send(ports[i % 2]!, { path: '/api/rl-shared/ping', token, from: `127.0.0.${70 + (i % 4)}` });
          if (r.status === 200) {
            admitted++;
            replicaHits[i % 2]!++;
          } else if (r.status === 429) rejected++;
          else throw new Error(`unexpected ${r.status}: ${r.body}`);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      expect(admitted).toBe(2000);
      expect(rejected).toBe(300);
      expect(replicaHits[0]).toBeGreaterThan(0);
      expect(replicaHits[1]).toBeGreaterThan(0);
      for (const port of ports) {
        const r = await send(port, { path: '/api/rl-shared/ping', token });
        expect(r.status).toBe(429);
        expect(r.headers['x-ratelimit-remaining']).toBe('0');
      }
      clock.advance(60_000);
      const fresh = await send(ports[1], { path: '/api/rl-shared/ping', token });
      expect(fresh.status).toBe(200);
      expect(fresh.headers['x-ratelimit-remaining']).toBe('1999');
      const other = await send(ports[0], { path: '/api/rl-shared/ping', token });
      expect(other.headers['x-ratelimit-remaining']).toBe('1998');
    });
  });
}
