import type { Severity } from '../../engine/scan-report.types';
import { concealedNear, landsInHome, raiseSeverity } from '../intent-evidence';
import { EFFECT_WORDS } from '../mcp-lexicon';
import { declaredServers, foreignOrigin, MCP_SERVER_ORIGIN_REGEXES } from '../mcp-server-origin';
import { nameWords } from '../mcp-surface';
import { defineRegexRule, perFile, windowText } from '../regex-rule';
import type { Rule, RuleHit } from '../rule.types';
import type { ScanContext } from '../../views/scan-context';
import { extractMcpServers, isRecord, type McpServerEntry } from '../../parsers/json-config.parser';

/** Hits that grant less than every server or tool (graded low in refine). */
const APPROVE_LIST_HIT = /^["'](?:autoApprove|alwaysAllow)/;
const NAMED_SERVERS_HIT = /^["']?enabledMcpjsonServers/i;
const ONE_SERVER_HIT = /^["']mcp__(?!\*)(?:[A-Za-z0-9-]|_(?!_)){1,60}["']$/;
/** One named tool of one server (`"mcp__ops__run_shell"`): the server and the tool. */
const ONE_TOOL_HIT = /^["']mcp__((?:[A-Za-z0-9-]|_(?!_)){1,60})__([\w-]{1,80})["']$/;
/** The server a `mcp__<server>` or `mcp__<server>__*` entry names. */
const SERVER_OF_ENTRY = /^["']mcp__((?:[A-Za-z0-9-]|_(?!_)){1,60})(?:__\*)?["']$/;
/** A quoted tool name inside an inline approval list. */
const QUOTED_NAME = /["']([\w.*-]{1,80})["']/g;
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
 * execute, a server opened on the whole disk or home directory, a server whose code or endpoint
 * nobody vouches for (mcp-server-origin.ts), settings that also turn every prompt off, a change
 * made in the user's home config, and concealment each raise it one step.
 */
function gradeApproval(
  ctx: ScanContext,
  hit: RuleHit,
  base: Severity,
  tools: readonly string[],
  serverArgs: readonly string[],
  servers: readonly McpServerEntry[] = [],
): RuleHit {
  let severity = base;
  const why: string[] = [];
  const foreign = servers.map((s) => foreignOrigin(s)).find((w) => w !== null);
  if (foreign) {
    severity = raiseSeverity(severity, 1);
    why.push(`a server with ${foreign}`);
  }
  if (promptsOff(ctx)) {
    severity = raiseSeverity(severity, 1);
    why.push('every other prompt turned off');
  }
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

/** Settings that turn every permission prompt off (`"defaultMode": "bypassPermissions"`). */
function promptsOff(ctx: ScanContext): boolean {
  const root = ctx.json;
  if (ctx.language !== 'json' || !isRecord(root) || !isRecord(root.permissions)) return false;
  return root.permissions.defaultMode === 'bypassPermissions';
}

/** The servers this JSON file itself declares, computed once per file. */
const ownServers = perFile((ctx: ScanContext): McpServerEntry[] => (ctx.language === 'json' ? extractMcpServers(ctx.json, ctx.lines) : []));

/** The servers a hit approves: all of them, the named ones, or the one whose entry holds the list. */
function serversOf(ctx: ScanContext, evidence: string, line: number): McpServerEntry[] {
  const all = declaredServers(ctx);
  if (/enableAllProjectMcpServers/i.test(evidence) || /^["']mcp__\*["']$/.test(evidence)) return all;
  if (NAMED_SERVERS_HIT.test(evidence)) {
    const named = isRecord(ctx.json) && Array.isArray(ctx.json.enabledMcpjsonServers) ? ctx.json.enabledMcpjsonServers : [];
    return all.filter((s) => named.includes(s.name));
  }
  const entry = SERVER_OF_ENTRY.exec(evidence) ?? ONE_TOOL_HIT.exec(evidence);
  if (entry) return all.filter((s) => s.name === entry[1]);
  // An approval list inside a server's own entry: the last server declared above it in this file.
  const own = ownServers(ctx);
  const above = own.filter((s) => s.line <= line);
  return above.length > 0 ? [above[above.length - 1]] : [];
}

/** The approval list of each server of a parsed MCP config, by server name. */
function approvalLists(json: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!isRecord(json)) return out;
  for (const key of ['mcpServers', 'servers']) {
    const servers = json[key];
    if (!isRecord(servers)) continue;
    for (const [name, server] of Object.entries(servers)) {
      if (!isRecord(server)) continue;
      const list = server.autoApprove ?? server.alwaysAllow;
      if (Array.isArray(list))
        out.set(
          name,
          list.filter((t): t is string => typeof t === 'string'),
        );
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
      "`enableAllProjectMcpServers: true` and `enabledMcpjsonServers` start every server a cloned project declares without the trust prompt; `mcp__*` or whole-server entries in `permissions.allow` and `autoApprove`/`alwaysAllow` lists let those servers' tools run unprompted. Shipped in a repository or a skill, they turn the project's MCP config into code that runs on open. The grade rises with what the approval hands over: every tool or tools that delete or execute, a server whose package comes from another index or a bare address or whose remote endpoint is plain http, an IP address or handed other services' credentials, settings that also turn every prompt off, the user's home config, concealment.",
    example: '{"enableAllProjectMcpServers": true}',
  },
  triggers: ['enableallprojectmcpservers', 'enabledmcpjsonservers', 'mcp__', 'autoapprove', 'alwaysallow'],
  patterns: [
    /["']?enableAllProjectMcpServers["']?\s{0,3}[:=]\s{0,3}true\b/i,
    /["']?enabledMcpjsonServers["']?\s{0,3}[:=]\s{0,3}\[\s{0,3}["']/i,
    /["']mcp__(?:\*|(?:[A-Za-z0-9-]|_(?!_)){1,60}(?:__(?:\*|[\w-]{1,80}))?)["']/,
    /["'](?:autoApprove|alwaysAllow)["']\s{0,3}:\s{0,3}\[\s{0,3}["'][\w*-]/,
  ],
  views: ['raw', 'normalized'],
  refine(hit, _m, ctx) {
    // Named servers or tools the project itself declares are a narrower grant than "every server"
    // or "every tool": recorded low; enable-all and mcp__* wildcards stay medium.
    const line = ctx.lines[hit.line - 1] ?? '';
    const servers = serversOf(ctx, hit.evidence, hit.line);
    if (APPROVE_LIST_HIT.test(hit.evidence)) {
      const tools = [...line.slice(line.indexOf('[')).matchAll(QUOTED_NAME)].map((m) => m[1]);
      const args = servers.length === 1 ? servers[0].args : [];
      return gradeApproval(ctx, { ...hit, severity: 'low', message: 'MCP tools listed for approval without a prompt' }, 'low', tools, args, servers);
    }
    if (NAMED_SERVERS_HIT.test(hit.evidence))
      return gradeApproval(ctx, { ...hit, severity: 'low', message: 'Named project MCP servers enabled without the trust prompt' }, 'low', [], [], servers);
    if (ONE_SERVER_HIT.test(hit.evidence))
      return gradeApproval(ctx, { ...hit, severity: 'low', message: 'Every tool of one MCP server approved without a prompt' }, 'low', [], [], servers);
    const tool = ONE_TOOL_HIT.exec(hit.evidence);
    if (tool) {
      // One named tool is the narrowest grant: reported only when something makes it more.
      const graded = gradeApproval(ctx, { ...hit, severity: 'low', message: 'One MCP tool approved without a prompt' }, 'low', [tool[2]], [], servers);
      return graded.severity === 'low' ? null : graded;
    }
    return gradeApproval(ctx, hit, 'medium', [], [], servers);
  },
});

/** The regex rule plus the regexes its refine grades with, so the ReDoS check sees them all. */
export const cfgMcpAutoApprovalRule: Rule = {
  ...autoApprovalRule,
  regexes: [
    ...autoApprovalRule.regexes,
    APPROVE_LIST_HIT,
    NAMED_SERVERS_HIT,
    ONE_SERVER_HIT,
    ONE_TOOL_HIT,
    SERVER_OF_ENTRY,
    APPROVE_LIST_OPEN,
    ROOT_SCOPE,
    QUOTED_NAME,
    ...MCP_SERVER_ORIGIN_REGEXES,
  ],
  match(ctx, prior) {
    const hits = autoApprovalRule.match(ctx, prior);
    if (ctx.language !== 'json' || ctx.json === undefined || !/autoApprove|alwaysAllow/.test(ctx.text)) return hits;
    // Approval lists written one entry per line: graded from the parsed config (the list of the
    // server whose entry holds the line), at the list's line.
    const lists = approvalLists(ctx.json);
    for (let i = 0; i < ctx.lines.length; i++) {
      if (!APPROVE_LIST_OPEN.test(ctx.lines[i]) || hits.some((h) => h.line === i + 1)) continue;
      const servers = serversOf(ctx, ctx.lines[i].trim(), i + 1);
      const tools = servers.length === 1 ? (lists.get(servers[0].name) ?? []) : [];
      if (tools.length === 0) continue;
      const base: RuleHit = {
        line: i + 1,
        evidence: `${ctx.lines[i].trim()} ${tools.join(', ')}`,
        severity: 'low',
        message: 'MCP tools listed for approval without a prompt',
      };
      hits.push(gradeApproval(ctx, base, 'low', tools, servers[0].args, servers));
    }
    return hits;
  },
};
