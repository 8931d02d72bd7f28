import { redactSecretLines } from './secret-redactor';

/**
 * Turns a decoded file into what the judge sees: one entry per line, invisible or smuggled text
 * made visible, secrets redacted, and decoded base64 shown as an annotation under its line.
 */
export interface RenderedLine {
  /** 1-based line number in the file. */
  n: number;
  /** Visible rendering sent to the judge (after `Lnn: `). */
  display: string;
  /** Plain text for evidence matching: hidden text inlined, invisible characters removed. */
  search: string;
  /** Extra lines shown indented below the line (decoded payloads), already rendered and redacted. */
  annotations: string[];
}

export interface RenderedFile {
  lines: RenderedLine[];
  redactions: number;
}

const TAG_START = 0xe0000;
const TAG_END = 0xe007f;
const isTag = (cp: number) => cp >= TAG_START && cp <= TAG_END;
const isVariationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** Invisible / control / format / line-separator characters that a human reader would not see. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

function printableRatio(s: string): number {
  if (!s.length) return 0;
  let ok = 0;
  for (const ch of s) if (/[\p{L}\p{N}\p{P}\p{S}\p{Zs}\t\n]/u.test(ch)) ok++;
  return ok / [...s].length;
}

/** Variation-selector smuggling encodes one byte per selector (VS1-16 → 0-15, VS17-256 → 16-255). */
function decodeVariationSelectors(cps: number[]): string | null {
  const bytes = cps.map((cp) => (cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16));
  const text = Buffer.from(bytes).toString('utf8');
  return printableRatio(text) > 0.9 ? text : null;
}

/** Renders one line; returns the visible display and the plain search text. */
export function renderHidden(line: string): { display: string; search: string } {
  // Fast path: plain printable ASCII has nothing hidden (most lines of most files).
  if (/^[\x20-\x7e\t]*$/.test(line)) return { display: line, search: line };
  const cps = Array.from(line, (ch) => ch.codePointAt(0) as number);
  let display = '';
  let search = '';
  for (let i = 0; i < cps.length;) {
    const cp = cps[i];
    if (isTag(cp)) {
      let j = i;
      let decoded = '';
      while (j < cps.length && isTag(cps[j])) {
        if (cps[j] >= 0xe0020 && cps[j] <= 0xe007e) decoded += String.fromCharCode(cps[j] - TAG_START);
        j++;
      }
      display += `⟦hidden-tags:${JSON.stringify(decoded)}⟧`;
      search += decoded;
      i = j;
      continue;
    }
    if (isVariationSelector(cp)) {
      let j = i;
      while (j < cps.length && isVariationSelector(cps[j])) j++;
      const run = cps.slice(i, j);
      // A single selector after a symbol is ordinary emoji presentation, not hidden content.
      if (run.length === 1 && cp <= 0xfe0f) {
        display += String.fromCodePoint(cp);
      } else {
        const decoded = decodeVariationSelectors(run);
        display += decoded === null ? `⟦variation-selectors:${run.length}⟧` : `⟦variation-selectors:${run.length} decoded:${JSON.stringify(decoded)}⟧`;
        if (decoded !== null) search += decoded;
      }
      i = j;
      continue;
    }
    const ch = String.fromCodePoint(cp);
    if (cp !== 0x09 && INVISIBLE.test(ch)) {
      // A zero-width joiner between two pictographs builds one emoji (a documented benign case).
      const prev = i > 0 ? String.fromCodePoint(cps[i - 1]) : '';
      const next = i + 1 < cps.length ? String.fromCodePoint(cps[i + 1]) : '';
      if (cp === 0x200d && PICTOGRAPHIC.test(prev) && PICTOGRAPHIC.test(next)) {
        display += ch;
      } else {
        display += `⟦${hex(cp)}⟧`;
      }
      i++;
      continue;
    }
    display += ch;
    search += ch;
    i++;
  }
  return { display, search };
}

const BASE64_RUN = /(?:[A-Za-z0-9+/]{4}){10,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?|(?:[A-Za-z0-9_-]{4}){10,}/g;

/** Base64 runs (≥ 40 chars) on a line that decode to readable text. */
export function decodeBase64Runs(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(BASE64_RUN)) {
    const run = m[0];
    // Hex digests and long identifiers are not payloads.
    if (/^[0-9a-fA-F]+$/.test(run) || (!/[0-9+/_-]/.test(run) && !(/[a-z]/.test(run) && /[A-Z]/.test(run)))) continue;
    const text = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (text.length >= 8 && printableRatio(text) > 0.95) out.push(text);
    if (out.length >= 3) break;
  }
  return out;
}

const MAX_ANNOTATION_CHARS = 500;

/** Splits, renders and redacts a file for the judge. Line count equals the file's. */
export function renderFile(text: string): RenderedFile {
  const raw = text.split(/\r?\n/);
  const rendered = raw.map(renderHidden);
  const displayRed = redactSecretLines(rendered.map((r) => r.display));
  const searchRed = redactSecretLines(rendered.map((r) => r.search));
  let redactions = displayRed.count;
  const lines: RenderedLine[] = rendered.map((_, idx) => {
    const annotations: string[] = [];
    for (const decoded of decodeBase64Runs(searchRed.lines[idx])) {
      const shown = decoded.split(/\r?\n/).join(' ⏎ ').slice(0, MAX_ANNOTATION_CHARS);
      const { display } = renderHidden(shown);
      const red = redactSecretLines([display]);
      redactions += red.count;
      annotations.push(`↳ decoded base64: ${JSON.stringify(red.lines[0])}`);
    }
    return { n: idx + 1, display: displayRed.lines[idx], search: searchRed.lines[idx], annotations };
  });
  return { lines, redactions };
}
