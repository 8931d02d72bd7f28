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
  /** First two characters (c0 * 128 + c1) → triggers of length ≥ 2 starting with them. */
  private readonly byBigram: (string[] | undefined)[] = new Array<string[] | undefined>(ASCII * ASCII);
  /** One-character triggers by character code. */
  private readonly single: boolean[] = new Array<boolean>(ASCII).fill(false);
  /** Triggers that do not start with ASCII characters. */
  private readonly other: string[] = [];
  readonly triggers: ReadonlySet<string>;

  constructor(triggers: Iterable<string>) {
    const all = new Set<string>();
    for (const t of triggers) {
      if (t.length === 0 || all.has(t)) continue;
      all.add(t);
      const c0 = t.charCodeAt(0);
      if (t.length === 1 && c0 < ASCII) {
        this.single[c0] = true;
        continue;
      }
      const c1 = t.charCodeAt(1);
      if (c0 >= ASCII || c1 >= ASCII) {
        this.other.push(t);
        continue;
      }
      (this.byBigram[c0 * ASCII + c1] ??= []).push(t);
    }
    this.triggers = all;
  }

  /**
   * For every trigger found in `text`: its distinct 1-based lines in ascending order, or null once
   * it is on more than `maxLines` lines. Triggers absent from the text are absent from the map.
   */
  linesIn(text: string, lineStarts: readonly number[], maxLines: number): Map<string, number[] | null> {
    const found = new Map<string, number[] | null>();
    const record = (trigger: string, line: number) => {
      let lines = found.get(trigger);
      if (lines === null) return;
      if (lines === undefined) found.set(trigger, (lines = []));
      if (lines[lines.length - 1] === line) return;
      lines.push(line);
      if (lines.length > maxLines) found.set(trigger, null);
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
      if (this.single[c0]) record(String.fromCharCode(c0), line);
      if (i + 1 === n) break;
      const c1 = text.charCodeAt(i + 1);
      if (c1 >= ASCII) continue;
      const candidates = this.byBigram[c0 * ASCII + c1];
      if (candidates === undefined) continue;
      for (const t of candidates) if (text.startsWith(t, i)) record(t, line);
    }
    for (const t of this.other) {
      let idx = text.indexOf(t);
      while (idx !== -1) {
        const l = lineOfOffset(lineStarts, idx);
        record(t, l);
        if (found.get(t) === null) break;
        idx = text.indexOf(t, lineStarts[l] ?? n);
      }
    }
    return found;
  }
}
