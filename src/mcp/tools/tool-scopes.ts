import { hasScopes } from '../../auth/auth.guard';
import type { Principal, Scope } from '../../auth/principal';
import { ForbiddenError, UnauthorizedError } from '../../common/errors';

/** Same scope rule as REST (`admin` implies all); a tool call always has a principal by now. */
export function requireScopes(principal: Principal | null, ...scopes: Scope[]): Principal {
  if (principal === null) throw new UnauthorizedError('Authentication required for tool calls');
  if (!hasScopes(principal, scopes)) throw new ForbiddenError(`This credential lacks the required scope: ${scopes.join(', ')}`);
  return principal;
}

/** Annotations shared by every Bulwark tool: they read, never write, and only see this server. */
export const READ_ONLY_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
