import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { RateLimitedError, ServiceUnavailableError } from '../common/errors';
import { clientNetwork, TrustedProxies } from './client-address';
import { RATE_LIMIT_CLASS, RATE_LIMIT_COOLDOWNS } from './rate-limit.decorators';
import { getRateLimitState, takeEdgeAdmission } from './rate-limit-request-state';
import type { CooldownRule } from './rate-limit.policy';
import { RateLimiter, type CooldownMatch, type LimitCheck, type LimitDecision, type RouteLimits } from './rate-limiter';
import { NONE, requestPath } from './route-matcher';
import { EdgeCounter } from './store/edge-counter';
import type { Reservation } from './store/rate-limit-store';

/**
 * Application layer, after the auth guard: charges the principal's app budget (per API key,
 * tenant-raisable; control-plane budget for the CLI's three calls; MCP classes) together with the
 * request's cooldowns in ONE all-or-nothing store call. Sets X-RateLimit-* on every evaluated
 * request; on 429 hands back anything counted earlier (the edge unit, per-endpoint units) so a
 * rejected request consumes nothing. Cooldown units are kept only if the response is 2xx.
 */
/** A JSON-RPC batch is charged per message, all or nothing, like that many single requests. */
function jsonRpcMessageCount(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

interface HandlerMetadata {
  cls: 'mcp' | 'none' | undefined;
  declared: readonly (string | CooldownRule)[];
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly trusted: TrustedProxies,
    private readonly edge: EdgeCounter,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const { cls, declared } = this.metadata(context);
    if (cls === 'none') return true;
    // getArgByIndex, not switchToHttp(): that allocates three closures per call on every request.
    const req = context.getArgByIndex<Request>(0);
    const res = context.getArgByIndex<Response>(1);
    // The middleware classified the same method + path: this is its memo's answer.
    const limits = this.limiter.classify(req.method, requestPath(req.originalUrl));
    const principal = req.principal;

    // The app budget's list is kept per principal (see appBudgetChecks); cooldowns, rarer, extend a copy.
    let checks: readonly LimitCheck[] = NONE;
    if (cls === 'mcp') checks = this.limiter.mcpChecks(principal ?? null, clientNetwork(req, this.trusted), jsonRpcMessageCount(req.body));
    else if (principal) checks = this.limiter.appBudgetChecks(principal, limits.budget);
    let cooldowns = 0;
    const matched = this.cooldowns(req, limits, declared);
    if (matched.length > 0) {
      const all = [...checks];
      for (const match of matched) {
        const check = this.limiter.cooldownCheck(match, principal);
        if (check !== null) {
          all.push(check);
          cooldowns++;
        }
      }
      checks = all;
    }
    if (checks.length === 0) return true;

    // Memory store: decided without a promise. Redis: one round trip.
    const decision = this.limiter.evaluateSync(checks);
    if (decision !== undefined) return this.apply(decision, cooldowns, res);
    return this.limiter.evaluate(checks).then((d) => this.apply(d, cooldowns, res));
  }

  /** Headers and cooldown settlement on admission; on rejection, hand back earlier units and throw. */
  private apply(decision: LimitDecision, cooldowns: number, res: Response): boolean | Promise<boolean> {
    if (!decision.allowed) return this.reject(decision, res);
    // setHeader directly: Express's res.set() adds content-type handling these headers never need.
    for (const name in decision.headers) res.setHeader(name, decision.headers[name]!);
    // The guard's checks are the app budget and cooldowns, so what can be handed back is the cooldowns'.
    if (cooldowns > 0) this.settleOnResponse(res, decision.reservations);
    return true;
  }

  /** Hands back the edge and per-endpoint units the middleware counted for this request, then throws. */
  private async reject(decision: LimitDecision, res: Response): Promise<boolean> {
    const admission = takeEdgeAdmission(res);
    if (admission !== undefined) this.edge.release(admission);
    const state = getRateLimitState(res);
    await this.limiter.release(state?.endpointReservations ?? NONE);
    if (state) state.endpointReservations = NONE;
    if (decision.unavailable) throw new ServiceUnavailableError(decision.detail);
    // The headers always describe the app budget; on a cooldown 429 it is simply unchanged.
    if (!decision.appBudgetRejected) res.set(decision.headers);
    throw new RateLimitedError(decision.detail, decision.retryAfterSeconds, decision.appBudgetRejected ? decision.headers : {});
  }

  /** Decorator metadata, read once per handler (handlers live as long as the app). */
  private readonly metadataCache = new Map<unknown, HandlerMetadata>();
  private metadata(context: ExecutionContext): HandlerMetadata {
    const handler = context.getHandler();
    let meta = this.metadataCache.get(handler);
    if (meta === undefined) {
      const targets = [handler, context.getClass()];
      meta = {
        cls: this.reflector.getAllAndOverride<'mcp' | 'none' | undefined>(RATE_LIMIT_CLASS, targets),
        declared: this.reflector.getAllAndMerge<(string | CooldownRule)[]>(RATE_LIMIT_COOLDOWNS, targets) ?? [],
      };
      this.metadataCache.set(handler, meta);
    }
    return meta;
  }

  /** Cooldowns matched before routing plus those the handler declares (each rule once). */
  private cooldowns(req: Request, limits: RouteLimits, declared: readonly (string | CooldownRule)[]): readonly CooldownMatch[] {
    const matched = limits.cooldowns;
    if (declared.length === 0) return matched;
    const out = [...matched];
    const seen = new Set(matched.map((m) => m.rule.id));
    for (const d of declared) {
      const rule = typeof d === 'string' ? this.limiter.cooldownRule(d) : d;
      if (seen.has(rule.id)) continue;
      seen.add(rule.id);
      out.push({ rule, params: { ...(req.params as Record<string, string>) } });
    }
    return out;
  }

  /** Reserve → commit on 2xx, release on anything else (error status, aborted connection). */
  private settleOnResponse(res: Response, units: readonly Reservation[]): void {
    let settled = false;
    const settle = (succeeded: boolean) => {
      if (settled) return;
      settled = true;
      if (!succeeded) this.limiter.release(units).catch(() => undefined);
    };
    res.once('finish', () => settle(res.statusCode >= 200 && res.statusCode < 300));
    res.once('close', () => settle(res.writableFinished && res.statusCode >= 200 && res.statusCode < 300));
  }
}
