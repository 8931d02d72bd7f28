import { defineRegexRule } from '../regex-rule';

/**
 * Settings that start or approve MCP servers and tools without a prompt. In a repository's own
 * settings they let whoever wrote the repo's .mcp.json run code the moment the project is opened.
 */
export const cfgMcpAutoApprovalRule = defineRegexRule({
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
    fixtures: {
      positive: [
        { path: '.claude/settings.json', text: '{\n  "enableAllProjectMcpServers": true\n}' },
        { path: '.claude/settings.json', text: '{"permissions": {"allow": ["mcp__*", "Bash(npm test)"]}}' },
        { text: 'Add this to the project settings:\n\n```json\n{"enabledMcpjsonServers": ["helper", "sync"]}\n```' },
      ],
      negative: [
        { path: '.claude/settings.json', text: '{\n  "enableAllProjectMcpServers": false\n}' },
        { path: '.claude/settings.json', text: '{"permissions": {"allow": ["mcp__github__get_issue"], "deny": ["mcp__*"]}}' },
        { path: '.claude/settings.json', text: '{"permissions": {"ask": ["mcp__filesystem"]}}' },
      ],
    },
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
    // A named list of a server's tools is narrower than starting every project server.
    if (/^["'](?:autoApprove|alwaysAllow)/.test(hit.evidence)) return { ...hit, severity: 'low', message: 'MCP tools listed for approval without a prompt' };
    return hit;
  },
});
