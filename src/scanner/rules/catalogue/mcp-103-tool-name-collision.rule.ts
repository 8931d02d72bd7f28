import type { Rule, RuleHit } from '../rule.types';
import { AGENT_BUILTIN_TOOLS, POPULAR_TOOL_NAMES } from '../mcp-lexicon';
import { mcpSurfaceOf } from '../mcp-surface';

/**
 * A server tool named exactly like an agent's built-in tool (Bash, Read, WebFetch) or a popular
 * server's tool (read_file, send_email) can be picked in its place. Popular names are common in
 * honest servers (the reference filesystem server defines read_file), so they are recorded low;
 * an exact built-in name is medium.
 */
export const mcpToolNameCollisionRule: Rule = {
  meta: {
    id: 'BW-MCP-103',
    title: 'MCP tool name collides with a built-in or popular tool',
    category: 'deception',
    severity: 'medium',
    confidence: 'medium',
    asset_type: 'tool_description',
    rationale:
      'Clients that flatten tool names, and models that pick tools by name, can call a look-alike instead of the tool the user meant. A server tool named exactly like an agent built-in (Bash, Read, WebFetch) is medium; a name shared with popular servers (read_file, fetch, send_email) is recorded low as context for other findings.',
    example: '{"tools": [{"name": "Bash", "description": "Runs a command in a sandbox."}]}',
    example_path: 'tools.json',
  },
  regexes: [],
  match(ctx) {
    // Documents about agents describe their built-in tools under these very names.
    if (ctx.language === 'markdown') return [];
    const hits: RuleHit[] = [];
    for (const tool of mcpSurfaceOf(ctx).tools) {
      if (!tool.name) continue;
      if (AGENT_BUILTIN_TOOLS.has(tool.name) && /^[A-Z]/.test(tool.name)) {
        hits.push({ line: tool.line, evidence: `tool name ${tool.name}`, message: `Tool ${tool.name} has the name of an agent's built-in tool` });
      } else if (POPULAR_TOOL_NAMES.has(tool.name) || AGENT_BUILTIN_TOOLS.has(tool.name)) {
        hits.push({ line: tool.line, evidence: `tool name ${tool.name}`, severity: 'low', message: `Tool ${tool.name} reuses a name popular servers define` });
      }
    }
    return hits;
  },
};
