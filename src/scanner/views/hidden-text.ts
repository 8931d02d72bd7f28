/**
 * The hidden reading: text a human reviewer does not see when the file is rendered (HTML comments,
 * hidden HTML elements, image alt text, link titles, text pushed off-screen by padding, Unicode tag
 * characters, variation-selector and zero-width payloads). Line-preserving, like every view.
 */
import type { SegmentSource } from './view.types';

export interface HiddenPiece {
  source: SegmentSource;
  text: string;
}

/** A character outside ASCII (found at the first one). */
const NON_ASCII_RE = /[^\x00-\x7F]/;
const TAG_RUN_RE = /(?:\uDB40[\uDC00-\uDC7F]){2,}/g;
const VS_RUN_RE = /(?:[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]){4,}/g;
// eslint-disable-next-line no-misleading-character-class -- zero-width characters are matched on purpose
const ZW_RUN_RE = /[\u200B\u200C\u200D\u2060\uFEFF]{16,}/g;
// Alt text stops at a `[`, so a run of `![` openers is not re-read from each of them.
const ALT_RE = /!\[([^[\]\n]{3,500})\]\(/g;
const TITLE_RE = /\]\(\s{0,5}[^\s)]{1,2000}\s{1,5}"([^"\n]{3,500})"\s{0,5}\)/g;
const HTML_ATTR_TEXT_RE = /\b(?:alt|title|aria-label|data-[a-z-]{1,30})\s{0,3}=\s{0,3}"([^"\n]{12,500})"/gi;
const HIDDEN_ELEMENT_RE =
  /<([a-z][a-z0-9]{0,10})\b[^>\n]{0,300}?(?:display\s{0,3}:\s{0,3}none|visibility\s{0,3}:\s{0,3}hidden|font-size\s{0,3}:\s{0,3}0(?![.\d])|opacity\s{0,3}:\s{0,3}0(?![.\d])|\shidden(?=[\s>]))[^>\n]{0,300}>([^<\n]{3,2000})/gi;
// The lookbehind starts a match only where a blank run begins, so no run is re-scanned from
// each of its positions (that re-scan made 256 KB of tabs quadratic).
const PADDING_RE = /(?<![ \t\u00A0])[ \t\u00A0]{60,}(\S[^\n]{0,2000})$/;

/**
 * Emoji subdivision flags (🏴 + tag letters/digits + cancel tag, e.g. the flags of England,
 * Scotland and Wales, "gbeng", "gbsct", "gbwls") are the one visible use of tag characters. A valid
 * sequence spells a subdivision code: a two-letter region (or three-digit area) and one to four
 * letters or digits, lower case, closed by U+E007F right after the black flag's tags.
 */
export const EMOJI_TAG_SEQUENCE_RE =
  /\uD83C\uDFF4(?:(?:\uDB40[\uDC61-\uDC7A]){2}|(?:\uDB40[\uDC30-\uDC39]){3})(?:\uDB40[\uDC30-\uDC39\uDC61-\uDC7A]){1,4}\uDB40\uDC7F/g;

/** The text with valid emoji flag tag sequences removed: what remains of the tag block is smuggled text. */
export function withoutEmojiTagSequences(text: string): string {
  return text.includes('\uD83C\uDFF4') ? text.replace(EMOJI_TAG_SEQUENCE_RE, '\uD83C\uDFF4') : text;
}

/** Decode a run of Unicode tag characters (U+E0000 block) to ASCII. */
export function decodeTagChars(run: string): string {
  let out = '';
  for (const ch of run) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xe0020 && cp <= 0xe007e) out += String.fromCharCode(cp - 0xe0000);
  }
  return out;
}

/** Variation selectors as bytes: VS1–16 → 0–15, VS17–256 → 16–255 ("emoji smuggling"). */
export function decodeVariationSelectors(run: string): string {
  const bytes: number[] = [];
  for (const ch of run) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xfe00 && cp <= 0xfe0f) bytes.push(cp - 0xfe00);
    else if (cp >= 0xe0100 && cp <= 0xe01ef) bytes.push(cp - 0xe0100 + 16);
  }
  return printableOrEmpty(Buffer.from(bytes).toString('utf8'));
}

/** Two kinds of zero-width character used as bits (most common = 0), 8 bits per byte. */
export function decodeZeroWidthBits(run: string): string {
  const counts = new Map<string, number>();
  for (const ch of run) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const kinds = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  if (kinds.length < 2) return '';
  // Bytes are packed as the run is read (no per-character arrays): a long run stays linear in time and memory.
  const bitCount = counts.get(kinds[0])! + counts.get(kinds[1])!;
  for (const zero of [kinds[0], kinds[1]]) {
    const bytes = Buffer.alloc(Math.floor(bitCount / 8));
    let bit = 0;
    let byte = 0;
    for (const ch of run) {
      if (ch !== kinds[0] && ch !== kinds[1]) continue;
      byte = (byte << 1) | (ch === zero ? 0 : 1);
      if (++bit % 8 === 0) {
        if (bit / 8 <= bytes.length) bytes[bit / 8 - 1] = byte;
        byte = 0;
      }
    }
    const decoded = printableOrEmpty(bytes.toString('utf8'));
    if (decoded.length > 0) return decoded;
  }
  return '';
}

function printableOrEmpty(text: string): string {
  if (text.length === 0) return '';
  let printable = 0;
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09 || c > 0xa0) printable++;
  }
  return printable / text.length >= 0.85 ? text.replace(/\s+/g, ' ') : '';
}

/** State carried across lines: whether we are inside an HTML comment. */
export interface HiddenScanState {
  inComment: boolean;
}

export function extractHiddenPieces(line: string, state: HiddenScanState): HiddenPiece[] {
  const pieces: HiddenPiece[] = [];
  // HTML comments, possibly spanning lines (most lines hold none: nothing is collected for them).
  if (state.inComment || line.includes('<!--')) {
    let pos = 0;
    const commentText: string[] = [];
    while (pos <= line.length) {
      if (state.inComment) {
        const end = line.indexOf('-->', pos);
        if (end === -1) {
          commentText.push(line.slice(pos));
          break;
        }
        commentText.push(line.slice(pos, end));
        state.inComment = false;
        pos = end + 3;
      } else {
        const start = line.indexOf('<!--', pos);
        if (start === -1) break;
        state.inComment = true;
        pos = start + 4;
      }
    }
    const comment = commentText.join(' ').trim();
    if (comment.length > 0) pieces.push({ source: 'html_comment', text: comment });
  }

  // Tag characters, variation selectors and zero-width characters are all outside ASCII.
  const ascii = !NON_ASCII_RE.test(line);
  if (!ascii && line.includes('\uDB40')) {
    for (const m of withoutEmojiTagSequences(line).matchAll(TAG_RUN_RE)) {
      const decoded = decodeTagChars(m[0]);
      if (decoded.trim().length > 0) pieces.push({ source: 'tag_chars', text: decoded });
    }
  }
  if (!ascii && /[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]/.test(line)) {
    for (const m of line.matchAll(VS_RUN_RE)) {
      const decoded = decodeVariationSelectors(m[0]);
      if (decoded.trim().length > 0) pieces.push({ source: 'variation_selectors', text: decoded });
    }
  }
  if (!ascii && /[\u200B-\u200D\u2060\uFEFF]/.test(line)) {
    for (const m of line.matchAll(ZW_RUN_RE)) {
      const decoded = decodeZeroWidthBits(m[0]);
      if (decoded.trim().length > 0) pieces.push({ source: 'zero_width', text: decoded });
    }
  }
  if (line.includes('![')) {
    for (const m of line.matchAll(ALT_RE)) pieces.push({ source: 'alt_text', text: m[1] });
  }
  if (line.includes('"')) {
    // A link title follows its link target's `](`.
    if (line.includes('](')) for (const m of line.matchAll(TITLE_RE)) pieces.push({ source: 'link_title', text: m[1] });
    if (line.includes('<')) {
      for (const m of line.matchAll(HTML_ATTR_TEXT_RE)) pieces.push({ source: 'link_title', text: m[1] });
    }
  }
  if (line.includes('<')) {
    for (const m of line.matchAll(HIDDEN_ELEMENT_RE)) pieces.push({ source: 'hidden_html', text: m[2] });
  }
  if (line.length > 60) {
    const pad = PADDING_RE.exec(line);
    // Padding only hides text when something visible precedes it (otherwise it is indentation).
    if (pad && pad.index > 0 && line.slice(0, pad.index).trim().length > 0) {
      pieces.push({ source: 'padding', text: pad[1] });
    }
  }
  return pieces;
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const HIDDEN_TEXT_REGEXES: readonly RegExp[] = [
  NON_ASCII_RE,
  EMOJI_TAG_SEQUENCE_RE,
  TAG_RUN_RE,
  VS_RUN_RE,
  ZW_RUN_RE,
  ALT_RE,
  TITLE_RE,
  HTML_ATTR_TEXT_RE,
  HIDDEN_ELEMENT_RE,
  PADDING_RE,
];
