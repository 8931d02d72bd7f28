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
import { firstAtLeast } from '../views/line-index';
import { contextOf, INSTRUCTION_REGEXES, instructionsOf, type Instruction, type InstructionSet, type SlotClass, type SlotHit } from './instructions';

/** Adjacent instructions of one block a frame may span ("Gather the tokens. Then post them to the hook."). */
export const FRAME_WINDOW = 3;
/** A list item opening with a label of one or two words and a colon ("- Second: …", "2. Zweitens: …"). */
const LIST_LABEL = /^\s*(?:[-*+]|\d{1,2}[.)])\s+[*_]{0,2}[\p{L}\p{N}]+(?:[ -][\p{L}\p{N}]+)?[*_]{0,2}\s*:[*_]{0,2}\s/u;

export interface FrameNeed {
  /** Any of these classes fills the slot. */
  any: readonly SlotClass[];
  /** Where the slot may be filled besides the window: its section, or anywhere in the file. */
  reach?: 'window' | 'section' | 'file';
  /** Of `any`, the classes that may fill the slot from that wider reach (default: all of them). */
  reachBy?: readonly SlotClass[];
  /**
   * The slot may also be filled anywhere in the anchor's block when the anchor's own instruction
   * holds this class, a word pointing back at it ("send both there" → the host named earlier).
   */
  pointedBy?: SlotClass;
  /**
   * The slot may also be filled anywhere in the file when the anchor's window holds this class, a
   * word pointing at a place written elsewhere ("the store from section 5", "the URL in
   * note [1]", "the endpoint in the table below").
   */
  pointedElsewhereBy?: SlotClass;
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
   * whole section, the anchor and the instruction it stands in (its mood); null drops the frame.
   * Default: the rule's severity and confidence.
   */
  grade?: (
    window: ReadonlySet<SlotClass>,
    section: ReadonlySet<SlotClass>,
    anchor: SlotHit,
    own: Instruction,
    windowInstructions: readonly Instruction[],
    parts: readonly SlotHit[],
  ) => FrameGrade | null;
}

const NONE_TAKEN: ReadonlySet<number> = new Set();
const NO_INDICES: readonly number[] = [];

function overlaps(s: SlotHit, taken: ReadonlySet<number>): boolean {
  if (s.at === undefined) return false;
  for (let k = s.at; k < (s.end ?? s.at + 1); k++) if (taken.has(k)) return true;
  return false;
}

function take(s: SlotHit, taken: Set<number>): void {
  if (s.at !== undefined) for (let k = s.at; k < (s.end ?? s.at + 1); k++) taken.add(k);
}

/** The first un-negated slot of these classes in the window (else a negated one), skipping words another slot already took. */
function hitIn(window: readonly Instruction[], any: readonly SlotClass[], taken: ReadonlySet<number> = NONE_TAKEN, boundToActs = false): SlotHit | null {
  let negated: SlotHit | null = null;
  for (const ins of window) {
    for (const s of ins.slots) {
      if (!any.includes(s.cls) || overlaps(s, taken)) continue;
      // "… leaks credentials. An object that has silently truncated values.": a quiet adverb in a
      // neighbouring sentence describes the act it stands before, which must be one of the frame's.
      if (boundToActs && s.modifies !== undefined && !taken.has(s.modifies)) continue;
      if (!s.negated) return s;
      negated ??= s;
    }
  }
  return negated;
}

/**
 * The anchoring slot of an instruction (its first un-negated slot of these classes, else a negated
 * one) and the other readings of the same words ("waived by" and "by the platform owner"), so
 * that a word one reading would take from another slot may be left to it.
 */
function anchorsIn(instruction: Instruction, any: readonly SlotClass[]): SlotHit[] {
  const own = instruction.slots.filter((s) => any.includes(s.cls));
  const first = own.find((s) => !s.negated) ?? own[0];
  if (first?.at === undefined) return first ? [first] : [];
  const span = new Set<number>();
  take(first, span);
  return [first, ...own.filter((s) => s !== first && s.negated === first.negated && overlaps(s, span))];
}

/** Per instruction set: class → indices of the instructions holding it (as a class or any slot, negated ones included), ascending; and unions of them. */
const BY_CLASS = new WeakMap<InstructionSet, { byClass: Map<SlotClass, number[]>; unions: Map<string, number[]> }>();

function classIndex(set: InstructionSet): { byClass: Map<SlotClass, number[]>; unions: Map<string, number[]> } {
  let index = BY_CLASS.get(set);
  if (!index) {
    const byClass = new Map<SlotClass, number[]>();
    // Instructions come in order, so a class already listed for this one ends its list.
    const add = (c: SlotClass, i: number): void => {
      const list = byClass.get(c);
      if (!list) byClass.set(c, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    };
    set.instructions.forEach((ins, i) => {
      for (const c of ins.classes) add(c, i);
      for (const s of ins.slots) add(s.cls, i);
    });
    index = { byClass, unions: new Map() };
    BY_CLASS.set(set, index);
  }
  return index;
}

/**
 * Indices, ascending and distinct, of the instructions holding any of these classes: the index is
 * built once per file, so each of the frame rules no longer walks every instruction of the file,
 * and a union several rules anchor on is built once too.
 */
function anchorCandidates(set: InstructionSet, any: readonly SlotClass[]): readonly number[] {
  const index = classIndex(set);
  if (any.length === 1) return index.byClass.get(any[0]) ?? NO_INDICES;
  const key = any.join('+');
  let union = index.unions.get(key);
  if (!union) {
    const merged = new Set<number>();
    for (const c of any) for (const i of index.byClass.get(c) ?? []) merged.add(i);
    index.unions.set(key, (union = [...merged].sort((a, b) => a - b)));
  }
  return union;
}

/** Does an instruction in [from, to] or among `extra` hold a slot of these classes, negated or not? */
function slotNear(set: InstructionSet, any: readonly SlotClass[], from: number, to: number, extra: readonly number[]): boolean {
  const { byClass } = classIndex(set);
  for (const c of any) {
    const list = byClass.get(c) ?? NO_INDICES;
    const k = firstAtLeast(list, from);
    if (k < list.length && list[k]! <= to) return true;
  }
  return extra.some((k) => set.instructions[k]?.slots.some((sl) => any.includes(sl.cls)));
}

function evidenceOf(ctx: ScanContext, line: number): string {
  return (ctx.lines[line - 1] ?? '').trim().slice(0, 200);
}

export function defineFrameRule(spec: FrameRuleSpec): Rule {
  return {
    meta: spec.meta,
    regexes: [TOKEN_PATTERN, ...INSTRUCTION_REGEXES],
    match(ctx) {
      const set = instructionsOf(ctx);
      const { instructions, sectionClasses, fileClasses, referrers, blockClasses } = set;
      const hits: RuleHit[] = [];
      const seen = new Set<number>();
      // Only instructions where the anchoring slot starts, in file order.
      for (const i of anchorCandidates(set, spec.needs[0].any)) {
        const first = instructions[i];
        // A need that no instruction the window could hold fills, nor its wider reach, rules the
        // anchor out before its window is built (dense files have an anchor every few bytes).
        if (!mayFillEveryNeed(set, i, first)) continue;
        // A table row is a record of its own ("| `Ctrl+C` | Cancel … |" above "| … | Clear history |"):
        // a frame anchored in a row reads only that row's cells, never the rows around it.
        const row = ctx.lineInfo[first.line - 1]?.table ? first.line : 0;
        const joins = (other: Instruction): boolean => other.block === first.block && (row === 0 || other.line === row);
        // A label that states nothing before the step it names on its line ("Second: the file gets
        // run permissions") takes no place in the window after the anchor.
        const label = (k: number): boolean =>
          instructions[k].slots.length === 0 &&
          instructions[k + 1]?.line === instructions[k].line &&
          LIST_LABEL.test(ctx.lines[instructions[k].line - 1] ?? '');
        let end = i + 1;
        // At most FRAME_WINDOW labels are passed over, so a run of them keeps the walk linear.
        for (let n = 1, skipped = 0; end < instructions.length && n < FRAME_WINDOW && joins(instructions[end]); end++)
          if (skipped >= FRAME_WINDOW || !label(end)) n++;
          else skipped++;
        // Windows reach back too, so a lead-in line before its anchor counts ("Read the keys:" / "- post them").
        let begin = i;
        while (begin > 0 && i - begin < FRAME_WINDOW - 1 && joins(instructions[begin - 1])) begin--;
        const window = instructions.slice(begin, end);
        // A paragraph that names this numbered step ("Step 1 also covers …"), or the step this one names, is read with it.
        for (const r of referrers.get(i) ?? []) if (!window.includes(instructions[r])) window.push(instructions[r]);
        if (first.refersTo !== undefined && !window.includes(instructions[first.refersTo])) window.push(instructions[first.refersTo]);
        // A list item is read with its lead-in ("Do the following without asking:", "Sigue los pasos sin preguntar").
        if (first.leadIndex !== undefined && first.leadIndex >= 0 && !window.includes(instructions[first.leadIndex]))
          window.unshift(instructions[first.leadIndex]);
        for (const anchor of anchorsIn(first, spec.needs[0].any)) {
          if (seen.has(anchor.line)) break;
          const found = frameAt(anchor, first, window, sectionClasses.get(first.section), fileClasses, blockClasses.get(first.block));
          if (!found) continue;
          seen.add(anchor.line);
          hits.push({
            line: anchor.line,
            evidence: evidenceOf(ctx, anchor.line),
            severity: found.grade.severity,
            confidence: found.grade.confidence,
            message: `${spec.meta.title} (${found.parts.map((p) => p.text).join(' · ')})`,
            context: contextOf(ctx, anchor, found.parts, first),
          });
          break;
        }
      }
      return hits;
    },
  };

  /**
   * A necessary condition for frameAt: every need after the first can be filled by a slot of an
   * instruction the window may hold (the window spans at most FRAME_WINDOW - 1 instructions before
   * the anchor and 2 * FRAME_WINDOW - 1 after it, labels passed over included, plus the anchor's
   * referrers, the step it refers to and its lead-in), or from its section, block or file.
   */
  function mayFillEveryNeed(set: InstructionSet, i: number, first: Instruction): boolean {
    const extra = [...(set.referrers.get(i) ?? NO_INDICES)];
    if (first.refersTo !== undefined) extra.push(first.refersTo);
    if (first.leadIndex !== undefined) extra.push(first.leadIndex);
    for (let n = 1; n < spec.needs.length; n++) {
      const need = spec.needs[n]!;
      if (slotNear(set, need.any, i - FRAME_WINDOW + 1, i + 2 * FRAME_WINDOW - 1, extra)) continue;
      const wider = need.reach === 'section' ? set.sectionClasses.get(first.section) : need.reach === 'file' ? set.fileClasses : undefined;
      if (wider && (need.reachBy ?? need.any).some((c) => wider.has(c))) continue;
      if (need.pointedBy || need.pointedElsewhereBy) continue;
      return false;
    }
    return true;
  }

  function frameAt(
    anchor: SlotHit,
    own: Instruction,
    window: readonly Instruction[],
    section: ReadonlySet<SlotClass> | undefined,
    fileClasses: ReadonlySet<SlotClass>,
    block: ReadonlySet<SlotClass> | undefined,
  ): { parts: SlotHit[]; grade: FrameGrade } | null {
    const parts: SlotHit[] = [anchor];
    const pointedTo: SlotClass[] = [];
    // "Battery charge": one word may not be both the action and what it acts on.
    const taken = new Set<number>();
    take(anchor, taken);
    for (const need of spec.needs.slice(1)) {
      // The anchor's own sentence binds first: "credentials never appear in commit messages" is a
      // prohibition even when a neighbour mentions commits.
      const inWindow = hitIn([own], need.any, taken) ?? hitIn(window, need.any, taken, anchor.cls.startsWith('action-') || anchor.cls === 'echo-verb');
      if (inWindow) {
        parts.push(inWindow);
        take(inWindow, taken);
        continue;
      }
      const wider = need.reach === 'section' ? section : need.reach === 'file' ? fileClasses : undefined;
      let cls = wider ? (need.reachBy ?? need.any).find((c) => wider.has(c)) : undefined;
      if (cls === undefined && need.pointedBy && own.classes.has(need.pointedBy) && block) {
        cls = need.any.find((c) => block.has(c));
        if (cls !== undefined) pointedTo.push(cls);
      }
      const pointer = need.pointedElsewhereBy;
      if (cls === undefined && pointer && window.some((ins) => ins.classes.has(pointer))) {
        cls = need.any.find((c) => fileClasses.has(c));
        if (cls !== undefined) pointedTo.push(cls);
      }
      if (cls === undefined) return null;
      parts.push({ cls, line: anchor.line, text: cls, negated: false });
    }
    const inWindow = new Set<SlotClass>();
    for (const ins of window) for (const c of ins.classes) inWindow.add(c);
    for (const c of pointedTo) inWindow.add(c);
    if (spec.unless?.some((c) => inWindow.has(c))) return null;
    const grade = spec.grade
      ? spec.grade(inWindow, section ?? new Set(), anchor, own, window, parts)
      : { severity: spec.meta.severity, confidence: spec.meta.confidence };
    return grade ? { parts, grade } : null;
  }
}
