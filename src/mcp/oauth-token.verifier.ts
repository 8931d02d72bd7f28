import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { ALL_SCOPES, type Scope } from '../auth/principal';
import { ServiceUnavailableError, UnauthorizedError } from '../common/errors';

/** What an OAuth access token for /mcp says about its caller, before the tenant is resolved. */
export interface OAuthClaims {
  clientId: string;
  subject: string;
  /** Tenant slug named by the token (`tenant` claim), or null to use OAUTH_DEFAULT_TENANT. */
  tenantSlug: string | null;
  scopes: Scope[];
}

export interface OAuthTokenVerifierOptions {
  issuer: string;
  /** The protected resource: `${PUBLIC_URL}/mcp`. A token for any other audience is refused. */
  audience: string;
  /** Key resolver: a remote JWKS (production) or a local key set (tests, air-gapped set-ups). */
  keys: JWTVerifyGetKey;
}

/**
 * Asymmetric algorithms only: a JWKS publishes public keys, and accepting HS* would let anyone
 * holding the public key mint tokens (algorithm confusion).
 */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

function scopesOf(payload: JWTPayload): Scope[] {
  // RFC 9068 `scope` is a space-separated string; some issuers send `scp` as an array.
  const raw = payload.scope ?? payload.scp;
  const words = typeof raw === 'string' ? raw.split(/\s+/) : Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
  return [...new Set(words.filter((w): w is Scope => (ALL_SCOPES as readonly string[]).includes(w)))];
}

function nonEmptyString(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' && v.length <= 255 ? v : null;
}

/**
 * Verifies OAuth bearer JWTs for /mcp (docs/decisions/0021-tenancy-and-credentials.md): signature against the issuer's keys,
 * `iss`, `aud` = this server's /mcp URL, `exp`/`nbf`. The bucket identity is client + subject
 * (+ tenant), so both must be present. Reasons in the thrown 401 are safe to show; the token
 * itself is never logged or echoed.
 */
export class OAuthTokenVerifier {
  constructor(private readonly options: OAuthTokenVerifierOptions) {}

  static remote(issuer: string, jwksUrl: string, audience: string): OAuthTokenVerifier {
    // jose caches the key set, refetches on an unknown `kid` (at most every 30 s) and times out after 5 s.
    return new OAuthTokenVerifier({ issuer, audience, keys: createRemoteJWKSet(new URL(jwksUrl)) });
  }

  async verify(token: string): Promise<OAuthClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.options.keys, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: 5,
      }));
    } catch (err) {
      // The issuer's key set unreachable or broken is our outage, not a bad token: a 401 would
      // send clients into a re-authorisation loop.
      if (isKeySetUnavailable(err)) throw new ServiceUnavailableError('OAuth issuer key set unavailable; retry later');
      throw new UnauthorizedError(describeJoseError(err));
    }
    const subject = nonEmptyString(payload.sub);
    const clientId = nonEmptyString(payload.client_id) ?? nonEmptyString(payload.azp);
    if (subject === null) throw new UnauthorizedError('Access token has no usable subject');
    if (clientId === null) throw new UnauthorizedError('Access token names no client (client_id or azp)');
    return { clientId, subject, tenantSlug: nonEmptyString(payload.tenant), scopes: scopesOf(payload) };
  }
}

function isKeySetUnavailable(err: unknown): boolean {
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid) return true;
  // fetch() failures (connection refused, DNS) and non-2xx answers from the JWKS URL.
  return !(err instanceof joseErrors.JOSEError) || (err as { code?: string }).code === 'ERR_JOSE_GENERIC';
}

function describeJoseError(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'Access token expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `Access token rejected: ${err.claim} claim check failed`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed || err instanceof joseErrors.JWKSNoMatchingKey) return 'Access token signature is invalid';
  return 'Access token is invalid';
}
