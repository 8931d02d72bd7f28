import type { CooldownMatch } from './rate-limiter';
import type { Reservation } from './store/rate-limit-store';

/** What the pre-routing middleware learnt about a request, for the guard that runs after auth. */
export interface RateLimitRequestState {
  /** Decoded path without query, as matched against the policy table. */
  path: string;
  /** Source network (IPv4 address or IPv6 /64) after TRUSTED_PROXIES. */
  network: string;
  /** Cooldowns whose routes match (evaluated by the guard, once the principal is known). */
  cooldowns: readonly CooldownMatch[];
  /** Per-endpoint units counted before routing; handed back if a later limit rejects. */
  endpointReservations: readonly Reservation[];
}

// Kept on the request under a symbol (no WeakMap: see clientNetwork()).
const STATE = Symbol('bulwark.rateLimitState');

export function setRateLimitState(req: object, state: RateLimitRequestState): void {
  (req as { [STATE]?: RateLimitRequestState })[STATE] = state;
}

export function getRateLimitState(req: object): RateLimitRequestState | undefined {
  return (req as { [STATE]?: RateLimitRequestState })[STATE];
}
