import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ForbiddenError, UnauthorizedError } from '../common/errors';
import { ApiKeysService } from './api-keys.service';
import { IS_PUBLIC, REQUIRED_SCOPES } from './auth.decorators';
import type { Principal, Scope } from './principal';

/** Parses `Authorization: Bearer <token>`; null when absent, throws when malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match) throw new UnauthorizedError('Malformed Authorization header: expected "Bearer <token>"');
  return match[1]!;
}

export function hasScopes(principal: Principal, required: Scope[]): boolean {
  return principal.scopes.includes('admin') || required.every((s) => principal.scopes.includes(s));
}

/**
 * Global guard: every route needs a valid API key unless marked @Public(). 401 (with
 * `WWW-Authenticate: Bearer`, added by the exception filter) for missing, malformed, unknown,
 * expired and revoked tokens; 403 when a scope is missing.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const token = bearerToken(req.headers.authorization);
    if (token === null) throw new UnauthorizedError('Missing Authorization header');
    req.principal = await this.apiKeys.verify(token);
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, targets) ?? [];
    if (!hasScopes(req.principal, required)) {
      throw new ForbiddenError(`This API key lacks the required scope: ${required.join(', ')}`);
    }
    return true;
  }
}
