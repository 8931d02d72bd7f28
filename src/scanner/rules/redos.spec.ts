import { RegExpParser } from '@eslint-community/regexpp';
import { check } from 'recheck';
import { analyse } from 'scslre';
import { CODE_DECODE_REGEXES } from '../code/code-decode';
import { CODE_IDIOM_REGEXES } from '../code/code-idioms';
import { CODE_EFFECT_REGEXES } from '../code/code-effects';
import { CODE_FACT_REGEXES } from '../code/code-facts';
import { CODE_UNIT_REGEXES } from '../code/code-units';
import { SECRET_FORMAT_REGEXES } from '../engine/secret-formats';
import { MARKDOWN_REGEXES } from '../parsers/markdown-structure.parser';
import { MCP_SCHEMA_REGEXES } from '../parsers/mcp-tool-schema.parser';
import { DECODER_REGEXES } from '../views/decoders';
import { HIDDEN_TEXT_REGEXES } from '../views/hidden-text';
import { NORMALIZE_REGEXES } from '../views/normalize';
import { CONTEXT_REGEXES } from './context-layer';
import { RUNNABLE_BLOCK_REGEXES } from './runnable-block';
import { MCP_SURFACE_REGEXES } from './mcp-surface';
import { MCP_TOOL_FLOW_REGEXES } from './mcp-tool-flow';
import { BENIGN_FORM_REGEXES } from './benign-forms';
import { CREDENTIAL_VENDOR_REGEXES } from './credential-vendors';
import { OFFICIAL_INSTALLER_REGEXES } from './official-installers';
import { INTENT_EVIDENCE_REGEXES } from './intent-evidence';
import { PATTERN_LITERAL_REGEXES } from './pattern-literals';
import { SUPPLY_CHAIN_REGEXES } from './supply-chain-lexicon';
import { ALL_RULES } from './presets';
import { WRITTEN_SETTINGS_REGEXES } from './written-settings';
import { PRIVILEGE_KIND_REGEXES } from './catalogue/priv-003-container-host.rule';
import { HARDCODED_CREDENTIAL_REGEXES } from './catalogue/sec-003-hardcoded-credential.rule';
import { OWN_TABLE_REGEXES } from './catalogue/des-002-destructive-data.rule';
import { PROFILE_EXPORT_REGEXES } from './catalogue/priv-004-persistence.rule';

/**
 * Every regex the engine runs goes through two checks. scslre (the analyser behind ESLint's
 * regexp/no-super-linear-* rules, which check the literal regexes of src/) proves that no run is
 * re-scanned from each start position and that no two quantifiers share a run: the polynomial
 * cases, such as the padding pattern that made 256 KB of tabs take 76 s. recheck looks for
 * exponential backtracking. Patterns are line-bounded with bounded
 * quantifiers, so recheck's fuzzer may report a *polynomial* degree in those bounds (work per
 * start position is capped by the bounds, linear in input length; bench/scanner-static.bench.ts
 * measures the adversarial worst case). What must never appear is an *exponential* pattern.
 */
const ALL: { owner: string; re: RegExp }[] = [
  ...ALL_RULES.flatMap((r) => r.regexes.map((re) => ({ owner: r.meta.id, re }))),
  ...[
    ...HIDDEN_TEXT_REGEXES,
    ...CODE_UNIT_REGEXES,
    ...CODE_FACT_REGEXES,
    ...CODE_EFFECT_REGEXES,
    ...CODE_DECODE_REGEXES,
    ...CODE_IDIOM_REGEXES,
    ...DECODER_REGEXES,
    ...NORMALIZE_REGEXES,
    ...CONTEXT_REGEXES,
    ...WRITTEN_SETTINGS_REGEXES,
    ...RUNNABLE_BLOCK_REGEXES,
    ...SECRET_FORMAT_REGEXES,
    ...MARKDOWN_REGEXES,
    ...MCP_SCHEMA_REGEXES,
    ...MCP_SURFACE_REGEXES,
    ...MCP_TOOL_FLOW_REGEXES,
    ...INTENT_EVIDENCE_REGEXES,
    ...SUPPLY_CHAIN_REGEXES,
    ...BENIGN_FORM_REGEXES,
    ...CREDENTIAL_VENDOR_REGEXES,
    ...PATTERN_LITERAL_REGEXES,
    ...OFFICIAL_INSTALLER_REGEXES,
    ...PRIVILEGE_KIND_REGEXES,
    ...HARDCODED_CREDENTIAL_REGEXES,
    ...OWN_TABLE_REGEXES,
    ...PROFILE_EXPORT_REGEXES,
  ].map((re) => ({ owner: 'engine', re })),
];

/**
 * recheck's default (hybrid) verdict, confirmed by its automaton checker when it says exponential.
 * The fuzz part of the default measures steps against a clock: on a loaded machine it has called a
 * bounded, polynomial pattern exponential. The automaton checker decides exactly where it can
 * analyse the pattern (no lookaround or backreferences); where it cannot, the first verdict stands.
 */
async function backtracksExponentially(source: string, flags: string): Promise<boolean> {
  const d = await check(source, flags, { timeout: 1500 });
  if (d.status !== 'vulnerable' || d.complexity.type !== 'exponential') return false;
  const exact = await check(source, flags, { checker: 'automaton', timeout: 10_000 });
  return !(exact.status === 'safe' || (exact.status === 'vulnerable' && exact.complexity.type !== 'exponential'));
}

describe('ReDoS and super-linear checks (recheck, scslre)', () => {
  it('collects every rule and engine regex', () => {
    expect(ALL.length).toBeGreaterThan(200);
    for (const r of ALL_RULES) expect(Array.isArray(r.regexes)).toBe(true);
  });

  it('finds no exponential-backtracking regex', async () => {
    const exponential: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ALL.length) {
        const { owner, re } = ALL[next++];
        if (await backtracksExponentially(re.source, re.flags.replace('g', ''))) exponential.push(`${owner}: /${re.source.slice(0, 80)}/`);
      }
    };
    await Promise.all([worker(), worker()]);
    expect(exponential).toEqual([]);
  }, 900_000);

  it('finds no super-linear move or backtracking (scslre), rule patterns built at run time included', () => {
    const parser = new RegExpParser({ ecmaVersion: 2025 });
    const superLinear: string[] = [];
    for (const { owner, re } of ALL) {
      // Patterns run on their own, so no rejecting suffix follows them.
      const { reports } = analyse(parser.parseLiteral(`/${re.source}/${re.flags}`), { assumeRejectingSuffix: false });
      for (const r of reports) superLinear.push(`${owner}: ${r.type} in /${re.source.slice(0, 80)}/`);
    }
    expect(superLinear).toEqual([]);
  });

  it('scslre flags the quadratic padding pattern and accepts its rewrite (the check is live)', () => {
    const parser = new RegExpParser({ ecmaVersion: 2025 });
    const reportsOf = (src: string): string[] => analyse(parser.parseLiteral(src), { assumeRejectingSuffix: false }).reports.map((r) => r.type);
    expect(reportsOf(String.raw`/[ \t\u00A0]{60,}(\S[^\n]{0,2000})$/`)).toEqual(['Move']);
    expect(reportsOf(String.raw`/(?<![ \t\u00A0])[ \t\u00A0]{60,}(\S[^\n]{0,2000})$/`)).toEqual([]);
    expect(reportsOf(String.raw`/^\s+[\w\s]+=/`)).toEqual(['Trade']);
  });

  it('flags a known catastrophic pattern (the check is live)', async () => {
    const d = await check('^(a+)+$', '');
    expect(d.status).toBe('vulnerable');
    expect(await backtracksExponentially('^(a+)+$', '')).toBe(true);
    expect(await backtracksExponentially('(?=a)(a+)+$', '')).toBe(true);
    // Bounded and polynomial; the fuzz checker once called it exponential on a loaded CI machine.
    expect(await backtracksExponentially(String.raw`\bFromBase64String\([^\n]{0,200}\)[^\n]{0,80}(?:\|\s{0,3}iex|Invoke-Expression)`, '')).toBe(false);
  }, 60_000);
});
