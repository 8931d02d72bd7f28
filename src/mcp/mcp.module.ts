import { Logger, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuthModule } from '../auth/auth.module';
import { TenantsService } from '../auth/tenants.service';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ApplicationsModule } from '../applications/applications.module';
import { GraphModule } from '../graph/graph.module';
import { SbomModule } from '../sbom/sbom.module';
import { ScannerModule } from '../scanner/scanner.module';
import { McpAuthenticator, TenantDirectory } from './mcp-authenticator';
import { McpController } from './mcp.controller';
import { mcpOriginPolicy } from './mcp-origin';
import { McpRequestMiddleware } from './mcp-request.middleware';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_OAUTH_VERIFIER, MCP_ORIGIN_POLICY } from './mcp.tokens';
import { OAuthTokenVerifier } from './oauth-token.verifier';
import { ProtectedResourceController } from './protected-resource.controller';
import { ProtectedResourceMetadata } from './protected-resource.metadata';

function oauthVerifier(config: AppConfig): OAuthTokenVerifier | null {
  const { issuer, jwksUrl } = config.oauth;
  if (issuer === null && jwksUrl === null) return null;
  if (issuer === null || jwksUrl === null) {
    new Logger('Mcp').warn('OAuth on /mcp needs both OAUTH_ISSUER and OAUTH_JWKS_URL; accepting API keys only');
    return null;
  }
  return OAuthTokenVerifier.remote(issuer, jwksUrl, `${config.publicUrl}/mcp`);
}

/**
 * The MCP server at /mcp (docs/mcp.md): the scanner and the inventory as
 * read-only tools for AI agents, behind the same services, scopes and budgets as REST.
 */
@Module({
  imports: [AuthModule, ScannerModule, ApplicationsModule, GraphModule, SbomModule],
  controllers: [McpController, ProtectedResourceController],
  providers: [
    McpServerFactory,
    ProtectedResourceMetadata,
    McpRequestMiddleware,
    { provide: MCP_ORIGIN_POLICY, inject: [APP_CONFIG], useFactory: (config: AppConfig) => mcpOriginPolicy(config.publicUrl, config.corsOrigins) },
    { provide: MCP_OAUTH_VERIFIER, inject: [APP_CONFIG], useFactory: oauthVerifier },
    {
      provide: McpAuthenticator,
      inject: [ApiKeysService, MCP_OAUTH_VERIFIER, APP_CONFIG, TenantsService],
      useFactory: (apiKeys: ApiKeysService, oauth: OAuthTokenVerifier | null, config: AppConfig, tenantSettings: TenantsService) => {
        const tenants = new TenantDirectory(tenantSettings);
        tenantSettings.onLimitsChanged((tenantId) => tenants.forget(tenantId));
        return new McpAuthenticator({ apiKeys, oauth, tenants, defaultTenantSlug: config.oauth.defaultTenant });
      },
    },
  ],
})
export class McpModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(McpRequestMiddleware).forRoutes(McpController);
  }
}
