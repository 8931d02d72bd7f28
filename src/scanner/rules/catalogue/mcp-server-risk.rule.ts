import { extractMcpServers, isRecord, jsonKeyLines } from '../../parsers/json-config.parser';
import type { Rule, RuleHit } from '../rule.types';

const PINNED_RE = /@\d[\w.-]{0,40}$|==\d|@sha256:/;
const SECRETISH_KEY = /(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH)/i;
const PLACEHOLDER_VALUE = /^(?:\$\{?|<|\{\{|your|xxx|\*{3}|changeme|placeholder|replace|example|sample|dummy|\s*$)/i;
const SHELL_CMD = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da)?sh$|^(?:cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)$/i;

/**
 * MCP client configs: each server entry is code the agent host will launch or connect to.
 * Reported per entry with the line of the server's key.
 */
export const mcpServerRiskRule: Rule = {
  meta: {
    id: 'BW-MCP-001',
    title: 'Risky MCP server definition',
    category: 'unsafe_external_reference',
    severity: 'low',
    confidence: 'medium',
    asset_type: 'config',
    rationale:
      'MCP servers run with the user\'s rights. Unpinned `npx -y`/`uvx` packages change under you; shell wrappers hide what runs; literal tokens in `env` leak; plain-http remotes can be intercepted; filesystem servers rooted at `/` or `~` expose everything; NODE_OPTIONS/PATH overrides hijack the runtime.',
    example: '{"mcpServers": {"helper": {"command": "npx", "args": ["-y", "some-mcp-server"]}}}',
    example_path: '.mcp.json',
  },
  regexes: [PINNED_RE, SECRETISH_KEY, PLACEHOLDER_VALUE, SHELL_CMD],
  match(ctx) {
    if (ctx.language !== 'json' || !isRecord(ctx.json)) return [];
    const hits: RuleHit[] = [];
    for (const s of extractMcpServers(ctx.json, ctx.lines)) {
      const cmd = (s.command ?? '').split(/[\\/]/).pop() ?? '';
      const args = s.args;
      if (cmd === 'npx' || cmd === 'uvx' || cmd === 'bunx' || cmd === 'pnpx') {
        const pkg = args.find((a) => !a.startsWith('-'));
        if (pkg && !PINNED_RE.test(pkg)) {
          hits.push({ line: s.line, evidence: `${s.name}: ${cmd} ${args.slice(0, 4).join(' ')}`, message: `Unpinned package ${pkg} fetched at every start` });
        }
      }
      if (SHELL_CMD.test(cmd) && args.some((a) => a === '-c' || a === '/c' || a === '-Command')) {
        hits.push({ line: s.line, evidence: `${s.name}: ${cmd} ${args.join(' ')}`, severity: 'medium', confidence: 'high', message: 'Server launched through a shell wrapper' });
      }
      const fsLike = /filesystem|file-system|fs\b/i.test(`${s.name} ${args.join(' ')}`);
      if (fsLike && args.some((a) => a === '/' || a === '~' || a === '$HOME' || a === 'C:\\' || /^\/(?:Users|home)\/?$/.test(a))) {
        hits.push({ line: s.line, evidence: `${s.name}: ${args.join(' ')}`, severity: 'medium', confidence: 'high', message: 'Filesystem server rooted at / or the home directory' });
      }
      if (s.url && /^http:\/\//i.test(s.url) && !/^http:\/\/(?:localhost|127\.|\[::1\]|0\.0\.0\.0)/i.test(s.url)) {
        hits.push({ line: s.line, evidence: `${s.name}: ${s.url}`, severity: 'medium', confidence: 'high', message: 'Remote MCP server over plain http' });
      }
      for (const [k, v] of Object.entries(s.env)) {
        if (/^(?:NODE_OPTIONS|PATH|LD_PRELOAD|DYLD_INSERT_LIBRARIES|PYTHONPATH)$/.test(k) && /--require|--import|\/tmp\/|^\.|:\//.test(v)) {
          hits.push({ line: s.line, evidence: `${s.name}: ${k}=${v}`, severity: 'high', confidence: 'high', message: `Runtime hijack through ${k}` });
        }
      }
    }
    return hits;
  },
};

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
  regexes: [SECRETISH_KEY, PLACEHOLDER_VALUE],
  match(ctx) {
    if (ctx.language !== 'json' || !isRecord(ctx.json)) return [];
    const hits: RuleHit[] = [];
    const keyLines = jsonKeyLines(ctx.lines);
    for (const s of extractMcpServers(ctx.json, ctx.lines)) {
      for (const [k, v] of [...Object.entries(s.env), ...Object.entries(s.headers)]) {
        const value = v.replace(/^Bearer\s+/i, '');
        if (!SECRETISH_KEY.test(k) || PLACEHOLDER_VALUE.test(value) || value.length < 8) continue;
        if (/\$\{|\{\{|x{4,}/i.test(value)) continue;
        const line = keyLines.find(k, s.line) ?? s.line;
        hits.push({ line, evidence: `${k}: ${v}`, confidence: /FAKE|EXAMPLE|DUMMY|TEST/i.test(value) ? 'medium' : 'high' });
      }
    }
    return hits;
  },
};
