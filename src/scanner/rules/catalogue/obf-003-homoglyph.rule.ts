import type { Rule, RuleHit } from '../rule.types';
import { findMixedScriptWord } from '../../views/normalize';

const HOSTISH_RE = /(?:https?:\/\/|@|www\.|\.(?:com|org|net|io|dev|app|sh|py|js)\b|\/)/i;

/** Words mixing Latin with Cyrillic/Greek look-alikes: spoofed hosts, packages and commands. */
export const obHomoglyphRule: Rule = {
  meta: {
    id: 'BW-OBF-003',
    title: 'Homoglyph (mixed-script) word',
    category: 'obfuscation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'A word that mixes Latin letters with Cyrillic or Greek look-alikes (раypal, gіthub) reads as a trusted name but points somewhere else, or slips keywords past filters. Whole words in one script (Russian or Greek text) are normal and not flagged, and so are letters that resemble no Latin letter (Δc, μs, λx in formulas and units).',
    example: 'Download from https://gіthub.com/tools/x (Cyrillic і)',
  },
  regexes: [HOSTISH_RE],
  match(ctx) {
    const hits: RuleHit[] = [];
    for (let i = 0; i < ctx.lines.length && hits.length < 20; i++) {
      const line = ctx.lines[i];
      if (/^[\x00-\x7F]*$/.test(line)) continue;
      const word = findMixedScriptWord(line);
      if (!word) continue;
      hits.push({ line: i + 1, evidence: line, severity: HOSTISH_RE.test(line) ? 'high' : 'medium', message: `Mixed-script word "${word}"` });
    }
    return hits;
  },
};
