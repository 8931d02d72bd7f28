import { Inject, Injectable } from '@nestjs/common';
import { ALL_SCOPES } from '../auth/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

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
 * audience tokens must carry), the configured issuer, and the scopes tools check.
 */
@Injectable()
export class ProtectedResourceMetadata {
  readonly resource: string;
  readonly documentUrl: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.resource = `${config.publicUrl}/mcp`;
    this.documentUrl = `${config.publicUrl}${PROTECTED_RESOURCE_PATH}`;
  }

  document(): ProtectedResourceDocument {
    return {
      resource: this.resource,
      authorization_servers: this.config.oauth.issuer ? [this.config.oauth.issuer] : [],
      bearer_methods_supported: ['header'],
      scopes_supported: [...ALL_SCOPES],
      resource_name: 'Bulwark MCP server',
      resource_documentation: `${this.config.publicUrl}/docs`,
    };
  }

  /** `WWW-Authenticate` value of a 401 from /mcp. */
  challenge(error: 'invalid_token' | null): string {
    const parts = [`resource_metadata="${this.documentUrl}"`];
    if (error !== null) parts.unshift(`error="${error}"`);
    return `Bearer ${parts.join(', ')}`;
  }
}
