import { Inject, Injectable } from '@nestjs/common';
import { ALL_SCOPES } from '../auth/principal';
import { NotFoundError } from '../common/errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { MCP_OAUTH_VERIFIER } from './mcp.tokens';
import type { OAuthTokenVerifier } from './oauth-token.verifier';

/** RFC 9728 protected-resource metadata of /mcp. */
export interface ProtectedResourceDocument {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: string[];
  scopes_supported: string[];
  resource_name: string;
  resource_documentation: string;
}

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/**
 * What MCP clients discover about /mcp (MCP authorization, RFC 9728): the resource URL (the
 * audience tokens must carry), the configured issuer, and the scopes tools check. Without OAuth
 * there is nothing to discover: a document naming no authorization server, or a 401 pointing at
 * one, sends clients into an OAuth flow that cannot succeed, so 401s ask for an API key instead.
 */
@Injectable()
export class ProtectedResourceMetadata {
  readonly resource: string;
  readonly documentUrl: string;
  /** OAuth tokens are accepted (OAUTH_ISSUER and OAUTH_JWKS_URL both set, see mcp.module.ts). */
  readonly oauthEnabled: boolean;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MCP_OAUTH_VERIFIER) verifier: OAuthTokenVerifier | null,
  ) {
    this.resource = `${config.publicUrl}/mcp`;
    this.documentUrl = `${config.publicUrl}${PROTECTED_RESOURCE_PATH}`;
    this.oauthEnabled = verifier !== null;
  }

  document(): ProtectedResourceDocument {
    if (!this.oauthEnabled) throw new NotFoundError('OAuth is not configured on this server: /mcp accepts API keys (Authorization: Bearer bwk_…)');
    return {
      resource: this.resource,
      authorization_servers: [this.config.oauth.issuer!],
      bearer_methods_supported: ['header'],
      scopes_supported: [...ALL_SCOPES],
      resource_name: 'Bulwark MCP server',
      resource_documentation: `${this.config.publicUrl}/docs`,
    };
  }

  /** `WWW-Authenticate` value of a 401 from /mcp: the RFC 9728 pointer with OAuth, a plain realm without. */
  challenge(error: 'invalid_token' | null): string {
    const invalid = error === null ? [] : [`error="${error}"`];
    return this.oauthEnabled
      ? `Bearer ${[...invalid, `resource_metadata="${this.documentUrl}"`].join(', ')}`
      : `Bearer ${['realm="bulwark"', ...invalid].join(', ')}`;
  }

  /** What a tool call without a credential is told it needs. */
  credentialRequired(): string {
    return this.oauthEnabled
      ? 'Authentication required: tool calls need an API key or an OAuth access token'
      : 'Authentication required: tool calls need an API key (Authorization: Bearer bwk_…)';
  }
}
