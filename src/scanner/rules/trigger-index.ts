/**
 * Finds every rule trigger (a lower-case literal, see RegexRuleSpec.triggers) in a text in ONE pass,
 * instead of one `indexOf` sweep per trigger. With ~300 triggers over 4 views that was ~1,100
 * sweeps of each file, half of the static engine's time on the corpus. The triggers are compiled
 * once into an Aho–Corasick automaton over the characters they hold (every transition
 * precomputed), so the pass is one table lookup per character whatever the text holds; before, a
 * table of first two characters left a run of `startsWith` checks at every position of
 * trigger-dense text. Triggers with a line break (none today) are found with `indexOf`, so any
 * literal works; non-ASCII triggers ("contraseña") are in the automaton, since one `indexOf` sweep
 * each cost as much as the whole pass.
 */
import { lineOfOffset } from '../views/line-index';

const ASCII = 128;
/**
 * startsIn does not list a trigger that starts more than once per `every` characters of a block on
 * average (nor more than `floor` times in a short one): windows around it would cover most of the
 * block, which is then read whole anyway, and listing every start of a trigger that fills a 250 KB
 * line grew faster than the line (arrays of tens of thousands of offsets).
 */
export const DENSE_STARTS = { every: 64, floor: 16 } as const;
/** The lines of a group found nowhere: one shared array, never written (its readers take it read-only). */
const NO_LINES: readonly number[] = Object.freeze([]);

export class TriggerIndex {
  private readonly list: string[] = [];
  /** Per trigger, its id (its index in `list`). */
  private readonly ids = new Map<string, number>();
  /** Ids of triggers the automaton does not hold (non-ASCII or multi-line). */
  private readonly other: number[] = [];
  /**
   * state * classCount + class of the character → next state. A character no trigger holds leads
   * every state back to the root, so all of them share class 0: the table is a few times smaller
   * than one column per character, and its lookups stay in cache (they were most of the pass).
   */
  private readonly delta: Uint16Array | Int32Array;
  /** ASCII character → its column in `delta` (0: in no trigger). */
  private readonly classOf = new Uint16Array(ASCII);
  /** The same for the non-ASCII code units the triggers hold, and their range (outside it, no lookup: CJK text stays one comparison per character). */
  private readonly wideClassOf = new Map<number, number>();
  private wideMin = 0xffff;
  private wideMax = 0;
  private readonly classCount: number;
  /** Per state: ids of the triggers that end there (its own and its suffixes'), or undefined. */
  private readonly endsAt: (number[] | undefined)[];
  /** Per trigger id: the groups it belongs to (see groupLinesIn). */
  private readonly groupsOf: number[][] = [];
  /** Per state: the groups of the triggers ending there, or undefined. */
  private readonly groupsEndingAt: (number[] | undefined)[];
  private readonly groupCount: number;
  /** Per group, the last line recorded, reused by every groupLinesIn pass (cleared at its start). */
  private readonly lastOfGroup: Int32Array;

  /**
   * `groups`: sets of triggers whose lines groupLinesIn reports as one union (a rule's triggers),
   * so a rule reads its candidate lines without merging one list per trigger.
   */
  constructor(triggers: Iterable<string>, groups: readonly (readonly string[])[] = []) {
    const ids = this.ids;
    const automatonIds: number[] = [];
    for (const t of triggers) {
      if (t.length === 0 || ids.has(t)) continue;
      const id = this.list.push(t) - 1;
      ids.set(t, id);
      this.groupsOf.push([]);
      // A line break resets the automaton's line count: such a trigger is searched for on its own.
      if (t.includes('\n')) this.other.push(id);
      else automatonIds.push(id);
    }
    // One column per distinct code unit of the triggers (0: every other character).
    let classes = 1;
    for (const id of automatonIds) {
      const t = this.list[id]!;
      for (let k = 0; k < t.length; k++) {
        const c = t.charCodeAt(k);
        if (c < ASCII) {
          if (this.classOf[c] === 0) this.classOf[c] = classes++;
        } else if (!this.wideClassOf.has(c)) {
          this.wideClassOf.set(c, classes++);
          this.wideMin = Math.min(this.wideMin, c);
          this.wideMax = Math.max(this.wideMax, c);
        }
      }
    }
    this.classCount = classes;
    const classAt = (t: string, k: number): number => {
      const c = t.charCodeAt(k);
      return c < ASCII ? this.classOf[c]! : this.wideClassOf.get(c)!;
    };
    // The trie in one flat table: row per state, its child per class (0: none, since the root is
    // nobody's child). One table, not a typed array per state (thousands of small allocations).
    let cap = 1;
    for (const id of automatonIds) cap += this.list[id]!.length;
    const next = new Int32Array(cap * classes);
    const ends: number[][] = [[]];
    let states = 1;
    for (const id of automatonIds) {
      const t = this.list[id]!;
      let state = 0;
      for (let k = 0; k < t.length; k++) {
        const at = state * classes + classAt(t, k);
        if (next[at] === 0) {
          next[at] = states++;
          ends.push([]);
        }
        state = next[at]!;
      }
      ends[state]!.push(id);
    }
    // Breadth first: each state's failure link is the longest proper suffix that is a trie state;
    // its missing transitions are its failure state's, and its outputs include that state's. The
    // table becomes the automaton's transitions in place.
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let c = 1; c < classes; c++) if (next[c] !== 0) queue.push(next[c]!);
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      const row = s * classes;
      const failRow = fail[s]! * classes;
      for (let c = 1; c < classes; c++) {
        const child = next[row + c]!;
        if (child === 0) {
          next[row + c] = next[failRow + c]!;
          continue;
        }
        fail[child] = next[failRow + c]!;
        for (const id of ends[fail[child]!]!) ends[child]!.push(id);
        queue.push(child);
      }
    }
    // States renumbered breadth first, so the shallow states most characters of a text visit share
    // the first rows; 16-bit entries where they fit: the table a pass reads is a few times smaller
    // and stays in cache between passes (a cold table cost more than the pass's own work).
    const order = [0, ...queue];
    const renumbered = new Int32Array(states);
    for (let k = 0; k < order.length; k++) renumbered[order[k]!] = k;
    const table = states <= 0xffff ? new Uint16Array(states * classes) : new Int32Array(states * classes);
    for (let k = 0; k < order.length; k++) {
      const row = order[k]! * classes;
      for (let c = 0; c < classes; c++) table[k * classes + c] = renumbered[next[row + c]!]!;
    }
    this.delta = table;
    this.endsAt = order.map((s) => (ends[s]!.length > 0 ? ends[s] : undefined));
    this.groupCount = groups.length;
    this.lastOfGroup = new Int32Array(groups.length);
    groups.forEach((group, g) => {
      for (const t of new Set(group)) {
        const id = ids.get(t);
        if (id !== undefined) this.groupsOf[id]!.push(g);
      }
    });
    this.groupsEndingAt = this.endsAt.map((e) => {
      if (e === undefined) return undefined;
      const gs = [...new Set(e.flatMap((id) => this.groupsOf[id]!))];
      return gs.length > 0 ? gs : undefined;
    });
  }

  /** The automaton's state after `state` reads code unit `c`: a character no trigger holds leads back to the root, where no trigger ends. */
  private next(state: number, c: number): number {
    const k = c < ASCII ? this.classOf[c]! : c < this.wideMin || c > this.wideMax ? 0 : (this.wideClassOf.get(c) ?? 0);
    return k === 0 ? 0 : this.delta[state * this.classCount + k]!;
  }

  /** The id of a trigger the automaton holds, or undefined (not a trigger, or one found by `indexOf`). */
  automatonIdOf(trigger: string): number | undefined {
    const id = this.ids.get(trigger);
    return id === undefined || this.other.includes(id) ? undefined : id;
  }

  /**
   * Per trigger id (automatonIdOf): the offsets in `text` where it starts between `from` and `to`,
   * ascending; undefined when it is not there, null when it is dense (DENSE_STARTS). For a block of
   * long lines: a pattern is then run only around its literals (regex-rule.ts), and read whole
   * where one of them is dense.
   */
  startsIn(text: string, from: number, to: number): (number[] | null | undefined)[] {
    const starts: (number[] | null | undefined)[] = new Array<number[] | null | undefined>(this.list.length);
    const { endsAt, list } = this;
    const most = Math.max(DENSE_STARTS.floor, Math.ceil((to - from) / DENSE_STARTS.every));
    let state = 0;
    for (let i = from; i < to; i++) {
      state = this.next(state, text.charCodeAt(i));
      const ends = endsAt[state];
      if (ends === undefined) continue;
      for (const id of ends) {
        const own = starts[id];
        if (own === null) continue;
        if (own === undefined) starts[id] = [i + 1 - list[id]!.length];
        else if (own.push(i + 1 - list[id]!.length) > most) starts[id] = null;
      }
    }
    return starts;
  }

  /**
   * For every trigger found in `text`: its distinct 1-based lines in ascending order, or null once
   * it is on more than `maxLines` lines. Triggers absent from the text are absent from the map.
   */
  linesIn(text: string, lineStarts: readonly number[], maxLines: number): Map<string, number[] | null> {
    const own = this.list.map((_, id) => [id]);
    const lines = this.scan(text, lineStarts, maxLines, this.endsAt, own, new Int32Array(this.list.length));
    const found = new Map<string, number[] | null>();
    for (let id = 0; id < this.list.length; id++) {
      const l = lines[id];
      if (l !== undefined) found.set(this.list[id]!, l);
    }
    return found;
  }

  /**
   * Per group given to the constructor: the distinct 1-based lines holding any of its triggers, in
   * ascending order (empty when none), or null once they are more than `maxLines`.
   */
  groupLinesIn(text: string, lineStarts: readonly number[], maxLines: number): (readonly number[] | null)[] {
    this.lastOfGroup.fill(0);
    // The pass's own array, filled in place: one array of every group per view, not two.
    const lines: (readonly number[] | null | undefined)[] = this.scan(text, lineStarts, maxLines, this.groupsEndingAt, this.groupsOf, this.lastOfGroup);
    for (let g = 0; g < this.groupCount; g++) if (lines[g] === undefined) lines[g] = NO_LINES;
    return lines as (readonly number[] | null)[];
  }

  /**
   * One pass of the automaton over the text; a state where triggers end records its line in each
   * of its sinks (`sinksAt`); the other triggers' lines are merged in after (`sinksOf`).
   */
  private scan(
    text: string,
    lineStarts: readonly number[],
    maxLines: number,
    sinksAt: readonly (readonly number[] | undefined)[],
    sinksOf: readonly (readonly number[])[],
    last: Int32Array,
  ): (number[] | null | undefined)[] {
    // Per sink: its lines so far (null past maxLines) and the last line recorded. Arrays, not a
    // Map and no closure: this loop runs at every character of every view.
    const lines: (number[] | null | undefined)[] = new Array<number[] | null | undefined>(last.length);
    const n = text.length;
    let line = 1;
    let state = 0;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      // No automaton trigger holds a line break, so it also returns to the root.
      if (c === 10) line++;
      state = this.next(state, c);
      const sinks = sinksAt[state];
      if (sinks === undefined) continue;
      for (let s = 0; s < sinks.length; s++) {
        const g = sinks[s]!;
        if (last[g] === line) continue;
        last[g] = line;
        const l = lines[g];
        if (l === null) continue;
        if (l === undefined) lines[g] = [line];
        else if (l.push(line) > maxLines) lines[g] = null;
      }
    }
    if (this.other.length > 0) {
      // Found after the pass, so their lines are merged into the sinks' ordered lists.
      const extra = new Map<number, Set<number>>();
      for (const id of this.other) {
        const t = this.list[id]!;
        let idx = text.indexOf(t);
        while (idx !== -1) {
          const l = lineOfOffset(lineStarts, idx);
          for (const g of sinksOf[id]!) {
            let set = extra.get(g);
            if (!set) extra.set(g, (set = new Set()));
            set.add(l);
          }
          idx = text.indexOf(t, lineStarts[l] ?? n);
        }
      }
      for (const [g, set] of extra) {
        const l = lines[g];
        if (l === null) continue;
        const merged = [...new Set([...(l ?? []), ...set])].sort((a, b) => a - b);
        lines[g] = merged.length > maxLines ? null : merged;
      }
    }
    return lines;
  }
}
