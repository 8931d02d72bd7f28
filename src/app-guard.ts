import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from './auth/auth.guard';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';

/**
 * The one global guard, so the order is stated here rather than left to module import order:
 * authenticate (sets req.principal), then rate-limit (charges that principal's bucket).
 */
@Injectable()
export class AppGuard implements CanActivate {
  constructor(
    private readonly auth: AuthGuard,
    private readonly rateLimit: RateLimitGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!(await this.auth.canActivate(context))) return false;
    return this.rateLimit.canActivate(context);
  }
}
