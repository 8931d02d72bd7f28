import { isSecretPlaceholder } from '../../engine/secret-formats';
import { extractMcpServers, isRecord, jsonKeyLines } from '../../parsers/json-config.parser';
import type { Rule, RuleHit } from '../rule.types';

const SECRETISH_KEY = /(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH)/i;

/** Literal secrets in MCP env/headers (category secrets_exposure). */
export const mcpInlineSecretRule: Rule = {
  meta: {
    id: 'BW-MCP-002',
    title: 'Literal credential in MCP server env or headers',
    category: 'secrets_exposure',
    severity: 'medium',
    confidence: 'high',
    asset_type: 'secret',
    rationale:
      'MCP configs are committed and shared; a literal token in `env` or an Authorization header leaks it. Use `${input:…}`/`${env:…}` references or a secret store. Placeholders are ignored; evidence is redacted.',
    example: '{"mcpServers": {"gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_R8mX2kQ7vN4pL9sT1wZ6yB3cF5hJ0dG8aE2u"}}}}',
    example_path: '.mcp.json',
  },
  regexes: [SECRETISH_KEY],
  match(ctx) {
    if (ctx.language !== 'json' || !isRecord(ctx.json)) return [];
    const hits: RuleHit[] = [];
    const keyLines = jsonKeyLines(ctx.lines);
    for (const s of extractMcpServers(ctx.json, ctx.lines)) {
      for (const [k, v] of [...Object.entries(s.env), ...Object.entries(s.headers)]) {
        const value = v.replace(/^Bearer\s+/i, '');
        if (!SECRETISH_KEY.test(k) || value.length < 8 || isSecretPlaceholder(value)) continue;
        const line = keyLines.find(k, s.line) ?? s.line;
        hits.push({ line, evidence: `${k}: ${v}`, confidence: /FAKE|EXAMPLE|DUMMY|TEST/i.test(value) ? 'medium' : 'high' });
      }
    }
    return hits;
  },
};
