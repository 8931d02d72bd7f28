/**
 * What compound rules share: they run after the other rules and combine their direct findings for
 * the same file with a cover (concealment, removed consent) or with the material involved.
 */
import type { RiskCategory, StaticFinding } from '../engine/scan-report.types';
import { windowText } from './regex-rule';
import type { Rule, RuleMeta } from './rule.types';

export const findingLine = (f: StaticFinding): number => Number(f.locator.slice(f.locator.lastIndexOf(':') + 1)) || 1;
export const isDirect = (f: StaticFinding): boolean => (f.context ?? 'direct') === 'direct' && f.confidence !== 'low';
const COVER_TEXT = /\b(?:without\s{1,3}(?:asking|prompting|confirmation|approval|checking)|no need to (?:ask|confirm|check)|(?:do not|don'?t|never) (?:ask|wait|confirm)|backups? (?:are|is) (?:unnecessary|not needed))\b/i;
const COVER_RULES = new Set(['BW-DEC-001', 'BW-DEC-002', 'BW-DEC-003']);
const isCover = (f: StaticFinding): boolean => COVER_RULES.has(f.rule_id) && isDirect(f);

/** A direct action of one of `actionCategories`, paired with a cover finding or cover text near it. */
export function coveredActionRule(meta: RuleMeta, actionCategories: readonly RiskCategory[], minSeverity: readonly string[]): Rule {
  return {
    meta,
    regexes: [COVER_TEXT],
    compound: true,
    match(ctx, prior) {
      const actions = prior.filter((f) => isDirect(f) && actionCategories.includes(f.category) && minSeverity.includes(f.severity) && !COVER_RULES.has(f.rule_id));
      if (actions.length === 0) return [];
      const a = actions[0];
      const covers = prior.filter(isCover);
      if (covers.length > 0) {
        const c = covers[0];
        return [{ line: findingLine(a), evidence: `${a.rule_id}: ${a.evidence} + ${c.rule_id}: ${c.evidence}`, message: `${a.message}, combined with ${c.message.toLowerCase()}` }];
      }
      // A bare "without asking" is ordinary next to read-only commands, but not next to this action.
      for (const f of actions) {
        const near = windowText(ctx, findingLine(f), 3);
        const cover = COVER_TEXT.exec(near);
        if (cover) return [{ line: findingLine(f), evidence: `${f.rule_id}: ${f.evidence} + "${cover[0]}"`, message: `${f.message}, with the user's confirmation removed` }];
      }
      return [];
    },
  };
}
