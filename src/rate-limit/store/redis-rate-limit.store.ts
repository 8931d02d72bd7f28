import type Redis from 'ioredis';
import type { BucketCheck, BucketState, EvaluateResult, RateLimitStore, Reservation } from './rate-limit-store';

/**
 * One round trip per evaluation: every bucket of a request is read, decided and (only if all
 * admit) counted inside a single Lua script, so replicas sharing Redis see one atomic decision.
 * Time is ARGV[1] (the caller's clock), never Redis's TIME, so tests drive windows with a fake
 * clock; the key TTL is only garbage collection: the window's rest plus one more window, so a caller whose
 * clock runs behind Redis's (a fake clock, a slow test run) never sees its bucket vanish mid-window.
 *
 * Each bucket is a hash {c: count, r: window end in epoch ms}.
 * Reply: {allowed, count_1, reset_1, count_2, reset_2, ...} with counts after this evaluation.
 */
const EVALUATE_LUA = `
local now = tonumber(ARGV[1])
local n = #KEYS
local counts, resets, fresh = {}, {}, {}
local allowed = 1
for i = 1, n do
  local limit = tonumber(ARGV[3 * i - 1])
  local win = tonumber(ARGV[3 * i])
  local cost = tonumber(ARGV[3 * i + 1])
  local v = redis.call('HMGET', KEYS[i], 'c', 'r')
  local c = tonumber(v[1]) or 0
  local r = tonumber(v[2]) or 0
  if r <= now then
    c = 0
    r = now + win
    fresh[i] = true
  end
  counts[i] = c
  resets[i] = r
  if c + cost > limit then allowed = 0 end
end
local out = { allowed }
for i = 1, n do
  local c = counts[i]
  if allowed == 1 then
    local cost = tonumber(ARGV[3 * i + 1])
    if fresh[i] then
      c = cost
      redis.call('HSET', KEYS[i], 'c', c, 'r', resets[i])
      redis.call('PEXPIRE', KEYS[i], resets[i] - now + tonumber(ARGV[3 * i]))
    else
      c = redis.call('HINCRBY', KEYS[i], 'c', cost)
    end
  end
  out[2 * i] = c
  out[2 * i + 1] = resets[i]
end
return out
`;

/** Un-count: only if the bucket is still in the window the reservation was made in. */
const RELEASE_LUA = `
local now = tonumber(ARGV[1])
for i = 1, #KEYS do
  local r = tonumber(ARGV[2 * i])
  local cost = tonumber(ARGV[2 * i + 1])
  local v = redis.call('HMGET', KEYS[i], 'c', 'r')
  local c = tonumber(v[1]) or 0
  if tonumber(v[2]) == r and r > now and c > 0 then
    redis.call('HSET', KEYS[i], 'c', math.max(0, c - cost))
  end
end
return 1
`;

interface RateLimitCommands {
  bulwarkRateLimitEvaluate(numKeys: number, ...args: (string | number)[]): Promise<number[]>;
  bulwarkRateLimitRelease(numKeys: number, ...args: (string | number)[]): Promise<number>;
}

export interface RedisRateLimitStoreOptions {
  /** Prepended to every bucket key (tests use a unique prefix per run). Default `bulwark:rl:`. */
  keyPrefix?: string;
}

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis & RateLimitCommands;
  private readonly prefix: string;

  constructor(redis: Redis, options: RedisRateLimitStoreOptions = {}) {
    this.prefix = options.keyPrefix ?? 'bulwark:rl:';
    // defineCommand sends EVALSHA and falls back to EVAL once per connection (script cache miss).
    if (!('bulwarkRateLimitEvaluate' in redis)) {
      redis.defineCommand('bulwarkRateLimitEvaluate', { lua: EVALUATE_LUA });
      redis.defineCommand('bulwarkRateLimitRelease', { lua: RELEASE_LUA });
    }
    this.redis = redis as Redis & RateLimitCommands;
  }

  /** Whether the connection can take commands now (used by the fallback to skip a doomed call). */
  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  async evaluate(checks: readonly BucketCheck[], now: number): Promise<EvaluateResult> {
    const n = checks.length;
    if (n === 0) return { allowed: true, buckets: [] };
    const args: (string | number)[] = new Array(2 * n + 1 + n);
    for (let i = 0; i < n; i++) args[i] = this.prefix + checks[i]!.key;
    args[n] = Math.floor(now);
    for (let i = 0; i < n; i++) {
      const c = checks[i]!;
      args[n + 1 + 3 * i] = c.limit;
      args[n + 2 + 3 * i] = c.windowMs;
      args[n + 3 + 3 * i] = c.cost ?? 1;
    }
    const reply = await this.redis.bulwarkRateLimitEvaluate(n, ...args);
    const allowed = reply[0] === 1;
    const buckets: BucketState[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const c = checks[i]!;
      const count = Number(reply[2 * i + 1]);
      const cost = c.cost ?? 1;
      // After a rejection `count` is the unchanged count; this bucket's own verdict is recomputed.
      const before = allowed ? count - cost : count;
      buckets[i] = {
        key: c.key,
        limit: c.limit,
        remaining: Math.max(0, c.limit - count),
        resetAt: Number(reply[2 * i + 2]),
        allowed: before + cost <= c.limit,
      };
    }
    return { allowed, buckets };
  }

  async release(reservations: readonly Reservation[], now: number): Promise<void> {
    const n = reservations.length;
    if (n === 0) return;
    const args: (string | number)[] = reservations.map((r) => this.prefix + r.key);
    args.push(Math.floor(now));
    for (const r of reservations) args.push(r.resetAt, r.cost);
    await this.redis.bulwarkRateLimitRelease(n, ...args);
  }
}
