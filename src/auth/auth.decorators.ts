import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Principal, Scope } from './principal';

export const IS_PUBLIC = 'bulwark:isPublic';
export const REQUIRED_SCOPES = 'bulwark:requiredScopes';

/** The route needs no credential (health, docs, metrics). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The principal must hold every listed scope (403 otherwise, documented here). `admin` implies all scopes. */
export const RequireScopes = (...scopes: Scope[]) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    ApiForbiddenResponse({
      description: `The key lacks the scope ${scopes.map((s) => `\`${s}\``).join(', ')} (\`admin\` implies every scope); or the source address is edge-blocked: empty body (docs/rate-limits.md)`,
    }),
  );

/** The authenticated caller of this request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return req.principal!;
});

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the auth guard on every non-public route. */
    principal?: Principal;
    /** Request id (pino-http), echoed as X-Request-Id. */
    id?: string | number | object;
  }
}
