import type { Severity } from '../../engine/scan-report.types';
import { concealedNear, landsInHome, raiseSeverity } from '../intent-evidence';
import { EFFECT_WORDS } from '../mcp-lexicon';
import { nameWords } from '../mcp-surface';
import { defineRegexRule, windowText } from '../regex-rule';
import type { Rule, RuleHit } from '../rule.types';
import type { ScanContext } from '../../views/scan-context';

/** Hits that grant less than every server or tool (graded low in refine). */
const APPROVE_LIST_HIT = /^["'](?:autoApprove|alwaysAllow)/;
const NAMED_SERVERS_HIT = /^["']?enabledMcpjsonServers/i;
const ONE_SERVER_HIT = /^["']mcp__(?!\*)(?:[A-Za-z0-9-]|_(?!_)){1,60}["']$/;
/** A quoted tool name inside an inline approval list. */
const QUOTED_NAME = /["']([\w.-]{1,80})["']/g;
/** The start of an approval list whose entries follow on the next lines. */
const APPROVE_LIST_OPEN = /["'](?:autoApprove|alwaysAllow)["']\s{0,3}:\s{0,3}\[\s{0,3}$/;
/** A server argument that opens the whole disk or the home directory to its tools. */
const ROOT_SCOPE = /^(?:\/|~|~\/|\$HOME|\$\{HOME\}|[A-Za-z]:\\{1,2}|%USERPROFILE%)$/;
const IRREVERSIBLE_TOOL_WORDS: ReadonlySet<string> = new Set<string>([
  ...EFFECT_WORDS.destroys,
  ...EFFECT_WORDS.executes,
  'run',
  'command',
  'shell',
  'bash',
  'terminal',
  'exec',
]);

/**
 * How much an approval grants without a prompt: a named tool list is low; tools that delete or
 * execute, a server opened on the whole disk or home directory, a change made in the user's home
 * config, and concealment each raise it one step.
 */
function gradeApproval(ctx: ScanContext, hit: RuleHit, base: Severity, tools: readonly string[], serverArgs: readonly string[]): RuleHit {
  let severity = base;
  const why: string[] = [];
  if (tools.includes('*')) {
    severity = raiseSeverity(severity, 1);
    why.push('every tool');
  } else if (tools.some((t) => nameWords(t).some((w) => IRREVERSIBLE_TOOL_WORDS.has(w)))) {
    severity = raiseSeverity(severity, 1);
    why.push('tools that delete or execute');
  }
  if (serverArgs.some((a) => ROOT_SCOPE.test(a))) {
    severity = raiseSeverity(severity, 1);
    why.push('server opened on the whole disk or home directory');
  }
  if (!ctx.executable && ctx.language !== 'json' && landsInHome(windowText(ctx, hit.line, 1))) {
    severity = raiseSeverity(severity, 1);
    why.push("in the user's home config");
  }
  if (concealedNear(ctx, hit.line, 4)) {
    severity = raiseSeverity(severity, 1);
    why.push('without the user');
  }
  return why.length === 0 && severity === hit.severity
    ? hit
    : { ...hit, severity, message: `${hit.message ?? 'MCP servers or tools approved without asking'}${why.length > 0 ? ` (${why.join(', ')})` : ''}` };
}

/** Server entries of a parsed MCP config with an approval list: `{ name: { args, autoApprove } }`. */
function approvingServers(json: unknown): { tools: string[]; args: string[] }[] {
  const out: { tools: string[]; args: string[] }[] = [];
  const root = json as Record<string, unknown> | null;
  if (root === null || typeof root !== 'object') return out;
  for (const key of ['mcpServers', 'servers']) {
    const servers = root[key];
    if (servers === null || typeof servers !== 'object') continue;
    for (const server of Object.values(servers as Record<string, unknown>)) {
      if (server === null || typeof server !== 'object') continue;
      const s = server as Record<string, unknown>;
      const list = s.autoApprove ?? s.alwaysAllow;
      if (!Array.isArray(list)) continue;
      out.push({
        tools: list.filter((t): t is string => typeof t === 'string'),
        args: Array.isArray(s.args) ? s.args.filter((a): a is string => typeof a === 'string') : [],
      });
    }
  }
  return out;
}

/**
 * Settings that start or approve MCP servers and tools without a prompt. In a repository's own
 * settings they let whoever wrote the repo's .mcp.json run code the moment the project is opened.
 */
const autoApprovalRule = defineRegexRule({
  meta: {
    id: 'BW-CFG-001',
    title: 'MCP servers or tools approved without asking',
    category: 'privilege_escalation',
    severity: 'medium',
    confidence: 'high',
    asset_type: 'config',
    rationale:
      "`enableAllProjectMcpServers: true` and `enabledMcpjsonServers` start every server a cloned project declares without the trust prompt; `mcp__*` or whole-server entries in `permissions.allow` and `autoApprove`/`alwaysAllow` lists let those servers' tools run unprompted. Shipped in a repository or a skill, they turn the project's MCP config into code that runs on open.",
    example: '{"enableAllProjectMcpServers": true}',
  },
  triggers: ['enableallprojectmcpservers', 'enabledmcpjsonservers', 'mcp__', 'autoapprove', 'alwaysallow'],
  patterns: [
    /["']?enableAllProjectMcpServers["']?\s{0,3}[:=]\s{0,3}true\b/i,
    /["']?enabledMcpjsonServers["']?\s{0,3}[:=]\s{0,3}\[\s{0,3}["']/i,
    /["']mcp__(?:\*|(?:[A-Za-z0-9-]|_(?!_)){1,60}(?:__\*)?)["']/,
    /["'](?:autoApprove|alwaysAllow)["']\s{0,3}:\s{0,3}\[\s{0,3}["'][\w-]/,
  ],
  views: ['raw', 'normalized'],
  refine(hit, _m, ctx) {
    // Named servers or tools the project itself declares are a narrower grant than "every server"
    // or "every tool": recorded low; enable-all and mcp__* wildcards stay medium.
    const line = ctx.lines[hit.line - 1] ?? '';
    if (APPROVE_LIST_HIT.test(hit.evidence)) {
      const tools = [...line.slice(line.indexOf('[')).matchAll(QUOTED_NAME)].map((m) => m[1]);
      return gradeApproval(ctx, { ...hit, severity: 'low', message: 'MCP tools listed for approval without a prompt' }, 'low', tools, []);
    }
    if (NAMED_SERVERS_HIT.test(hit.evidence))
      return gradeApproval(ctx, { ...hit, severity: 'low', message: 'Named project MCP servers enabled without the trust prompt' }, 'low', [], []);
    if (ONE_SERVER_HIT.test(hit.evidence))
      return gradeApproval(ctx, { ...hit, severity: 'low', message: 'Every tool of one MCP server approved without a prompt' }, 'low', [], []);
    return gradeApproval(ctx, hit, 'medium', [], []);
  },
});

/** The regex rule plus the regexes its refine grades with, so the ReDoS check sees them all. */
export const cfgMcpAutoApprovalRule: Rule = {
  ...autoApprovalRule,
  regexes: [...autoApprovalRule.regexes, APPROVE_LIST_HIT, NAMED_SERVERS_HIT, ONE_SERVER_HIT, APPROVE_LIST_OPEN, ROOT_SCOPE, QUOTED_NAME],
  match(ctx, prior) {
    const hits = autoApprovalRule.match(ctx, prior);
    if (ctx.language !== 'json' || ctx.json === undefined || !/autoApprove|alwaysAllow/.test(ctx.text)) return hits;
    // Approval lists written one entry per line: graded from the parsed config, at the list's line.
    const servers = approvingServers(ctx.json);
    let k = 0;
    for (let i = 0; i < ctx.lines.length && k < servers.length; i++) {
      if (!APPROVE_LIST_OPEN.test(ctx.lines[i])) continue;
      const { tools, args } = servers[k++];
      if (tools.length === 0 || hits.some((h) => h.line === i + 1)) continue;
      const base: RuleHit = {
        line: i + 1,
        evidence: `${ctx.lines[i].trim()} ${tools.join(', ')}`,
        severity: 'low',
        message: 'MCP tools listed for approval without a prompt',
      };
      hits.push(gradeApproval(ctx, base, 'low', tools, args));
    }
    return hits;
  },
};
