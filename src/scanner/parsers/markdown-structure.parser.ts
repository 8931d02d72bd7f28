/**
 * A bounded, line-based Markdown reader: code fences (with language), YAML frontmatter, headings,
 * blockquotes and tables. It gives each line the structural facts the context/polarity layer needs;
 * it is not a full CommonMark parser and never needs to be.
 */
import { lexiconWords } from '../lexicons/lexicon';

export type SectionKind = 'normal' | 'anti_pattern' | 'education' | 'example';

export interface LineInfo {
  inFence: boolean;
  fenceLang: string | null;
  inFrontmatter: boolean;
  blockquote: boolean;
  table: boolean;
  /** Nearest heading above the line (lower-cased, trimmed), '' before the first heading. */
  heading: string;
  sectionKind: SectionKind;
}

/** Headings of what not to do, in English and the other languages the instruction layer reads. */
const ANTI_PATTERN_HEADING =
  /\b(?:anti[- ]?patterns?|don'?ts|do not|never|avoid|bad (?:examples?|practices?|patterns?)|what not to|forbidden|prohibited|disallowed|not allowed|pitfalls|red flags|dangerous (?:[a-z]{1,12} )?(?:patterns?|commands?)|common mistakes|restrictions|guardrails|safety rules|security rules|unsafe|deny|blocked|limitations|must not|cosa non fare|da non fare|da evitare|vietat[oi]|qu[eé] no hacer|lo que no (?:debes|hay que) hacer|prohibid[oa]s?|o que n[aã]o fazer|proibid[oa]s?|ne pas faire|ne jamais|interdit(?:e|s|es)?|was (?:man )?nicht (?:zu )?tun|nicht tun|zu vermeiden|verboten|wat niet te doen|niet doen|verboden)\b/i;
const EDUCATION_HEADING =
  /\b(?:threats?|attacks?|attack (?:patterns?|vectors?|examples?)|threat model|vulnerabilit(?:y|ies)|detection|detect(?:s|ing)?|indicators?|signatures?|(?:security|injection|exfiltration) (?:examples?|patterns?|risks?|categories|checks?)|what (?:we|it|this) (?:detects?|flags?|catches|looks? for)|malicious (?:patterns?|examples?)|known (?:attacks?|techniques)|severity|findings?|rules? reference|test cases?|how (?:attacks?|it) works)\b/i;
const EXAMPLE_HEADING = /\b(?:examples?|samples?|illustrations?|demo)\b/i;
/** A label line before a code block that marks it as the wrong way ("❌ BAD:", "**Don't:**", "Avoid:"). */
const BAD_EXAMPLE_LABEL =
  /^(?:[-*+>]\s{1,3})?(?:\*\*|__)?\s{0,2}(?:(?:❌|🚫|⛔|✗|✘)[^\n]{0,60}|(?:bad|wrong|incorrect|avoid|unsafe|insecure|vulnerable|(?:don'?t|do not|never)(?!\s{1,3}(?:forget|skip|miss|hesitate|omit|neglect|leave out)\b))\b[^\n:]{0,40}:\s{0,2}(?:\*\*|__)?)$/i;
/** The first line of a code block written as such a label in a comment (`# ❌ BAD`, `// Don't do this`). */
const BAD_EXAMPLE_COMMENT =
  /^\s{0,8}(?:#|\/\/|--|\/\*|<!--)\s{0,3}(?:❌|🚫|⛔|(?:bad|wrong|incorrect|don'?t|do not|never|avoid|insecure|unsafe|vulnerable)\b)/i;

/** How far up a code block its opening line is looked for: many hits in one long block stay linear. */
const FENCE_OPENER_REACH = 200;

/** The 0-based index of the opening line of the code block holding line `idx` (0-based). */
export function fenceOpener(info: readonly LineInfo[], idx: number): number {
  let k = idx;
  while (k > 0 && idx - k < FENCE_OPENER_REACH && info[k - 1]?.inFence) k--;
  return k;
}

/** The code block opening at line `i` (0-based) is shown as the wrong way: by the label line before it or its first line. */
export function badExampleBlock(lines: readonly string[], i: number): boolean {
  for (let k = i - 1; k >= 0 && k >= i - 2; k--) {
    const prev = lines[k].trim();
    if (prev === '') continue;
    if (BAD_EXAMPLE_LABEL.test(prev.slice(0, 120))) return true;
    break;
  }
  return i + 1 < lines.length && BAD_EXAMPLE_COMMENT.test(lines[i + 1].slice(0, 120));
}

/** A negation and the word after it ("Never skip", "Don't forget"): an urging verb turns the heading into an order. */
const NEGATED_WORD = /\b(?:never|do not|don'?t|must not)\s{1,3}([a-z]{2,20})\b/i;

export function classifyHeading(heading: string): SectionKind {
  // "Never skip these steps", "Don't forget": the steps under it are ordered, not forbidden.
  const negated = NEGATED_WORD.exec(heading);
  const urged = negated !== null && lexiconWords('urging-verb').has(negated[1].toLowerCase());
  if (!urged && ANTI_PATTERN_HEADING.test(heading)) return 'anti_pattern';
  if (EDUCATION_HEADING.test(heading)) return 'education';
  if (EXAMPLE_HEADING.test(heading)) return 'example';
  return 'normal';
}

export function parseMarkdownStructure(lines: readonly string[]): LineInfo[] {
  const info: LineInfo[] = new Array<LineInfo>(lines.length);
  let inFence = false;
  let fenceMarker = '';
  let fenceLang: string | null = null;
  let inFrontmatter = lines.length > 0 && lines[0].trim() === '---';
  let heading = '';
  let sectionKind: SectionKind = 'normal';
  // The section's own kind while a block labelled as a bad example is open.
  let outerKind: SectionKind | null = null;
  // Heading levels, so a "## Examples" under "# Anti-patterns" keeps the stronger parent kind.
  const stack: { level: number; kind: SectionKind }[] = [];

  // Consecutive lines with the same facts share one object (nothing writes to them): a file is
  // mostly runs of such lines, and an object per line of a 100k-line file was most of what its
  // scan context kept alive.
  let last: LineInfo | null = null;
  const shared = (inFence: boolean, fenceLang: string | null, inFrontmatter: boolean, blockquote: boolean, table: boolean): LineInfo => {
    if (
      !last ||
      last.inFence !== inFence ||
      last.fenceLang !== fenceLang ||
      last.inFrontmatter !== inFrontmatter ||
      last.blockquote !== blockquote ||
      last.table !== table ||
      last.heading !== heading ||
      last.sectionKind !== sectionKind
    )
      last = { inFence, fenceLang, inFrontmatter, blockquote, table, heading, sectionKind };
    return last;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length === 0 && !inFrontmatter) {
      info[i] = shared(inFence, inFence ? fenceLang : null, false, false, false);
      continue;
    }
    const trimmed = line.length > 400 ? line.slice(0, 400).trimStart() : line.trimStart();
    if (inFrontmatter) {
      info[i] = shared(false, null, true, false, false);
      if (i > 0 && (trimmed.startsWith('---') || trimmed.startsWith('...')) && trimmed.trim().length <= 3) inFrontmatter = false;
      continue;
    }
    const fence = /^(`{3,}|~{3,})\s{0,4}([\w+#.-]{0,30})/.exec(trimmed);
    if (fence) {
      if (!inFence) {
        inFence = true;
        fenceMarker = fence[1][0];
        fenceLang = fence[2] ? fence[2].toLowerCase() : null;
        // A block labelled as the wrong way is an anti-pattern, whatever section it stands in.
        if (badExampleBlock(lines, i)) {
          outerKind = sectionKind;
          sectionKind = 'anti_pattern';
        }
        info[i] = shared(true, fenceLang, false, false, false);
        continue;
      }
      if (fence[1][0] === fenceMarker && fence[2] === '') {
        info[i] = shared(true, fenceLang, false, false, false);
        inFence = false;
        fenceLang = null;
        if (outerKind !== null) {
          sectionKind = outerKind;
          outerKind = null;
        }
        continue;
      }
    }
    if (!inFence) {
      const h = /^(#{1,6})\s+(.{0,200})/.exec(trimmed);
      if (h) {
        const level = h[1].length;
        heading = h[2].trim().toLowerCase();
        while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
        const own = classifyHeading(heading);
        const parent = stack.length > 0 ? stack[stack.length - 1].kind : 'normal';
        sectionKind = own !== 'normal' ? (parent === 'anti_pattern' || parent === 'education' ? parent : own) : parent;
        stack.push({ level, kind: sectionKind });
      }
    }
    info[i] = shared(inFence, inFence ? fenceLang : null, false, !inFence && trimmed.startsWith('>'), !inFence && trimmed.startsWith('|'));
  }
  return info;
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const MARKDOWN_REGEXES: readonly RegExp[] = [
  NEGATED_WORD,
  ANTI_PATTERN_HEADING,
  EDUCATION_HEADING,
  EXAMPLE_HEADING,
  BAD_EXAMPLE_LABEL,
  BAD_EXAMPLE_COMMENT,
];
