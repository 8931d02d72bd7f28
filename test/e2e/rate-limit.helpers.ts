import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import type { TestingModuleBuilder } from '@nestjs/testing';
import Redis from 'ioredis';
import { Clock } from '../../src/common/clock/clock';
import type { AppConfig } from '../../src/config/app-config';
import { APP_CONFIG } from '../../src/config/config.module';
import { REDIS_CLIENT, type RedisClient } from '../../src/database/redis.module';
import { RATE_LIMIT_OPTIONS, rateLimitOptionsFromConfig } from '../../src/rate-limit/rate-limit.options';
import type { FakeClock } from '../fakes/fake-clock';

export function uniqueKeyPrefix(): string {
  return `bulwark-test:${randomUUID()}:`;
}

/** Deletes every Redis key under `prefix` (no-op without REDIS_URL). */
export async function cleanupRedisPrefix(prefix: string): Promise<void> {
  const url = process.env.REDIS_URL;
  if (!url) return;
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** Fake clock + a Redis key prefix unique to this run (so runs sharing a Redis never collide). */
export function rateLimitOverrides(clock: FakeClock, keyPrefix: string) {
  return (builder: TestingModuleBuilder): TestingModuleBuilder =>
    builder
      .overrideProvider(Clock)
      .useValue(clock)
      .overrideProvider(RATE_LIMIT_OPTIONS)
      .useFactory({
        inject: [APP_CONFIG, REDIS_CLIENT],
        factory: (config: AppConfig, redis: RedisClient) => ({ ...rateLimitOptionsFromConfig(config, redis), keyPrefix }),
      });
}

/** Listen on IPv4 loopback so requests can come from any 127.0.0.x source address. */
export async function listen(app: INestApplication): Promise<number> {
  await app.listen(0, '127.0.0.1');
  return (app.getHttpServer().address() as AddressInfo).port;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface SendOptions {
  method?: string;
  path: string;
  token?: string;
  /** Source address (any 127.0.0.x works on Linux loopback). */
  from?: string;
  headers?: Record<string, string>;
  json?: unknown;
}

const agents = new Map<string, http.Agent>();

function agentFor(from: string): http.Agent {
  let agent = agents.get(from);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 16, localAddress: from } as http.AgentOptions);
    agents.set(from, agent);
  }
  return agent;
}

export function destroyAgents(): void {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

export function send(port: number, o: SendOptions): Promise<Reply> {
  const body = o.json === undefined ? undefined : JSON.stringify(o.json);
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.path, headers, agent: agentFor(o.from ?? '127.0.0.1') }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `n` requests, `concurrency` in flight; returns the status counts. */
export async function burst(n: number, concurrency: number, one: () => Promise<Reply>): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  let started = 0;
  const worker = async () => {
    while (started < n) {
      started++;
      const r = await one();
      counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return counts;
}

/** The budget a response's X-RateLimit-* headers state: the limit charged and what is left of it. */
export const budget = (res: { headers: Record<string, string> }) => ({
  limit: Number(res.headers['x-ratelimit-limit']),
  remaining: Number(res.headers['x-ratelimit-remaining']),
});
