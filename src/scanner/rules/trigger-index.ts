/**
 * Finds every rule trigger (a lower-case literal, see RegexRuleSpec.triggers) in a text in ONE pass,
 * instead of one `indexOf` sweep per trigger. With ~300 triggers over 4 views that was ~1,100
 * sweeps of each file, half of the static engine's time on the corpus. Triggers are short ASCII
 * words, so a table keyed by their first two characters leaves a handful of `startsWith` checks per
 * position. Triggers that do not start with two ASCII characters (none today) are found with
 * `indexOf`, so any literal works.
 */
import { lineOfOffset } from '../views/line-index';

const ASCII = 128;

export class TriggerIndex {
  /** First two characters (c0 * 128 + c1) → ids of triggers of length ≥ 2 starting with them. */
  private readonly byBigram: (number[] | undefined)[] = new Array<number[] | undefined>(ASCII * ASCII);
  /** One-character triggers: character code → id (-1: none). */
  private readonly single = new Int32Array(ASCII).fill(-1);
  /** Ids of triggers that do not start with ASCII characters. */
  private readonly other: number[] = [];
  private readonly list: string[] = [];
  /** Third character code of each trigger (-1 when it has two): a cheap test before startsWith. */
  private readonly third: number[] = [];

  constructor(triggers: Iterable<string>) {
    const all = new Set<string>();
    for (const t of triggers) {
      if (t.length === 0 || all.has(t)) continue;
      all.add(t);
      const id = this.list.push(t) - 1;
      this.third.push(t.length > 2 ? t.charCodeAt(2) : -1);
      const c0 = t.charCodeAt(0);
      if (t.length === 1 && c0 < ASCII) {
        this.single[c0] = id;
        continue;
      }
      const c1 = t.charCodeAt(1);
      if (c0 >= ASCII || c1 >= ASCII) {
        this.other.push(id);
        continue;
      }
      (this.byBigram[c0 * ASCII + c1] ??= []).push(id);
    }
  }

  /**
   * For every trigger found in `text`: its distinct 1-based lines in ascending order, or null once
   * it is on more than `maxLines` lines. Triggers absent from the text are absent from the map.
   */
  linesIn(text: string, lineStarts: readonly number[], maxLines: number): Map<string, number[] | null> {
    // Per trigger id: its lines so far; `full` once past maxLines. Arrays, not a Map: this loop
    // runs at every character of every view.
    const lines: (number[] | undefined)[] = new Array<number[] | undefined>(this.list.length);
    const full = new Uint8Array(this.list.length);
    const record = (id: number, line: number) => {
      if (full[id] === 1) return;
      let l = lines[id];
      if (l === undefined) lines[id] = l = [];
      else if (l[l.length - 1] === line) return;
      l.push(line);
      if (l.length > maxLines) full[id] = 1;
    };
    const n = text.length;
    let line = 1;
    for (let i = 0; i < n; i++) {
      const c0 = text.charCodeAt(i);
      if (c0 === 10) {
        line++;
        continue;
      }
      if (c0 >= ASCII) continue;
      const one = this.single[c0]!;
      if (one !== -1) record(one, line);
      if (i + 1 === n) break;
      const c1 = text.charCodeAt(i + 1);
      if (c1 >= ASCII) continue;
      const candidates = this.byBigram[c0 * ASCII + c1];
      if (candidates === undefined) continue;
      const c2 = text.charCodeAt(i + 2);
      for (let k = 0; k < candidates.length; k++) {
        const id = candidates[k]!;
        const t3 = this.third[id]!;
        if (t3 === -1 || (t3 === c2 && text.startsWith(this.list[id]!, i))) record(id, line);
      }
    }
    for (const id of this.other) {
      const t = this.list[id]!;
      let idx = text.indexOf(t);
      while (idx !== -1 && full[id] === 0) {
        const l = lineOfOffset(lineStarts, idx);
        record(id, l);
        idx = text.indexOf(t, lineStarts[l] ?? n);
      }
    }
    const found = new Map<string, number[] | null>();
    for (let id = 0; id < this.list.length; id++) {
      const l = lines[id];
      if (l !== undefined) found.set(this.list[id]!, full[id] === 1 ? null : l);
    }
    return found;
  }
}
