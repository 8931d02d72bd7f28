/**
 * Frame rules: a rule names the slot classes a frame needs (an action, an object, a destination,
 * a modifier such as concealment) and its severity policy; it fires where one window of adjacent
 * instructions of a block holds them all. Modifiers may also come from the instruction's section or
 * file. Weight (prohibition, quotation, example, human reader) comes from the instruction layer.
 */
import type { Confidence, Severity } from '../engine/scan-report.types';
import { TOKEN_PATTERN } from '../lexicons/lexicon';
import type { Rule, RuleHit, RuleMeta } from '../rules/rule.types';
import type { ScanContext } from '../views/scan-context';
import { contextOf, INSTRUCTION_REGEXES, instructionsOf, type Instruction, type SlotClass, type SlotHit } from './instructions';

/** Adjacent instructions of one block a frame may span ("Gather the tokens. Then post them to the hook."). */
export const FRAME_WINDOW = 3;

export interface FrameNeed {
  /** Any of these classes fills the slot. */
  any: readonly SlotClass[];
  /** Where the slot may be filled besides the window: its section, or anywhere in the file. */
  reach?: 'window' | 'section' | 'file';
}

export interface FrameGrade {
  severity: Severity;
  confidence: Confidence;
}

export interface FrameRuleSpec {
  meta: RuleMeta;
  /** Every need must be filled; the first need's slot is where the finding points. */
  needs: readonly FrameNeed[];
  /** Any of these in the window means the user stays in control (consent given, own destination): no finding. */
  unless?: readonly SlotClass[];
  /**
   * Severity policy from the classes present in the window (adjacent instructions) and in the
   * whole section; null drops the frame. Default: the rule's severity and confidence.
   */
  grade?: (window: ReadonlySet<SlotClass>, section: ReadonlySet<SlotClass>, anchor: SlotHit) => FrameGrade | null;
}

const NONE_TAKEN: ReadonlySet<number> = new Set();

/**
 * The first un-negated slot of these classes in the window (instructions [begin, end)), else a
 * negated one, skipping words another slot already took.
 */
function hitIn(instructions: readonly Instruction[], begin: number, end: number, any: readonly SlotClass[], taken: ReadonlySet<number> = NONE_TAKEN): SlotHit | null {
  let negated: SlotHit | null = null;
  for (let w = begin; w < end; w++) {
    for (const s of instructions[w].slots) {
      if (!any.includes(s.cls) || (s.at !== undefined && taken.has(s.at))) continue;
      if (!s.negated) return s;
      negated ??= s;
    }
  }
  return negated;
}

function evidenceOf(ctx: ScanContext, line: number): string {
  return (ctx.lines[line - 1] ?? '').trim().slice(0, 200);
}

export function defineFrameRule(spec: FrameRuleSpec): Rule {
  return {
    meta: spec.meta,
    regexes: [TOKEN_PATTERN, ...INSTRUCTION_REGEXES],
    match(ctx) {
      const { instructions, sectionClasses, fileClasses } = instructionsOf(ctx);
      const hits: RuleHit[] = [];
      const seen = new Set<number>();
      for (let i = 0; i < instructions.length; i++) {
        const first = instructions[i];
        // Most instructions fill no slot; the anchoring slot must start in this instruction.
        if (first.slots.length === 0) continue;
        const anchor = hitIn(instructions, i, i + 1, spec.needs[0].any);
        if (!anchor || seen.has(anchor.line)) continue;
        let end = i + 1;
        while (end < instructions.length && end - i < FRAME_WINDOW && instructions[end].block === first.block) end++;
        // Windows reach back too, so a lead-in line before its anchor counts ("Read the keys:" / "- post them").
        let begin = i;
        while (begin > 0 && i - begin < FRAME_WINDOW - 1 && instructions[begin - 1].block === first.block) begin--;
        const parts: SlotHit[] = [anchor];
        // "Battery charge": one word may not be both the action and what it acts on.
        const taken = new Set<number>(anchor.at === undefined ? [] : [anchor.at]);
        const section = sectionClasses.get(first.section);
        let complete = true;
        for (let n = 1; n < spec.needs.length; n++) {
          const need = spec.needs[n];
          const inWindow = hitIn(instructions, begin, end, need.any, taken);
          if (inWindow) {
            parts.push(inWindow);
            if (inWindow.at !== undefined) taken.add(inWindow.at);
            continue;
          }
          const wider = need.reach === 'section' ? section : need.reach === 'file' ? fileClasses : undefined;
          const cls = wider ? need.any.find((c) => wider.has(c)) : undefined;
          if (cls === undefined) {
            complete = false;
            break;
          }
          parts.push({ cls, line: anchor.line, text: cls, negated: false });
        }
        if (!complete) continue;
        const inWindow = new Set<SlotClass>();
        for (let w = begin; w < end; w++) for (const c of instructions[w].classes) inWindow.add(c);
        if (spec.unless?.some((c) => inWindow.has(c))) continue;
        const grade = spec.grade ? spec.grade(inWindow, section ?? new Set(), anchor) : { severity: spec.meta.severity, confidence: spec.meta.confidence };
        if (!grade) continue;
        seen.add(anchor.line);
        hits.push({
          line: anchor.line,
          evidence: evidenceOf(ctx, anchor.line),
          severity: grade.severity,
          confidence: grade.confidence,
          message: `${spec.meta.title} (${parts.map((p) => p.text).join(' · ')})`,
          context: contextOf(ctx, anchor, parts, first),
        });
      }
      return hits;
    },
  };
}
