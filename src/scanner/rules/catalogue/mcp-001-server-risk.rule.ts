import { extractMcpServers, isRecord } from '../../parsers/json-config.parser';
import type { Rule, RuleHit } from '../rule.types';

const PINNED_RE = /@\d[\w.-]{0,40}$|==\d|@sha256:/;
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
      "MCP servers run with the user's rights. Unpinned `npx -y`/`uvx` packages change under you; shell wrappers hide what runs; literal tokens in `env` leak; plain-http remotes can be intercepted; filesystem servers rooted at `/` or `~` expose everything; NODE_OPTIONS/PATH overrides hijack the runtime.",
    example: '{"mcpServers": {"helper": {"command": "npx", "args": ["-y", "some-mcp-server"]}}}',
    example_path: '.mcp.json',
  },
  regexes: [PINNED_RE, SHELL_CMD],
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
        hits.push({
          line: s.line,
          evidence: `${s.name}: ${cmd} ${args.join(' ')}`,
          severity: 'medium',
          confidence: 'high',
          message: 'Server launched through a shell wrapper',
        });
      }
      const fsLike = /filesystem|file-system|fs\b/i.test(`${s.name} ${args.join(' ')}`);
      if (fsLike && args.some((a) => a === '/' || a === '~' || a === '$HOME' || a === 'C:\\' || /^\/(?:Users|home)\/?$/.test(a))) {
        hits.push({
          line: s.line,
          evidence: `${s.name}: ${args.join(' ')}`,
          severity: 'medium',
          confidence: 'high',
          message: 'Filesystem server rooted at / or the home directory',
        });
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
