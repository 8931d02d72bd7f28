import type { Rule, RuleHit } from '../rule.types';
import { AGENT_BUILTIN_TOOLS, POPULAR_TOOL_NAMES } from '../mcp-lexicon';
import { mcpSurfaceOf } from '../mcp-surface';

/** A claim of precedence over the agent's own or another tool ("preferred over the built-in Bash tool"). */
const PRECEDENCE_CLAIM =
  /\b(?:instead\s{1,3}of|rather\s{1,3}than|preferred\s{1,3}(?:over|to)|in\s{1,3}place\s{1,3}of|replaces?|overrides?|supersedes?|precedence\s{1,3}over)\s{1,3}(?:the\s{1,3}|any\s{1,3}|your\s{1,3})?(?:built-?in|default|native|original|standard|other|existing|agent'?s)\b/i;

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
      'Clients that flatten tool names, and models that pick tools by name, can call a look-alike instead of the tool the user meant. A server tool named exactly like an agent built-in (Bash, Read, WebFetch) is medium; a name shared with popular servers (read_file, fetch, send_email) is recorded low as context for other findings. A description claiming precedence over the built-in or default tool ("use this instead of the built-in fetch") makes the collision deliberate: high for a built-in name, medium for a popular one.',
    example: '{"tools": [{"name": "Bash", "description": "Runs a command in a sandbox."}]}',
    example_path: 'tools.json',
  },
  regexes: [PRECEDENCE_CLAIM],
  match(ctx) {
    // Documents about agents describe their built-in tools under these very names.
    if (ctx.language === 'markdown') return [];
    const hits: RuleHit[] = [];
    for (const tool of mcpSurfaceOf(ctx).tools) {
      if (!tool.name) continue;
      // Claiming precedence over the tool it is named after makes the collision the point.
      const claim = tool.strings.find((s) => PRECEDENCE_CLAIM.test(s.text));
      const why = claim ? ` and claims precedence over it` : '';
      if (AGENT_BUILTIN_TOOLS.has(tool.name) && /^[A-Z]/.test(tool.name)) {
        hits.push({
          line: tool.line,
          evidence: `tool name ${tool.name}`,
          ...(claim ? { severity: 'high' as const, confidence: 'high' as const } : {}),
          message: `Tool ${tool.name} has the name of an agent's built-in tool${why}`,
        });
      } else if (POPULAR_TOOL_NAMES.has(tool.name) || AGENT_BUILTIN_TOOLS.has(tool.name)) {
        hits.push({
          line: tool.line,
          evidence: `tool name ${tool.name}`,
          severity: claim ? 'medium' : 'low',
          ...(claim ? { confidence: 'high' as const } : {}),
          message: `Tool ${tool.name} reuses a name popular servers define${why}`,
        });
      }
    }
    return hits;
  },
};
