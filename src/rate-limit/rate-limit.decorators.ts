import { SetMetadata } from '@nestjs/common';
import type { CooldownRule } from './rate-limit.policy';

export const RATE_LIMIT_COOLDOWNS = 'bulwark:rateLimitCooldowns';
export const RATE_LIMIT_CLASS = 'bulwark:rateLimitClass';

/**
 * Declares that this handler performs a cooldown/quota action: a rule id from
 * RATE_LIMIT_POLICY.cooldowns, or a rule of its own. It is reserved before the handler runs and
 * handed back unless the response is 2xx (only successful actions count). Rules whose routes
 * already match the request are not counted twice. `secret`/`repository` scopes read the id from
 * the route parameter named by `scopeParam`.
 */
export const Cooldown = (...rules: (string | CooldownRule)[]) => SetMetadata(RATE_LIMIT_COOLDOWNS, rules);

/**
 * Which application budget a handler is charged to. `mcp`: the MCP classes (API key → the key's
 * budget, OAuth → 600/min per tenant+client+subject, no credential → 60/min per network), chosen
 * from `req.principal` as this guard finds it. On a @Public() MCP controller the auth guard sets no
 * principal, so either resolve the credential in a guard that runs before this one, or skip this
 * decorator and call `limiter.evaluate(limiter.mcpChecks(principal, network))` in the handler
 * once the caller is verified. `none`: not evaluated by the app limiter (no X-RateLimit headers).
 */
export const RateLimitClass = (cls: 'mcp' | 'none') => SetMetadata(RATE_LIMIT_CLASS, cls);
