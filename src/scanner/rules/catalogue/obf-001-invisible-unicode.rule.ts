import type { Rule, RuleHit } from '../rule.types';
import { withoutEmojiTagSequences } from '../../views/hidden-text';

const TAG_RE = /\uDB40[\uDC00-\uDC7F]/;
const BIDI_RE = /[\u202A-\u202E\u2066-\u2069]/;
const VS_SUPP_RE = /\uDB40[\uDD00-\uDDEF]/;
const VS_RUN_RE = /[\uFE00-\uFE0F]{3,}/;
/** Zero-width characters between two letters (inside a word), not ZWJ inside emoji sequences. */
const ZW_IN_WORD_RE = /[A-Za-z\u00C0-\u024F\u0400-\u04FF][\u200B\u200C\u2060\uFEFF\u00AD][A-Za-z\u00C0-\u024F\u0400-\u04FF]/;

const RTL_LETTER_RE = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
const BIDI_OPENERS = '\u202A\u202B\u2066\u2067\u2068';

/**
 * Bidi controls used as right-to-left text needs them: embeddings and isolates (never overrides),
 * each closed on its line, each around a run that holds right-to-left letters. Trojan Source
 * reordering uses overrides, or isolates around code with no right-to-left letter in it.
 */
function isRightToLeftMarkup(line: string): boolean {
  // Every pair must hold a right-to-left letter: a line with none has no such markup.
  if (/[\u202D\u202E]/.test(line) || !RTL_LETTER_RE.test(line)) return false;
  // The open marks as positions only (a line of openers is one push each, no object per mark).
  const open: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (BIDI_OPENERS.includes(ch)) open.push(i);
    else if (ch === '\u202C' || ch === '\u2069') {
      const top = open.pop();
      const isolate = top !== undefined && '\u2066\u2067\u2068'.includes(line[top]);
      if (top === undefined || isolate !== (ch === '\u2069')) return false;
      if (!RTL_LETTER_RE.test(line.slice(top + 1, i))) return false;
    }
  }
  return open.length === 0;
}

/** Characters whose only purpose in an agent file is to make text render differently than it reads. */
export const obInvisibleUnicodeRule: Rule = {
  meta: {
    id: 'BW-OBF-001',
    title: 'Invisible or direction-changing Unicode',
    category: 'obfuscation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'hidden_text',
    rationale:
      'Unicode tag characters and variation-selector runs carry text no human sees; bidi overrides make a command display differently from what runs; zero-width characters inside words defeat keyword review. Emoji zero-width joiners, valid emoji subdivision flags (🏴 + a lower-case subdivision code in tag letters + cancel tag) and balanced embeddings or isolates around right-to-left text are not flagged.',
    example: 'rm -rf \u202Etxt.golb/ ~\u202C (renders reversed)',
  },
  regexes: [TAG_RE, BIDI_RE, VS_SUPP_RE, VS_RUN_RE, ZW_IN_WORD_RE],
  match(ctx) {
    const hits: RuleHit[] = [];
    for (let i = 0; i < ctx.lines.length && hits.length < 20; i++) {
      const line = ctx.lines[i];
      if (line.length === 0 || /^[\x00-\x7F]*$/.test(line)) continue;
      const tags = TAG_RE.test(line) && TAG_RE.test(withoutEmojiTagSequences(line));
      if (tags || VS_SUPP_RE.test(line)) {
        hits.push({ line: i + 1, evidence: line, source: tags ? 'tag_chars' : 'variation_selectors', severity: 'critical' });
      } else if (BIDI_RE.test(line) && !isRightToLeftMarkup(line)) {
        hits.push({ line: i + 1, evidence: line, source: 'raw', message: 'Bidirectional override changes how the text renders' });
      } else if (VS_RUN_RE.test(line)) {
        hits.push({ line: i + 1, evidence: line, source: 'variation_selectors' });
      } else if (ZW_IN_WORD_RE.test(line)) {
        // Several zero-width characters inside words is deliberate keyword evasion.
        const count = (line.match(/[\u200B\u200C\u2060\uFEFF\u00AD]/g) ?? []).length;
        hits.push({
          line: i + 1,
          evidence: line,
          source: 'zero_width',
          severity: count >= 3 ? 'high' : 'medium',
          message: 'Zero-width characters split words',
        });
      }
    }
    return hits;
  },
};
