import type { RenderedLine } from './content-renderer';

/** One piece of a line as shown to the judge; long lines are cut into several pieces. */
export interface LineUnit {
  n: number;
  display: string;
  annotations: string[];
  /** 1-based piece index and count when the line was cut; absent for whole lines. */
  piece?: { index: number; count: number };
}

export interface Chunk {
  /** 0-based. */
  index: number;
  count: number;
  firstLine: number;
  lastLine: number;
  units: LineUnit[];
}

export interface ChunkOptions {
  /** Budget for one request's file text, in characters of the `Lnn:` block. */
  maxChars: number;
  /** Lines repeated from the end of the previous chunk, so a risk across the cut is seen whole. */
  overlapLines: number;
}

const unitText = (u: LineUnit) => {
  const prefix = u.piece ? `L${u.n} [${u.piece.index}/${u.piece.count}]: ` : `L${u.n}: `;
  return [prefix + u.display, ...u.annotations.map((a) => `      ${a}`)].join('\n');
};
const unitSize = (u: LineUnit) => unitText(u).length + 1;

/** Formats units as the numbered block placed between the delimiters. */
export function formatUnits(units: readonly LineUnit[]): string {
  return units.map(unitText).join('\n');
}

/** Cuts lines longer than a piece budget into pieces; everything is kept, nothing is dropped. */
function toUnits(lines: readonly RenderedLine[], pieceChars: number): LineUnit[] {
  const units: LineUnit[] = [];
  for (const l of lines) {
    const chars = Array.from(l.display);
    if (chars.length <= pieceChars) {
      units.push({ n: l.n, display: l.display, annotations: l.annotations });
      continue;
    }
    const count = Math.ceil(chars.length / pieceChars);
    for (let i = 0; i < count; i++) {
      units.push({
        n: l.n,
        display: chars.slice(i * pieceChars, (i + 1) * pieceChars).join(''),
        annotations: i === count - 1 ? l.annotations : [],
        piece: { index: i + 1, count },
      });
    }
  }
  return units;
}

/**
 * Splits a rendered file into chunks of at most `maxChars` (a single unit may exceed it only by
 * its annotations), repeating up to `overlapLines` units (at most a quarter of the budget) from
 * the previous chunk. Every line appears in at least one chunk: large files are never truncated.
 */
export function chunkLines(lines: readonly RenderedLine[], opts: ChunkOptions): Chunk[] {
  const pieceChars = Math.max(200, Math.floor(opts.maxChars / 2));
  const units = toUnits(lines, pieceChars);
  const groups: LineUnit[][] = [];
  let start = 0;
  while (start < units.length) {
    let size = 0;
    let end = start;
    while (end < units.length && (end === start || size + unitSize(units[end]) <= opts.maxChars)) {
      size += unitSize(units[end]);
      end++;
    }
    groups.push(units.slice(start, end));
    if (end >= units.length) break;
    // Step back for overlap, but always make progress.
    let back = 0;
    let backSize = 0;
    while (back < opts.overlapLines && end - back - 1 > start) {
      const s = unitSize(units[end - back - 1]);
      if (backSize + s > opts.maxChars / 4) break;
      backSize += s;
      back++;
    }
    start = end - back;
  }
  return groups.map((units, index) => ({
    index,
    count: groups.length,
    firstLine: units[0]?.n ?? 1,
    lastLine: units[units.length - 1]?.n ?? 1,
    units,
  }));
}
