import type { IncomingMessage, ServerResponse } from 'node:http';

export const REPLICA_HEADER = 'X-Bulwark-Replica';

/**
 * Names the replica that answered (REPLICA_ID), on every response including edge 403s and 429s,
 * so operators and the scale-out test can see how a balancer spreads traffic. Mounted first.
 */
export function replicaHeaderMiddleware(replicaId: string) {
  return (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    res.setHeader(REPLICA_HEADER, replicaId);
    next();
  };
}
