/** Injection tokens of the MCP module (interface + same-named token, DESIGN.md §2). */

/** `McpOriginPolicy`: the Host/Origin allow-list of /mcp. */
export const MCP_ORIGIN_POLICY = Symbol('MCP_ORIGIN_POLICY');

/** `OAuthTokenVerifier | null`: verifies OAuth access tokens for /mcp; null when OAuth is not configured. */
export const MCP_OAUTH_VERIFIER = Symbol('MCP_OAUTH_VERIFIER');
