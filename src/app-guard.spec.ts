import type { ExecutionContext } from '@nestjs/common';
import { AppGuard } from './app-guard';
import type { AuthGuard } from './auth/auth.guard';
import type { RateLimitGuard } from './rate-limit/rate-limit.guard';

describe('AppGuard', () => {
  const context = {} as ExecutionContext;

  function guard(authResult: boolean | Error, rateResult: boolean) {
    const calls: string[] = [];
    const auth = {
      canActivate: () => {
        calls.push('auth');
        return authResult instanceof Error ? Promise.reject(authResult) : Promise.resolve(authResult);
      },
    } as unknown as AuthGuard;
    const rateLimit = {
      canActivate: () => {
        calls.push('rate-limit');
        return rateResult;
      },
    } as unknown as RateLimitGuard;
    return { guard: new AppGuard(auth, rateLimit), calls };
  }

  it('authenticates first, then rate-limits (the limiter charges the principal auth set)', async () => {
    const { guard: g, calls } = guard(true, true);
    await expect(g.canActivate(context)).resolves.toBe(true);
    expect(calls).toEqual(['auth', 'rate-limit']);
  });

  it('answers the rate limiter once authenticated', async () => {
    await expect(guard(true, false).guard.canActivate(context)).resolves.toBe(false);
  });

  it('never charges a request that authentication refused or failed', async () => {
    const refused = guard(false, true);
    await expect(refused.guard.canActivate(context)).resolves.toBe(false);
    expect(refused.calls).toEqual(['auth']);
    const failed = guard(new Error('401'), true);
    await expect(failed.guard.canActivate(context)).rejects.toThrow('401');
    expect(failed.calls).toEqual(['auth']);
  });
});
