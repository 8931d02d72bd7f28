import { principalBucketId, type Principal } from '../auth/principal';
import type { Clock } from '../common/clock/clock';
import { ClearingMap } from '../common/clearing-map';
import type { CooldownRule, EndpointLimitRule, RateLimitPolicy } from './rate-limit.policy';
import { compileRoute, NONE, RouteTable, upperCaseMethod, type RouteMatch } from './route-matcher';
import type { BucketCheck, BucketState, EvaluateResult, RateLimitStore, Reservation } from './store/rate-limit-store';

// Headers of a decision with no app-budget check; shared, like NONE, so it allocates nothing.
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export type LimitLayer = 'app' | 'endpoint' | 'cooldown' | 'edge';

/** A bucket check plus what to tell the client if it is the one that rejects. */
export interface LimitCheck extends BucketCheck {
  layer: LimitLayer;
  /** Completes "Rate limit exceeded: …". */
  reason: string;
}

export interface LimitDecision {
  allowed: boolean;
  /** A fail-closed limit could not be evaluated (shared store down): answer 503. */
  unavailable: boolean;
  /** X-RateLimit-* of the app-budget check, when one was evaluated (allowed or not). */
  headers: Record<string, string>;
  /** Seconds until the rejecting bucket(s) reset; 0 when allowed. */
  retryAfterSeconds: number;
  /** "Rate limit exceeded: …" naming the rejecting bucket; '' when allowed. */
  detail: string;
  /** True when the app budget itself rejected (its headers then go on the 429). */
  appBudgetRejected: boolean;
  /**
   * Per-endpoint and cooldown units counted, so a later layer's rejection or a failed action can
   * hand them back. App-budget units are never handed back (a request that reached the app layer
   * was served or refused by it), so they are not listed.
   */
  reservations: readonly Reservation[];
}

export type AppBudgetClass = 'api' | 'control-plane' | 'mcp';

export interface RateLimiterOptions {
  policy: RateLimitPolicy;
  /** Default per-key budget (config API_KEY_RATE_LIMIT_PER_MINUTE, 2,000 unless changed). */
  apiKeyLimitPerMinute?: number;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function windowWords(ms: number): string {
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  return `${ms / 1000} seconds`;
}

/**
 * One edge allowance's checks by network. Every request draws on one, and a client's network
 * string is the same object for its connection (clientNetwork), so the lookup is cheap. Emptied
 * when full, so a spread of addresses cannot grow it without bound.
 */
class EdgeCheckMemo {
  private readonly checks = new ClearingMap<string, LimitCheck>(10_000);

  constructor(
    private readonly allowance: 'scan' | 'api',
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  get(network: string): LimitCheck {
    let check = this.checks.get(network);
    if (check === undefined) {
      check = { key: `edge:${this.allowance}:${network}`, limit: this.limit, windowMs: this.windowMs, layer: 'edge', reason: 'edge' };
      this.checks.set(network, check);
    }
    return check;
  }
}

/**
 * Time until a bucket's window ends, never more than the window itself: with a shared store,
 * another replica may open the window a moment after this request read its clock (requests wait
 * their turn for Redis, and replicas' clocks differ by a few ms), and a 60 s window must not be
 * reported as resetting in 61 s.
 */
function msUntilReset(check: LimitCheck, bucket: BucketState, now: number): number {
  return Math.max(0, Math.min(check.windowMs, bucket.resetAt - now));
}

/** The admitted units of every layer but the app budget (see LimitDecision.reservations). */
function handBackable(checks: readonly LimitCheck[], result: EvaluateResult): readonly Reservation[] {
  let out: Reservation[] | undefined;
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i]!;
    if (c.layer === 'app') continue;
    (out ??= []).push({ key: c.key, resetAt: result.buckets[i]!.resetAt, cost: c.cost ?? 1 });
  }
  return out ?? NONE;
}

/** A matched cooldown: the rule plus the ids its scope needs from the path. */
export interface CooldownMatch {
  rule: CooldownRule;
  params: Record<string, string>;
}

/**
 * What the policy table says about one method + path, worked out once per request before routing
 * (the middleware) and read again after auth (the guard).
 */
export interface RouteLimits {
  /** The edge allowance the request draws on; null for traffic outside the API (health, docs, metrics). */
  edge: 'scan' | 'api' | null;
  /** Per-endpoint limits that apply (per source network). */
  endpoints: readonly RouteMatch<EndpointLimitRule>[];
  /** Cooldowns whose routes match, evaluated once the principal is known. */
  cooldowns: readonly CooldownMatch[];
  /** The app budget a served request is charged to (MCP requests are classed by their handler). */
  budget: Exclude<AppBudgetClass, 'mcp'>;
}

/** One row of the per-route policy (per-endpoint limits, cooldowns, the control-plane routes), for one table. */
type PolicyRoute = { kind: 'endpoint'; rule: EndpointLimitRule } | { kind: 'cooldown'; rule: CooldownRule } | { kind: 'control-plane' };

/** Bounds of RateLimiter.classified (see there): paths kept per method, methods, and the longest path kept. */
const MEMO_PATHS_MAX = 10_000;
const MEMO_METHODS_MAX = 64;
const MEMO_PATH_MAX = 256;

/** The answer for a path no per-route rule matches (most requests), one shared object per edge allowance. */
const ROUTE_WITHOUT_RULES = {
  scan: Object.freeze({ edge: 'scan', endpoints: NONE, cooldowns: NONE, budget: 'api' }),
  api: Object.freeze({ edge: 'api', endpoints: NONE, cooldowns: NONE, budget: 'api' }),
  none: Object.freeze({ edge: null, endpoints: NONE, cooldowns: NONE, budget: 'api' }),
} as const satisfies Record<string, RouteLimits>;

/**
 * Turns the policy table into bucket checks and store answers into client-facing decisions.
 * Plain class (no Nest): the guard, the middleware, the MCP layer and the benchmarks share it.
 */
export class RateLimiter {
  readonly policy: RateLimitPolicy;
  private readonly apiKeyLimit: number;
  /** Per-endpoint limits, cooldowns and control-plane routes in one table: one match per request. */
  private readonly routes: RouteTable<PolicyRoute>;
  private readonly cooldownsById: Map<string, CooldownRule>;
  private readonly edgeScanPath: RegExp;
  private readonly edgeApiPath: RegExp;
  private readonly edgeScanChecks: EdgeCheckMemo;
  private readonly edgeApiChecks: EdgeCheckMemo;

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
    options: RateLimiterOptions,
  ) {
    this.policy = options.policy;
    this.apiKeyLimit = options.apiKeyLimitPerMinute ?? options.policy.appBudget.apiKey.limit;
    this.routes = new RouteTable<PolicyRoute>([
      ...options.policy.endpoints.map((rule) => ({ route: rule.route, value: { kind: 'endpoint' as const, rule } })),
      ...options.policy.cooldowns.flatMap((rule) => rule.routes.map((route) => ({ route, value: { kind: 'cooldown' as const, rule } }))),
      ...options.policy.appBudget.controlPlane.routes.map((route) => ({ route, value: { kind: 'control-plane' as const } })),
    ]);
    this.cooldownsById = new Map(options.policy.cooldowns.map((r) => [r.id, r]));
    this.edgeScanPath = compileRoute(options.policy.edge.scan.route, null).regex;
    const prefixes = options.policy.edge.api.pathPrefixes.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.edgeApiPath = new RegExp(`^(?:${prefixes.join('|')})(?:/|$)`, 'i');
    const edge = options.policy.edge;
    this.edgeScanChecks = new EdgeCheckMemo('scan', edge.scan.limit, edge.windowMs);
    this.edgeApiChecks = new EdgeCheckMemo('api', edge.api.limit, edge.windowMs);
  }

  now(): number {
    return this.clock.now();
  }

  // ---- classifying a request -------------------------------------------------------------------

  /**
   * Every per-route rule for this method + path, and its edge allowance. Hot path (every request):
   * answered from {@link classified} when the path was seen before, as nearly every request's is.
   * The answer and everything in it is frozen: it is shared by every request to that path.
   */
  classify(method: string | undefined, path: string): RouteLimits {
    if (path.length > MEMO_PATH_MAX) return this.classifyUncached(method, path);
    const m = method ?? '';
    let byPath = this.classified.get(m);
    if (byPath === undefined) this.classified.set(m, (byPath = new ClearingMap(MEMO_PATHS_MAX)));
    let limits = byPath.get(path);
    if (limits === undefined) byPath.set(path, (limits = this.classifyUncached(method, path)));
    return limits;
  }

  /**
   * classify()'s answers by method, then path. Clients call the same few paths again and again, so
   * two Map lookups replace the edge and rule regexes on nearly every request (in V8 profiles of
   * bench:rate-limit the regexes and the table match took about 0.6 µs per request in situ).
   * Bounded: a method's paths are dropped together when it holds MEMO_PATHS_MAX, and long paths are
   * never kept, so a scan of unique or huge paths costs what it would without the memo, plus a
   * Map insert, and at most MEMO_PATHS_MAX × MEMO_PATH_MAX characters per method.
   */
  private readonly classified = new ClearingMap<string, ClearingMap<string, RouteLimits>>(MEMO_METHODS_MAX);

  private classifyUncached(method: string | undefined, path: string): RouteLimits {
    const edge = this.edgeAllowanceOf(method, path);
    const matches = this.routes.match(method, path);
    if (matches.length === 0) return ROUTE_WITHOUT_RULES[edge ?? 'none'];
    let endpoints: RouteMatch<EndpointLimitRule>[] | undefined;
    let cooldowns: CooldownMatch[] | undefined;
    let budget: RouteLimits['budget'] = 'api';
    for (const { value, params } of matches) {
      Object.freeze(params);
      if (value.kind === 'endpoint') (endpoints ??= []).push(Object.freeze({ value: value.rule, params }));
      else if (value.kind === 'cooldown') (cooldowns ??= []).push(Object.freeze({ rule: value.rule, params }));
      else budget = 'control-plane';
    }
    return Object.freeze({ edge, endpoints: Object.freeze(endpoints ?? NONE), cooldowns: Object.freeze(cooldowns ?? NONE), budget });
  }

  private edgeAllowanceOf(method: string | undefined, path: string): RouteLimits['edge'] {
    if (upperCaseMethod(method) === this.policy.edge.scan.route.method && this.edgeScanPath.test(path)) return 'scan';
    return this.edgeApiPath.test(path) ? 'api' : null;
  }

  // ---- building checks -------------------------------------------------------------------------

  /**
   * The app-budget check for a principal: per API key (tenant-raisable via rateLimitPerMinute),
   * the separate control-plane budget for the CLI's three calls, or an OAuth principal's 600/min
   * (tenant + client + subject). Keyed on the stable principal id, never on the token.
   */
  appBudgetCheck(principal: Principal, budget: AppBudgetClass = 'api'): LimitCheck {
    return this.appBudgetChecks(principal, budget)[0]!;
  }

  /**
   * {@link appBudgetCheck} as the one-check list the guard evaluates. An API key's principal is the
   * same object for the auth cache's TTL (ApiKeysService), so its lists are kept per principal
   * object and the common request builds nothing; a re-verified key is a new object with its own.
   * OAuth principals are built per request, so theirs are not kept.
   */
  appBudgetChecks(principal: Principal, budget: AppBudgetClass = 'api'): readonly LimitCheck[] {
    const slot = budget === 'control-plane' ? 'controlPlane' : 'api';
    if (principal.kind !== 'api_key') return [this.buildAppBudgetCheck(principal, slot)];
    let kept = this.keyBudgetChecks.get(principal);
    if (kept === undefined) {
      kept = {};
      this.keyBudgetChecks.set(principal, kept);
    }
    return (kept[slot] ??= Object.freeze([this.buildAppBudgetCheck(principal, slot)]));
  }

  private readonly keyBudgetChecks = new WeakMap<Principal, { api?: readonly LimitCheck[]; controlPlane?: readonly LimitCheck[] }>();

  private buildAppBudgetCheck(principal: Principal, slot: 'api' | 'controlPlane'): LimitCheck {
    const id = principalBucketId(principal);
    if (slot === 'controlPlane') {
      const cp = this.policy.appBudget.controlPlane;
      return {
        key: `cp:${id}`,
        limit: cp.limit,
        windowMs: cp.windowMs,
        layer: 'app',
        reason: `${cp.limit} control-plane requests per ${windowWords(cp.windowMs)} for this credential`,
      };
    }
    const isKey = principal.kind === 'api_key';
    const windowMs = isKey ? this.policy.appBudget.apiKey.windowMs : this.policy.mcp.oauth.windowMs;
    const limit = principal.rateLimitPerMinute ?? (isKey ? this.apiKeyLimit : this.policy.mcp.oauth.limit);
    return { key: `app:${id}`, limit, windowMs, layer: 'app', reason: this.appReason(isKey, limit, windowMs) };
  }

  /** Hot path: the 429 wording is built once per (class, limit), not per request. */
  private readonly reasons = new Map<number, string>();
  private appReason(isKey: boolean, limit: number, windowMs: number): string {
    const id = isKey ? limit : -limit;
    let reason = this.reasons.get(id);
    if (reason === undefined) {
      reason = `${limit} requests per ${windowWords(windowMs)} for ${isKey ? 'this API key' : 'this OAuth client and user'}`;
      if (this.reasons.size < 10_000) this.reasons.set(id, reason);
    }
    return reason;
  }

  /**
   * MCP request classes (docs/mcp.md "Rate limits"): an API key shares its REST budget, an
   * OAuth principal gets 600/min per tenant + client + subject, and an unauthenticated or
   * unverified caller 60/min per source network (IPv4 address or IPv6 /64, see networkKey()).
   * `messages`: how many JSON-RPC messages the request carries, each charged.
   */
  mcpChecks(principal: Principal | null, network: string, messages = 1): readonly LimitCheck[] {
    const anon = this.policy.mcp.anonymous;
    const checks =
      principal !== null
        ? this.appBudgetChecks(principal, 'mcp')
        : [
            {
              key: `mcp:anon:${network}`,
              limit: anon.limit,
              windowMs: anon.windowMs,
              layer: 'app' as const,
              reason: `${anon.limit} unauthenticated MCP requests per ${windowWords(anon.windowMs)} from one network`,
            },
          ];
    // A JSON-RPC batch costs one unit per message (the kept lists are shared, so copy).
    return messages === 1 ? checks : checks.map((c) => ({ ...c, cost: messages }));
  }

  /** The edge allowance's check for this network, or null for traffic outside the API. */
  edgeCheck(limits: RouteLimits, network: string): LimitCheck | null {
    if (limits.edge === null) return null;
    return (limits.edge === 'scan' ? this.edgeScanChecks : this.edgeApiChecks).get(network);
  }

  /** The per-endpoint limits' checks (per source network). */
  endpointChecks(limits: RouteLimits, network: string): readonly LimitCheck[] {
    if (limits.endpoints.length === 0) return NONE;
    return limits.endpoints.map(({ value: rule, params }) => {
      let bucket = rule.id;
      if (rule.separateBy) {
        const v = (params[rule.separateBy.param] ?? '').toLowerCase();
        bucket += `:${rule.separateBy.values.includes(v) ? v : 'other'}`;
      }
      return {
        key: `ep:${bucket}:${network}`,
        limit: rule.limit,
        windowMs: rule.windowMs,
        failClosed: rule.failClosed,
        layer: 'endpoint' as const,
        reason: `${rule.route.method} ${rule.route.path} allows ${rule.limit} requests per ${windowWords(rule.windowMs)} from one address`,
      };
    });
  }

  cooldownRule(id: string): CooldownRule {
    const rule = this.cooldownsById.get(id);
    if (rule === undefined) throw new Error(`Unknown cooldown rule "${id}" (see rate-limit.policy.ts)`);
    return rule;
  }

  /**
   * The bucket check of a cooldown, or null when its scope cannot be identified (an org/user
   * scope with no principal, or a missing id parameter): such a request is not the action.
   */
  cooldownCheck(match: CooldownMatch, principal: Principal | undefined): LimitCheck | null {
    const { rule, params } = match;
    let scopeId: string;
    switch (rule.scope) {
      case 'organization':
        if (!principal) return null;
        scopeId = principal.tenantId;
        break;
      case 'user':
        if (!principal) return null;
        scopeId = principalBucketId(principal);
        break;
      case 'secret':
      case 'repository': {
        const id = rule.scopeParam === undefined ? undefined : params[rule.scopeParam];
        if (id === undefined || id === '') return null;
        // Ids are only unique within a tenant.
        scopeId = `${principal?.tenantId ?? '-'}:${id}`;
        break;
      }
    }
    return { key: `cd:${rule.id}:${scopeId}`, limit: rule.limit, windowMs: rule.windowMs, layer: 'cooldown', reason: rule.description };
  }

  // ---- evaluating ------------------------------------------------------------------------------

  /** One all-or-nothing store call for every check of a layer, turned into a decision. */
  async evaluate(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    const now = this.clock.now();
    if (checks.length === 0)
      return { allowed: true, unavailable: false, headers: NO_HEADERS, retryAfterSeconds: 0, detail: '', appBudgetRejected: false, reservations: NONE };
    return this.decide(checks, await this.store.evaluate(checks, now), now);
  }

  /**
   * {@link evaluate} without a promise when the store answers in process (memory); undefined when
   * it needs I/O (Redis), and then the caller awaits evaluate().
   */
  evaluateSync(checks: readonly LimitCheck[]): LimitDecision | undefined {
    if (this.store.evaluateSync === undefined || checks.length === 0) return undefined;
    const now = this.clock.now();
    return this.decide(checks, this.store.evaluateSync(checks, now), now);
  }

  /** Hot path (every request): plain loops, no closures, headers only when an app budget was charged. */
  private decide(checks: readonly LimitCheck[], result: EvaluateResult, now: number): LimitDecision {
    let headers: Record<string, string> = NO_HEADERS;
    let appBudgetRejected = false;
    for (let i = 0; i < checks.length; i++) {
      if (checks[i]!.layer !== 'app') continue;
      const b = result.buckets[i]!;
      headers = {
        'X-RateLimit-Limit': String(b.limit),
        'X-RateLimit-Remaining': String(b.remaining),
        'X-RateLimit-Reset': String(Math.ceil(msUntilReset(checks[i]!, b, now) / 1000)),
      };
      if (!b.allowed) appBudgetRejected = true;
    }
    if (result.allowed) {
      return {
        allowed: true,
        unavailable: false,
        headers,
        retryAfterSeconds: 0,
        detail: '',
        appBudgetRejected: false,
        reservations: handBackable(checks, result),
      };
    }
    if (result.degraded === 'unavailable') {
      return {
        allowed: false,
        unavailable: true,
        headers,
        retryAfterSeconds: 0,
        detail: 'Rate limiter unavailable; this endpoint refuses requests until it is back',
        appBudgetRejected: false,
        reservations: NONE,
      };
    }
    let retryMs = 0;
    const reasons: string[] = [];
    for (let i = 0; i < checks.length; i++) {
      const b = result.buckets[i]!;
      if (b.allowed) continue;
      retryMs = Math.max(retryMs, msUntilReset(checks[i]!, b, now));
      reasons.push(checks[i]!.reason);
    }
    return {
      allowed: false,
      unavailable: false,
      headers,
      retryAfterSeconds: seconds(retryMs),
      detail: `Rate limit exceeded: ${reasons.join('; ')}`,
      appBudgetRejected,
      reservations: NONE,
    };
  }

  /** Hand back counted units (a later layer rejected, or a cooldown action failed). */
  async release(reservations: readonly Reservation[]): Promise<void> {
    if (reservations.length > 0) await this.store.release(reservations, this.clock.now());
  }
}
