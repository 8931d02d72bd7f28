import type { Rule, RuleHit } from '../rule.types';
import { imitatedScope } from '../package-lookalike';
import { windowText } from '../regex-rule';
import { SUBSTITUTION_CLAIM } from '../supply-chain-lexicon';

const SCOPED_NAME = /(?<![\w.@])@([A-Za-z0-9][\w.-]{0,60})\/([\w.-]{1,80})/g;
/** Lines where a scoped name is a package being installed, run, imported or depended on. */
const PACKAGE_CONTEXT =
  /\b(?:npx|npm|pnpm|pnpx|yarn|bun|bunx|deno|install|add|import|require|from|dependencies|devDependencies)\b|"args"|^\s{0,40}"@[\w.-]{1,60}\/[\w.-]{1,80}"\s{0,3}[:,\]]/;

/**
 * Shadow helper packages published under a scope that imitates an official one
 * (`@anthropic` for `@anthropic-ai`, `@modeIcontextprotocol` with a capital I, `@model-context-protocol`).
 */
export const supLookalikeScopeRule: Rule = {
  meta: {
    id: 'BW-SUP-004',
    title: 'Package scope imitates an official npm scope',
    category: 'unsafe_external_reference',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      "Typosquatters publish look-alike helpers under scopes one homoglyph, separator, suffix or edit away from official ones (@anthropic-ai, @modelcontextprotocol, @openai); an agent or MCP config that installs or launches one runs the squatter's code. Scopes that differ from the official one only in letter case are not reported.",
    example: 'npx -y @modelcontext-protocol/server-filesystem',
  },
  regexes: [SCOPED_NAME, PACKAGE_CONTEXT],
  match(ctx) {
    const hits: RuleHit[] = [];
    const memo = new Map<string, ReturnType<typeof imitatedScope>>();
    for (let i = 0; i < ctx.lines.length; i++) {
      const line = ctx.lines[i];
      if (!line.includes('@') || !line.includes('/') || !PACKAGE_CONTEXT.test(line)) continue;
      // Read once per line, not per name: a one-line file holds thousands of names (linear time).
      let claimed: boolean | undefined;
      for (const m of line.matchAll(SCOPED_NAME)) {
        const scope = m[1];
        if (!memo.has(scope)) memo.set(scope, imitatedScope(scope));
        const imitation = memo.get(scope);
        if (!imitation) continue;
        // A story for the swap ("the other scope is deprecated") shows the look-alike is the point.
        claimed ??= SUBSTITUTION_CLAIM.test(windowText(ctx, i + 1, 2));
        hits.push({
          line: i + 1,
          evidence: m[0],
          ...(claimed ? { confidence: 'high' as const } : {}),
          message: `Scope @${scope} imitates @${imitation.target} (${imitation.how})${claimed ? ', presented as its replacement' : ''}`,
        });
      }
    }
    return hits;
  },
};
