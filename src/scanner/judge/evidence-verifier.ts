import type { JudgeFinding } from '../engine/scan-report.types';
import type { RenderedLine } from './content-renderer';
import { parseLocator, samePath } from './locator';

/** Lines either side of the cited line in which the quote may be found (docs/decisions/0022-scanner-scoring-and-judge-authority.md: ±2). */
export const EVIDENCE_WINDOW = 2;
const MAX_EVIDENCE = 300;
const MIN_FRAGMENT = 8;

/**
 * Normalisation applied to both the quote and the file before comparison: Unicode NFKC, the
 * renderer's visibility markers and invisible characters removed, typographic quotes and dashes
 * folded, whitespace collapsed, case folded. Models reformat quotes in these ways; none of them
 * lets a quote that is not in the file pass.
 */
export function normaliseForMatch(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/⟦U\+[0-9A-F]{4,6}⟧/g, '')
    .replace(/⟦(?:hidden-tags|variation-selectors:\d+ decoded):("(?:[^"\\]|\\.)*")⟧/g, (_, json: string) => {
      try {
        return JSON.parse(json) as string;
      } catch {
        return json;
      }
    })
    .replace(/[\p{Cf}\p{Cc}]/gu, ' ')
    .replace(/[\u2018\u2019\u201A\u2032`]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Strips what models add around a quote: `Lnn:` prefixes, wrapping quotes or backticks. */
function cleanQuote(evidence: string): string {
  const unquoted = evidence.trim().replace(/^(["'`])([\s\S]*)\1$/, '$2');
  return unquoted
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*L\d+(?: \[\d+\/\d+\])?:\s?/, ''))
    .join('\n')
    .trim();
}

/** The text a quote may come from: the cited line ±2, as display, plain text and annotations. */
function windowTexts(lines: readonly RenderedLine[], line: number): string[] {
  const from = Math.max(1, line - EVIDENCE_WINDOW);
  const to = Math.min(lines.length, line + EVIDENCE_WINDOW);
  const slice = lines.slice(from - 1, to);
  return [
    slice.map((l) => l.display).join(' '),
    slice.map((l) => l.search).join(' '),
    ...slice.flatMap((l) => l.annotations.map((a) => a.replace(/^↳ decoded base64: /, ''))),
  ].map(normaliseForMatch);
}

/**
 * Keeps a finding only if its locator names this file and a line that exists, and its evidence
 * (each `…`-separated fragment, in order) occurs within the cited line ±2 after normalisation.
 * Returns the finding with a canonical `path:line` locator and the cleaned quote.
 */
export function verifyFinding(finding: JudgeFinding, path: string, lines: readonly RenderedLine[]): JudgeFinding | null {
  const loc = parseLocator(finding.locator);
  if (!loc || !samePath(loc.path, path) || loc.line > lines.length) return null;
  const quote = cleanQuote(finding.evidence);
  const fragments = quote
    .split(/\.{3,}|…/)
    .map(normaliseForMatch)
    .filter((f) => f.length > 0);
  if (fragments.length === 0) return null;
  const texts = windowTexts(lines, loc.line);
  const cited = normaliseForMatch(lines[loc.line - 1].search || lines[loc.line - 1].display);
  // A quote must be specific: short fragments like "the" are found anywhere.
  const minLen = Math.min(MIN_FRAGMENT, Math.max(1, cited.length));
  if (Math.max(...fragments.map((f) => f.length)) < minLen) return null;
  const found = texts.some((text) => {
    let from = 0;
    for (const f of fragments) {
      const at = text.indexOf(f, from);
      if (at < 0) return false;
      from = at + f.length;
    }
    return true;
  });
  if (!found) return null;
  return { ...finding, locator: `${path}:${loc.line}`, evidence: quote.slice(0, MAX_EVIDENCE) };
}
