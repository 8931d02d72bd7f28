/**
 * What compound rules share: they run after the other rules and combine their direct findings for
 * the same file with a cover (concealment, removed consent) or with the material involved.
 */
import { severityRank, type RiskCategory, type Severity, type StaticFinding } from '../engine/scan-report.types';
import { firstInstructionFrom, instructionsOf, type SlotHit } from '../instructions/instructions';
import type { ScanContext } from '../views/scan-context';
import type { Rule, RuleMeta } from './rule.types';

export const findingLine = (f: StaticFinding): number => Number(f.locator.slice(f.locator.lastIndexOf(':') + 1)) || 1;
export const isDirect = (f: StaticFinding): boolean => (f.context ?? 'direct') === 'direct' && f.confidence !== 'low';
const COVER_RULES = new Set(['BW-DEC-001', 'BW-DEC-002', 'BW-DEC-003']);
const isCover = (f: StaticFinding): boolean => COVER_RULES.has(f.rule_id) && isDirect(f);

/**
 * A direct action of one of `actionCategories`, paired with a cover finding or cover text near it.
 * `gradeOf` may set the compound's severity from the action it covers (default: the rule's). The
 * evidence is the action's alone, so a baseline still knows the finding when its cover changes.
 */
export function coveredActionRule(
  meta: RuleMeta,
  actionCategories: readonly RiskCategory[],
  minSeverity: readonly string[],
  gradeOf?: (action: StaticFinding) => Severity,
): Rule {
  return {
    meta,
    regexes: [],
    compound: true,
    match(ctx, prior) {
      // The most severe action first (stable: the earlier of equals), whatever order the rules ran in.
      const actions = prior
        .filter((f) => isDirect(f) && actionCategories.includes(f.category) && minSeverity.includes(f.severity) && !COVER_RULES.has(f.rule_id))
        .sort((x, y) => severityRank(y.severity) - severityRank(x.severity));
      if (actions.length === 0) return [];
      const a = actions[0];
      const covers = prior.filter(isCover);
      if (covers.length > 0) {
        const c = covers[0];
        return [
          {
            line: findingLine(a),
            evidence: `${a.rule_id}: ${a.evidence}`,
            message: `${a.message}, combined with ${c.message.toLowerCase()} (${c.rule_id} at line ${findingLine(c)})`,
            ...(gradeOf ? { severity: gradeOf(a) } : {}),
          },
        ];
      }
      // A bare "without asking" or "leave it out of the summary" is ordinary next to read-only
      // commands, but not next to this action.
      for (const f of actions) {
        const cover = coverNear(ctx, findingLine(f), 3);
        if (cover)
          return [
            {
              line: findingLine(f),
              evidence: `${f.rule_id}: ${f.evidence}`,
              message: `${f.message}, ${cover.cls === 'concealment' ? 'kept from the user' : "with the user's confirmation removed"} ("${cover.text}", line ${cover.line})`,
              ...(gradeOf ? { severity: gradeOf(f) } : {}),
            },
          ];
      }
      return [];
    },
  };
}

/**
 * A consent-bypass or concealment phrase ("without asking", "no need to confirm", "leave it out of
 * the summary") within `radius` lines of `line`, as the instruction layer reads it: examples and
 * quoted attack material do not count.
 */
function coverNear(ctx: ScanContext, line: number, radius: number): SlotHit | undefined {
  const { instructions } = instructionsOf(ctx);
  // From the instruction before the window: it may start above it and run into it.
  for (let i = Math.max(0, firstInstructionFrom(instructions, line - radius) - 1); i < instructions.length && instructions[i].line <= line + radius; i++) {
    const ins = instructions[i];
    if (ins.mood === 'example' || ins.mood === 'quotation') continue;
    const hit = ins.slots.find((h) => (h.cls === 'consent-bypass' || h.cls === 'concealment') && !h.negated && Math.abs(h.line - line) <= radius);
    if (hit) return hit;
  }
  return undefined;
}
