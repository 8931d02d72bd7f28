/**
 * Builds the four line-preserving views of a file. Decoding recurses MAX_DEPTH levels deep (e.g.
 * base64 inside URL-encoding inside an HTML comment). Every decoder's output is no longer than its
 * input, so decoding is linear; its budget, a multiple of the input, only bounds a decoder bug and
 * is never a way for a file to push a payload past the decoded view.
 */
import { decodeLine, mentionsRot13 } from './decoders';
import { extractHiddenPieces, type HiddenScanState } from './hidden-text';
import { computeLineStarts } from './line-index';
import { normalizeLine } from './normalize';
import type { SegmentSource, TextView, ViewName } from './view.types';

const MAX_DEPTH = 3;
/** Decoded output allowed per character of input: a full decode per depth level, line breaks shown as ` ⏎ `. */
const DECODED_PER_INPUT_CHAR = 3 * MAX_DEPTH;

function makeView(name: ViewName, lines: string[], sources: Map<number, SegmentSource>): TextView {
  const text = lines.join('\n');
  return { name, text, lineStarts: computeLineStarts(text), sources };
}

export interface FileViews {
  raw: TextView;
  /** Lines changed by normalisation (unchanged lines are empty: read `raw` for those). */
  normalized: TextView | null;
  /** Prose lines joined with their continuation line, so hard-wrapped sentences still match. */
  joined: TextView | null;
  hidden: TextView | null;
  decoded: TextView | null;
  /** Per decoded line, the encoded text it came from (for evidence). */
  decodedFrom: Map<number, string>;
  /** Decoding stopped at its budget: the analyzer reports the file as not fully analysed. */
  decodeBudgetSpent: boolean;
}

export interface BuildViewOptions {
  /** JSON string escapes (`\"`, `\\`, `\n`) are undone in the normalised view so patterns see commands as written. */
  jsonEscapes: boolean;
  /** Markdown: build the joined view for hard-wrapped prose. */
  prose?: boolean;
}

const BLOCK_START = /^\s{0,3}(?:[-*+]\s|\d{1,3}[.)]\s|#{1,6}\s|\||>|```|~~~|<!--|---\s*$)/;

/** Characters of each side a join keeps: a long line is joined by its end, never skipped. */
const JOIN_WINDOW = 2000;

function buildJoined(lines: readonly string[]): TextView | null {
  let out: string[] | null = null;
  let boundaries: Int32Array | null = null;
  let inFence = false;
  for (let i = 0; i < lines.length - 1; i++) {
    const cur = lines[i];
    if (cur.length === 0) continue;
    if (/^\s{0,3}(?:```|~~~)/.test(cur)) inFence = !inFence;
    if (inFence || cur.trim() === '') continue;
    const next = lines[i + 1];
    if (next.trim() === '' || BLOCK_START.test(next)) continue;
    const head = normalizeLine(cur.length > JOIN_WINDOW ? cur.slice(-JOIN_WINDOW) : cur).trimEnd();
    out ??= new Array<string>(lines.length).fill('');
    boundaries ??= new Int32Array(lines.length);
    out[i] = `${head} ${normalizeLine(next.length > JOIN_WINDOW ? next.slice(0, JOIN_WINDOW) : next).trim()}`;
    boundaries[i] = head.length;
  }
  if (!out || !boundaries) return null;
  const view = makeView('joined', out, new Map());
  view.boundaries = boundaries;
  return view;
}

/** Per-line text of a view that most lines leave empty: the array is allocated at the first entry. */
class SparseLines {
  private lines: string[] | null = null;
  constructor(private readonly count: number) {}
  set(i: number, text: string): void {
    this.lines ??= new Array<string>(this.count).fill('');
    this.lines[i] = text;
  }
  get(i: number): string {
    return this.lines?.[i] ?? '';
  }
  /** All lines, or null when nothing was set. */
  all(): string[] | null {
    return this.lines;
  }
}

function unescapeJsonLine(line: string): string {
  return line.includes('\\') ? line.replace(/\\(["\\/])/g, '$1').replace(/\\[nrt]/g, ' ') : line;
}

export function buildViews(text: string, rawLines: string[], opts: BuildViewOptions = { jsonEscapes: false }): FileViews {
  const raw: TextView = { name: 'raw', text, lineStarts: computeLineStarts(text), sources: new Map() };

  // Only lines that normalisation changed are kept: the raw view already covers the others, so
  // one accented word does not make every rule scan the whole file twice.
  const normLines = new SparseLines(rawLines.length);
  for (let i = 0; i < rawLines.length; i++) {
    const line = rawLines[i];
    const n = normalizeLine(opts.jsonEscapes ? unescapeJsonLine(line) : line);
    if (n !== line) normLines.set(i, n);
  }

  const hiddenLines = new SparseLines(rawLines.length);
  let hiddenChars = 0;
  const hiddenSources = new Map<number, SegmentSource>();
  const state: HiddenScanState = { inComment: false };
  for (let i = 0; i < rawLines.length; i++) {
    const line = rawLines[i];
    if (line.length === 0 && !state.inComment) continue;
    const pieces = extractHiddenPieces(line, state);
    if (pieces.length === 0) continue;
    const hidden = pieces.map((p) => normalizeLine(p.text)).join(' ¦ ');
    hiddenLines.set(i, hidden);
    hiddenChars += hidden.length;
    // Invisible encodings outrank comments when both appear on one line.
    const rank = (s: SegmentSource): number => (s === 'tag_chars' || s === 'variation_selectors' || s === 'zero_width' ? 2 : 1);
    hiddenSources.set(
      i + 1,
      pieces.reduce((a, p) => (rank(p.source) > rank(a) ? p.source : a), pieces[0].source),
    );
  }

  const rot13 = mentionsRot13(text);
  const decodedLines = new SparseLines(rawLines.length);
  const decodedSources = new Map<number, SegmentSource>();
  const decodedFrom = new Map<number, string>();
  let budget = DECODED_PER_INPUT_CHAR * (text.length + hiddenChars) + 1024;
  const decodeOptions = { rot13 };
  for (let i = 0; i < rawLines.length && budget > 0; i++) {
    const hidden = hiddenLines.get(i);
    // Nothing shorter than 4 characters decodes to text (fast path for blank-line floods).
    if (rawLines[i].length < 4 && !hidden) continue;
    // Most lines hold nothing encoded: they are decoded once, with nothing allocated for the levels below.
    const own = decodeLine(rawLines[i], decodeOptions);
    if (own.length === 0 && !hidden) continue;
    const inputs = [rawLines[i]];
    if (hidden) inputs.push(hidden);
    const parts: string[] = [];
    let firstSource: SegmentSource | null = null;
    let firstEncoded = '';
    let frontier = inputs;
    for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0 && budget > 0; depth++) {
      const next: string[] = [];
      for (let k = 0; k < frontier.length; k++) {
        for (const piece of depth === 0 && k === 0 ? own : decodeLine(frontier[k], decodeOptions)) {
          if (budget <= 0) break;
          budget -= piece.text.length;
          parts.push(normalizeLine(piece.text));
          next.push(piece.text);
          if (!firstSource) {
            firstSource = piece.source;
            firstEncoded = piece.encoded;
          }
        }
      }
      frontier = next;
    }
    if (parts.length > 0 && firstSource) {
      decodedLines.set(i, parts.join(' ¦ '));
      decodedSources.set(i + 1, firstSource);
      decodedFrom.set(i + 1, firstEncoded);
    }
  }

  const view = (name: ViewName, lines: SparseLines, sources: Map<number, SegmentSource>): TextView | null => {
    const all = lines.all();
    return all ? makeView(name, all, sources) : null;
  };
  return {
    raw,
    normalized: view('normalized', normLines, new Map()),
    joined: opts.prose ? buildJoined(rawLines) : null,
    hidden: view('hidden', hiddenLines, hiddenSources),
    decoded: view('decoded', decodedLines, decodedSources),
    decodedFrom,
    decodeBudgetSpent: budget <= 0,
  };
}
