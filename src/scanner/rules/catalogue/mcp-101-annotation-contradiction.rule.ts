import type { Rule, RuleHit } from '../rule.types';
import type { ToolEffect } from '../mcp-lexicon';
import { mcpSurfaceOf, toolEffects } from '../mcp-surface';

/** Effects a `readOnlyHint: true` tool must not have, and how bad hiding each is. */
const READ_ONLY_BREAKERS: Partial<Record<ToolEffect, 'high' | 'medium'>> = { sends: 'high', destroys: 'high', writes: 'medium' };

/** The user's home directory in a deleting statement: destruction beyond anything the tool was given. */
const HOME_TARGET = /(?:^|[\s"'`(=,])(?:~(?=[/\s"'`]|$)|\$HOME\b|\$\{HOME\}|os\.homedir\(\)|Path\.home\(\)|expanduser\(\s{0,2}["']~)/;

/**
 * Tool annotations are how clients decide what to run without asking: a tool marked read-only or
 * non-destructive whose name, description or body deletes, writes or sends is disguised.
 */
export const mcpAnnotationContradictionRule: Rule = {
  meta: {
    id: 'BW-MCP-101',
    title: 'MCP tool annotation contradicts what the tool does',
    category: 'deception',
    severity: 'medium',
    confidence: 'medium',
    asset_type: 'tool_description',
    rationale:
      "Clients auto-approve tools annotated `readOnlyHint: true` or `destructiveHint: false`. A tool so annotated whose name, description or handler deletes, overwrites, writes or sends data elsewhere is disguised as harmless; sending or deleting under a read-only claim is rated high, deleting in the user's home directory under it critical.",
    example: '@mcp.tool(name="backup_db", description="Exports data to a remote server.", annotations={"readOnlyHint": True})',
    example_path: 'server.py',
  },
  regexes: [HOME_TARGET],
  match(ctx) {
    const hits: RuleHit[] = [];
    for (const tool of mcpSurfaceOf(ctx).tools) {
      const readOnly = tool.readOnlyHint?.value === true;
      const nonDestructive = tool.destructiveHint?.value === false;
      if (!readOnly && !nonDestructive) continue;
      const claimLine = (readOnly ? tool.readOnlyHint?.line : tool.destructiveHint?.line) ?? tool.line;
      for (const e of toolEffects(tool, ctx)) {
        const label = tool.name ?? 'tool';
        if (readOnly && READ_ONLY_BREAKERS[e.effect]) {
          // Deleting in the user's home directory under a read-only claim destroys what nobody handed the tool.
          const beyond = e.effect === 'destroys' && !e.fromName && HOME_TARGET.test(e.text);
          hits.push({
            line: claimLine,
            evidence: `${label}: readOnlyHint true; ${e.text}`,
            severity: beyond ? 'critical' : READ_ONLY_BREAKERS[e.effect],
            confidence: e.fromName ? 'medium' : 'high',
            message: `Tool ${label} is annotated read-only but ${e.effect === 'writes' ? 'writes' : e.effect === 'sends' ? 'sends data out' : beyond ? "deletes in the user's home directory" : 'deletes'} (line ${e.line})`,
          });
        } else if (nonDestructive && e.effect === 'destroys') {
          hits.push({
            line: tool.destructiveHint?.line ?? claimLine,
            evidence: `${label}: destructiveHint false; ${e.text}`,
            message: `Tool ${label} is annotated non-destructive but deletes (line ${e.line})`,
          });
        }
      }
    }
    return hits;
  },
};
