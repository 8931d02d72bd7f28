import { defineRegexRule } from '../regex-rule';
import type { Rule } from '../rule.types';

/** Hits that grant less than every server or tool (graded low in refine). */
const APPROVE_LIST_HIT = /^["'](?:autoApprove|alwaysAllow)/;
const NAMED_SERVERS_HIT = /^["']?enabledMcpjsonServers/i;
const ONE_SERVER_HIT = /^["']mcp__(?!\*)(?:[A-Za-z0-9-]|_(?!_)){1,60}["']$/;

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
      '`enableAllProjectMcpServers: true` and `enabledMcpjsonServers` start every server a cloned project declares without the trust prompt; `mcp__*` or whole-server entries in `permissions.allow` and `autoApprove`/`alwaysAllow` lists let those servers\' tools run unprompted. Shipped in a repository or a skill, they turn the project\'s MCP config into code that runs on open.',
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
  refine(hit) {
    // Named servers or tools the project itself declares are a narrower grant than "every server"
    // or "every tool": recorded low; enable-all and mcp__* wildcards stay medium.
    if (APPROVE_LIST_HIT.test(hit.evidence)) return { ...hit, severity: 'low', message: 'MCP tools listed for approval without a prompt' };
    if (NAMED_SERVERS_HIT.test(hit.evidence)) return { ...hit, severity: 'low', message: 'Named project MCP servers enabled without the trust prompt' };
    if (ONE_SERVER_HIT.test(hit.evidence)) return { ...hit, severity: 'low', message: 'Every tool of one MCP server approved without a prompt' };
    return hit;
  },
});

/** The regex rule plus the regexes its refine grades with, so the ReDoS check sees them all. */
export const cfgMcpAutoApprovalRule: Rule = { ...autoApprovalRule, regexes: [...autoApprovalRule.regexes, APPROVE_LIST_HIT, NAMED_SERVERS_HIT, ONE_SERVER_HIT] };
