import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

export const TEST_ISSUER = 'https://issuer.bulwark.test';

/**
 * A throw-away OAuth issuer for tests: a locally generated ES256 key pair whose public half is
 * served as a JWKS from a loopback HTTP server, so /mcp verifies tokens exactly as in production
 * (OAUTH_ISSUER + OAUTH_JWKS_URL, fetched with jose's remote key set).
 */
export class LoopbackIssuer {
  private constructor(
    private readonly server: Server,
    private readonly privateKey: CryptoKey,
    readonly jwksUrl: string,
  ) {}

  static async start(): Promise<LoopbackIssuer> {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }] });
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(jwks);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new LoopbackIssuer(server, privateKey, `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`);
  }

  /** OAUTH_* variables for createTestApp's `env`. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return { OAUTH_ISSUER: TEST_ISSUER, OAUTH_JWKS_URL: this.jwksUrl, ...extra };
  }

  token(claims: { sub: string; client_id?: string; tenant?: string; scope?: string }, audience: string, expiresIn: string | number = '10m'): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
      .setIssuer(TEST_ISSUER)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(this.privateKey);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
