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

function buildJoined(lines: readonly string[]): TextView | null {
  const out: string[] = new Array<string>(lines.length).fill('');
  const boundaries = new Int32Array(lines.length);
  let inFence = false;
  let any = false;
  for (let i = 0; i < lines.length - 1; i++) {
    const cur = lines[i];
    if (cur.length === 0) continue;
    if (/^\s{0,3}(?:```|~~~)/.test(cur)) inFence = !inFence;
    if (inFence || cur.length > 2000 || cur.trim() === '') continue;
    const next = lines[i + 1];
    if (next.trim() === '' || BLOCK_START.test(next) || next.length > 2000) continue;
    const head = normalizeLine(cur).trimEnd();
    out[i] = `${head} ${normalizeLine(next).trim()}`;
    boundaries[i] = head.length;
    any = true;
  }
  if (!any) return null;
  const view = makeView('joined', out, new Map());
  view.boundaries = boundaries;
  return view;
}

function unescapeJsonLine(line: string): string {
  return line.includes('\\') ? line.replace(/\\(["\\/])/g, '$1').replace(/\\[nrt]/g, ' ') : line;
}

export function buildViews(text: string, rawLines: string[], opts: BuildViewOptions = { jsonEscapes: false }): FileViews {
  const raw: TextView = { name: 'raw', text, lineStarts: computeLineStarts(text), sources: new Map() };

  // Only lines that normalisation changed are kept: the raw view already covers the others, so
  // one accented word does not make every rule scan the whole file twice.
  let normalizedChanged = false;
  const normLines = rawLines.map((line) => {
    const n = normalizeLine(opts.jsonEscapes ? unescapeJsonLine(line) : line);
    if (n === line) return '';
    normalizedChanged = true;
    return n;
  });

  const hiddenLines: string[] = new Array<string>(rawLines.length).fill('');
  const hiddenSources = new Map<number, SegmentSource>();
  const state: HiddenScanState = { inComment: false };
  let anyHidden = false;
  for (let i = 0; i < rawLines.length; i++) {
    const line = rawLines[i];
    if (line.length === 0 && !state.inComment) continue;
    const pieces = extractHiddenPieces(line, state);
    if (pieces.length === 0) continue;
    anyHidden = true;
    hiddenLines[i] = pieces.map((p) => normalizeLine(p.text)).join(' ¦ ');
    // Invisible encodings outrank comments when both appear on one line.
    const rank = (s: SegmentSource): number => (s === 'tag_chars' || s === 'variation_selectors' || s === 'zero_width' ? 2 : 1);
    hiddenSources.set(i + 1, pieces.reduce((a, p) => (rank(p.source) > rank(a) ? p.source : a), pieces[0].source));
  }

  const rot13 = mentionsRot13(text);
  const decodedLines: string[] = new Array<string>(rawLines.length).fill('');
  const decodedSources = new Map<number, SegmentSource>();
  const decodedFrom = new Map<number, string>();
  let budget = DECODED_PER_INPUT_CHAR * (text.length + hiddenLines.reduce((n, l) => n + l.length, 0)) + 1024;
  let anyDecoded = false;
  for (let i = 0; i < rawLines.length && budget > 0; i++) {
    // Nothing shorter than 4 characters decodes to text (fast path for blank-line floods).
    if (rawLines[i].length < 4 && !hiddenLines[i]) continue;
    const inputs = [rawLines[i]];
    if (hiddenLines[i]) inputs.push(hiddenLines[i]);
    const parts: string[] = [];
    let firstSource: SegmentSource | null = null;
    let firstEncoded = '';
    let frontier = inputs;
    for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0 && budget > 0; depth++) {
      const next: string[] = [];
      for (const input of frontier) {
        for (const piece of decodeLine(input, { rot13 })) {
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
      anyDecoded = true;
      decodedLines[i] = parts.join(' ¦ ');
      decodedSources.set(i + 1, firstSource);
      decodedFrom.set(i + 1, firstEncoded);
    }
  }

  return {
    raw,
    normalized: normalizedChanged ? makeView('normalized', normLines, new Map()) : null,
    joined: opts.prose ? buildJoined(rawLines) : null,
    hidden: anyHidden ? makeView('hidden', hiddenLines, hiddenSources) : null,
    decoded: anyDecoded ? makeView('decoded', decodedLines, decodedSources) : null,
    decodedFrom,
    decodeBudgetSpent: budget <= 0,
  };
}
