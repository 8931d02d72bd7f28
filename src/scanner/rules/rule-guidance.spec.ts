import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RISK_CATEGORIES } from '../engine/scan-report.types';
import { ALL_RULES } from './presets';
import { CATEGORY_GUIDANCE, guidanceFor, headingAnchor } from './rule-guidance';

/** The anchors GitHub gives the headings of docs/rules.md. */
const docAnchors = new Set(
  readFileSync(join(__dirname, '..', '..', '..', 'docs', 'rules.md'), 'utf8')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => `#${headingAnchor(l.replace(/^#+ /, ''))}`),
);

describe('rule guidance', () => {
  it('every catalogue rule links to its own section of docs/rules.md, with its rationale and its category fix', () => {
    for (const { meta } of ALL_RULES) {
      const g = guidanceFor(meta.id, { message: 'unused', category: 'other' });
      expect([g.anchor, docAnchors.has(g.anchor)]).toEqual([`#${meta.id.toLowerCase()}`, true]);
      expect(g).toMatchObject({ title: meta.title, why: meta.rationale, fix: CATEGORY_GUIDANCE[meta.category].fix, category: meta.category });
    }
  });

  it('judge and engine findings link to their category section, which exists for every category', () => {
    for (const c of RISK_CATEGORIES) {
      const judge = guidanceFor(`judge/${c}`, { message: 'm', category: 'other' });
      expect([judge.anchor, docAnchors.has(judge.anchor), judge.category, judge.fix]).toEqual([`#category-${c}`, true, c, CATEGORY_GUIDANCE[c].fix]);
    }
    const engine = guidanceFor('bundle.nested-archive', { message: 'Ships a nested archive', category: 'obfuscation' });
    expect(engine).toMatchObject({ title: 'Ships a nested archive', anchor: '#category-obfuscation', why: CATEGORY_GUIDANCE.obfuscation.risk });
    // An unknown judge category (a newer server) falls back to the finding's own category.
    expect(guidanceFor('judge/new_kind', { message: 'm', category: 'deception' }).anchor).toBe('#category-deception');
  });

  it('computes GitHub heading anchors', () => {
    expect(headingAnchor('BW-RCE-001')).toBe('bw-rce-001');
    expect(headingAnchor('Category: data_exfiltration')).toBe('category-data_exfiltration');
    expect(headingAnchor('Exit codes and the gates')).toBe('exit-codes-and-the-gates');
  });
});
