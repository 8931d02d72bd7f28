import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counter } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';
import { clientNetwork, TrustedProxies } from './client-address';
import { setEdgeAdmission, setRateLimitState, takeEdgeAdmission } from './rate-limit-request-state';
import { RATE_LIMIT_OPTIONS, type RateLimitModuleOptions } from './rate-limit.options';
import { RateLimiter, type RouteLimits } from './rate-limiter';
import { EdgeCounter } from './store/edge-counter';
import { requestPath } from './route-matcher';

type Next = (err?: unknown) => void;

/**
 * The pre-routing layers, one raw middleware mounted before body parsing and auth:
 *
 * 1. Edge (docs/rate-limits.md "Edge layer"), per source network. Over the allowance the answer is 403 with an
 *    empty body and no Retry-After (what a CDN/WAF edge would send; it is not an authentication
 *    failure). EDGE_LIMITS=shadow counts and logs would-be blocks but lets them through (use it when
 *    nginx enforces the edge in front). Decided in process by {@link EdgeCounter} (shared through
 *    Redis in batches), so no request waits on a store here.
 * 2. Per-endpoint limits (per source network), matched by method + path before routing so they hold
 *    for routes this service does not serve itself. A 429 here never touches the app budget.
 *
 * A request a per-endpoint limit admitted carries its counted units to the rate-limit guard
 * (RateLimitRequestState), and every admitted request its edge unit, so a limit that then refuses
 * it hands them back.
 */
@Injectable()
export class RateLimitMiddleware implements OnModuleDestroy {
  private readonly logger = new Logger('EdgeLimit');
  private readonly blocks?: Counter<'mode'>;
  private lastShadowLog = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly edge: EdgeCounter,
    private readonly trusted: TrustedProxies,
    @Inject(RATE_LIMIT_OPTIONS) private readonly options: RateLimitModuleOptions,
    @Optional() metrics?: MetricsService,
  ) {
    this.blocks = metrics?.counter('bulwark_rate_limit_edge_blocks_total', 'Requests over the edge allowance, by EDGE_LIMITS mode', ['mode']);
  }

  onModuleDestroy(): void {
    this.edge.close();
  }

  readonly handle = (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const network = clientNetwork(req, this.trusted);
    const limits = this.limiter.classify(req.method, requestPath(req.url));
    if (!this.passesEdge(limits, network, res)) {
      res.statusCode = 403;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    const checks = this.limiter.endpointChecks(limits, network);
    if (checks.length === 0) return next();
    this.limiter.evaluate(checks).then((decision) => {
      if (decision.allowed) {
        // For the guard, which hands them back if the app budget or a cooldown then rejects.
        setRateLimitState(res, { endpointReservations: decision.reservations });
        return next();
      }
      // Refused here: the edge unit this request counted is handed back (it consumes nothing).
      const admission = takeEdgeAdmission(res);
      if (admission !== undefined) this.edge.release(admission);
      // Raw middleware runs outside Nest's exception filters: write the docs/errors.md body here.
      const status = decision.unavailable ? 503 : 429;
      const body = JSON.stringify({ detail: decision.detail });
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      if (status === 429) res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      res.end(body);
    }, next);
  };

  /** False only when EDGE_LIMITS=on and the network is past its allowance. Keeps the admission on `res` for a later refusal to hand back. */
  private passesEdge(limits: RouteLimits, network: string, res: ServerResponse): boolean {
    const mode = this.options.edgeLimits;
    if (mode === 'off') return true;
    const check = this.limiter.edgeCheck(limits, network);
    if (check === null) return true;
    const admission = this.edge.admit(check);
    if (admission.allowed) {
      setEdgeAdmission(res, admission);
      return true;
    }
    this.blocks?.inc({ mode });
    if (mode === 'on') return false;
    const now = Date.now();
    if (now - this.lastShadowLog > 10_000) {
      this.lastShadowLog = now;
      this.logger.warn(`edge allowance exceeded (${check.key.split(':')[1]}); EDGE_LIMITS=shadow lets it through`);
    }
    return true;
  }
}
