import type { ApiKeyPrincipal } from '../auth/principal';
import { ServiceUnavailableError, UnauthorizedError } from '../common/errors';
import { McpAuthenticator, type McpAuthenticatorDeps } from './mcp-authenticator';
import type { OAuthClaims } from './oauth-token.verifier';

const KEY: ApiKeyPrincipal = { kind: 'api_key', tenantId: 't1', apiKeyId: 'k1', scopes: ['scan'], rateLimitPerMinute: null };
const CLAIMS: OAuthClaims = { clientId: 'claude', subject: 'user-1', tenantSlug: null, scopes: ['inventory:read'] };

function deps(over: Partial<McpAuthenticatorDeps> = {}): McpAuthenticatorDeps {
  return {
    apiKeys: { verify: jest.fn(async (t: string) => (t === 'bwk_good' ? KEY : Promise.reject(new UnauthorizedError('Invalid API key')))) },
    oauth: { verify: jest.fn(async (t: string) => (t === 'jwt.good.token' ? CLAIMS : Promise.reject(new UnauthorizedError('Access token expired')))) },
    tenants: {
      find: jest.fn(async (slug: string) =>
        slug === 'default'
          ? { id: 'tenant-default', oauthMcpRateLimitPerMinute: null }
          : slug === 'acme'
            ? { id: 'tenant-acme', oauthMcpRateLimitPerMinute: 1500 }
            : null,
      ),
    },
    defaultTenantSlug: 'default',
    ...over,
  };
}

describe('McpAuthenticator', () => {
  it('no Authorization header: anonymous (discovery allowed)', async () => {
    expect(await new McpAuthenticator(deps()).authenticate(undefined)).toEqual({ kind: 'anonymous' });
  });

  it('API keys go through ApiKeysService.verify (same principal as REST)', async () => {
    const d = deps();
    expect(await new McpAuthenticator(d).authenticate('Bearer bwk_good')).toEqual({ kind: 'principal', principal: KEY });
    expect(d.oauth!.verify).not.toHaveBeenCalled();
    expect(await new McpAuthenticator(d).authenticate('Bearer bwk_bad')).toEqual({ kind: 'rejected', reason: 'Invalid API key' });
  });

  it('OAuth tokens: tenant from the claim or the default, bucket identity client + subject', async () => {
    expect(await new McpAuthenticator(deps()).authenticate('Bearer jwt.good.token')).toEqual({
      kind: 'principal',
      principal: { kind: 'oauth', tenantId: 'tenant-default', clientId: 'claude', subject: 'user-1', scopes: ['inventory:read'], rateLimitPerMinute: null },
    });
    const acme = deps({ oauth: { verify: async () => ({ ...CLAIMS, tenantSlug: 'acme' }) } });
    // The tenant's OAuth MCP limit rides on the principal (the rate limiter charges it).
    expect(await new McpAuthenticator(acme).authenticate('Bearer x.y.z')).toMatchObject({ principal: { tenantId: 'tenant-acme', rateLimitPerMinute: 1500 } });
    const unknown = deps({ oauth: { verify: async () => ({ ...CLAIMS, tenantSlug: 'nope' }) } });
    expect(await new McpAuthenticator(unknown).authenticate('Bearer x.y.z')).toEqual({ kind: 'rejected', reason: 'Access token names an unknown tenant' });
  });

  it('rejects bad tokens, malformed headers, and JWTs when OAuth is not configured', async () => {
    expect(await new McpAuthenticator(deps()).authenticate('Bearer jwt.bad.token')).toEqual({ kind: 'rejected', reason: 'Access token expired' });
    expect((await new McpAuthenticator(deps()).authenticate('Basic abc')).kind).toBe('rejected');
    expect(await new McpAuthenticator(deps({ oauth: null })).authenticate('Bearer jwt.good.token')).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/OAuth is not configured/),
    });
  });

  it('infrastructure failures are thrown, not mistaken for bad credentials', async () => {
    const down = deps({ oauth: { verify: async () => Promise.reject(new ServiceUnavailableError('OAuth issuer key set unavailable; retry later')) } });
    await expect(new McpAuthenticator(down).authenticate('Bearer a.b.c')).rejects.toBeInstanceOf(ServiceUnavailableError);
    const db = deps({ apiKeys: { verify: async () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) } });
    await expect(new McpAuthenticator(db).authenticate('Bearer bwk_x')).rejects.toThrow('ECONNREFUSED');
  });
});
