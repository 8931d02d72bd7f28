/** Injection tokens of the MCP module (interface + same-named token, docs/decisions/0020-config-providers-and-migrations.md). */

/** `McpOriginPolicy`: the Host/Origin allow-list of /mcp. */
export const MCP_ORIGIN_POLICY = Symbol('MCP_ORIGIN_POLICY');

/** `OAuthTokenVerifier | null`: verifies OAuth access tokens for /mcp; null when OAuth is not configured. */
export const MCP_OAUTH_VERIFIER = Symbol('MCP_OAUTH_VERIFIER');
