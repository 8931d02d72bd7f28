import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { ServiceUnavailableError, UnauthorizedError } from '../common/errors';
import { OAuthTokenVerifier } from './oauth-token.verifier';

const ISSUER = 'https://issuer.example.test';
const AUDIENCE = 'http://localhost:3000/mcp';

describe('OAuthTokenVerifier', () => {
  let privateKey: CryptoKey;
  let jwk: JWK;
  let otherKey: CryptoKey;
  let verifier: OAuthTokenVerifier;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    otherKey = (await generateKeyPair('ES256')).privateKey;
    verifier = new OAuthTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: createLocalJWKSet({ keys: [jwk] }) });
  });

  const sign = (claims: Record<string, unknown>, opts: { key?: CryptoKey; aud?: string; iss?: string; exp?: string | number } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(opts.iss ?? ISSUER)
      .setAudience(opts.aud ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? '5m')
      .sign(opts.key ?? privateKey);

  it('accepts a token for this resource: client, subject, tenant and known scopes', async () => {
    const token = await sign({ sub: 'user-1', client_id: 'claude-desktop', tenant: 'acme', scope: 'inventory:read scan openid bogus' });
    expect(await verifier.verify(token)).toEqual({ clientId: 'claude-desktop', subject: 'user-1', tenantSlug: 'acme', scopes: ['inventory:read', 'scan'] });
  });

  it('falls back to azp for the client and reads scp arrays', async () => {
    const token = await sign({ sub: 'u', azp: 'cursor', scp: ['scan'] });
    expect(await verifier.verify(token)).toEqual({ clientId: 'cursor', subject: 'u', tenantSlug: null, scopes: ['scan'] });
  });

  it.each([
    ['another audience (e.g. a REST or other-server token)', () => sign({ sub: 'u', client_id: 'c' }, { aud: 'http://localhost:3000/api' }), /aud claim/],
    ['another issuer', () => sign({ sub: 'u', client_id: 'c' }, { iss: 'https://evil.test' }), /iss claim/],
    ['an expired token', () => sign({ sub: 'u', client_id: 'c' }, { exp: Math.floor(Date.now() / 1000) - 60 }), /expired/],
    ['a foreign signature', () => sign({ sub: 'u', client_id: 'c' }, { key: otherKey }), /signature/],
    ['no client id', () => sign({ sub: 'u' }), /names no client/],
    ['no subject', () => sign({ client_id: 'c' }), /sub claim/],
    ['garbage', async () => 'not.a.jwt', /invalid/],
  ])('refuses %s with a 401', async (_label, make, reason) => {
    const err = await verifier.verify(await make()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).detail).toMatch(reason);
  });

  it('an HS256 token signed with the public key material is refused (algorithm confusion)', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(jwk));
    const token = await new SignJWT({ sub: 'u', client_id: 'c' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .sign(secret);
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  describe('remote JWKS', () => {
    let server: Server;
    let status = 200;
    let url: string;
    beforeAll(async () => {
      server = createServer((_req, res) => {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('verifies against keys fetched from the issuer', async () => {
      const remote = OAuthTokenVerifier.remote(ISSUER, url, AUDIENCE);
      expect((await remote.verify(await sign({ sub: 'u', client_id: 'c' }))).subject).toBe('u');
    });

    it('an unreachable or failing key set is a 503, not a 401', async () => {
      status = 500;
      const failing = OAuthTokenVerifier.remote(ISSUER, url, AUDIENCE);
      await expect(failing.verify(await sign({ sub: 'u', client_id: 'c' }))).rejects.toBeInstanceOf(ServiceUnavailableError);
      status = 200;
      const closed = OAuthTokenVerifier.remote(ISSUER, 'http://127.0.0.1:1/jwks.json', AUDIENCE);
      await expect(closed.verify(await sign({ sub: 'u', client_id: 'c' }))).rejects.toBeInstanceOf(ServiceUnavailableError);
    });
  });
});
