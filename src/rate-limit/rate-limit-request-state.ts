import type { EdgeAdmission } from './store/edge-counter';
import type { Reservation } from './store/rate-limit-store';

/**
 * What the pre-routing middleware leaves for the rate-limit guard that runs after auth: the
 * per-endpoint units it counted, handed back if a later limit rejects the request. Set only when a
 * per-endpoint limit admitted the request (a few routes); the guard reads it only when it rejects.
 * Everything else the guard needs it works out again for the price of a lookup: the route's rules
 * (RateLimiter.classify answers repeated paths from a memo) and the source network (cached on the
 * connection, see clientNetwork()).
 */
export interface RateLimitRequestState {
  /** Per-endpoint units counted before routing; handed back if a later limit rejects. */
  endpointReservations: readonly Reservation[];
}

/**
 * Kept under a symbol in the response's `locals`: Express gives every request that dictionary
 * (request-scoped data is what it is for), and adding it there is a hash insert. Added to the
 * request object itself, which already holds ~40 properties, the one store took 0.7 % of the
 * server's CPU in a V8 profile of bench:rate-limit (V8 growing the object's property store).
 * Outside Express (plain Node responses in tests) the response object itself holds it. No
 * WeakMap: see clientNetwork().
 */
const STATE = Symbol('bulwark.rateLimitState');
/** The edge unit an admitted API request counted, in its own slot: set on most requests, so no state object is allocated for it. */
const EDGE = Symbol('bulwark.edgeAdmission');

type StateHolder = { [STATE]?: RateLimitRequestState; [EDGE]?: EdgeAdmission };

function holderOf(res: object): StateHolder {
  return ((res as { locals?: object }).locals ?? res) as StateHolder;
}

export function setRateLimitState(res: object, state: RateLimitRequestState): void {
  holderOf(res)[STATE] = state;
}

export function getRateLimitState(res: object): RateLimitRequestState | undefined {
  return holderOf(res)[STATE];
}

export function setEdgeAdmission(res: object, admission: EdgeAdmission): void {
  holderOf(res)[EDGE] = admission;
}

/** The request's edge admission, for a limit that refuses it to hand the unit back (once). */
export function takeEdgeAdmission(res: object): EdgeAdmission | undefined {
  const holder = holderOf(res);
  const admission = holder[EDGE];
  if (admission !== undefined) holder[EDGE] = undefined;
  return admission;
}
