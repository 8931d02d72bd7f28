import type { Rule, RuleHit } from '../rule.types';
import { editDistance } from '../package-lookalike';
import { TABLE_SEPARATOR } from '../../instructions/instructions';
import { POPULAR_PACKAGES } from '../popular-packages';
import { linesHoldingAny, registerTriggers, windowText } from '../regex-rule';
import { KNOWN_NPM_SCOPES, PACKAGE_WORLD, REPLACE_WITH, SUBSTITUTION_CLAIM, USE_INSTEAD_OF } from '../supply-chain-lexicon';

const INSTALL_RE = /\b(?:pip3?|uv\s{1,3}pip|poetry|pipx|npm|pnpm|yarn|bun|gem|cargo|go)\s{1,3}(?:install|add|i|get)\b([^\n;|&#]{1,300})/gi;
const DEP_MENTION_RE =
  /\b(?:dependency|package|library|module)\s{1,3}[`'"]([@\w./-]{2,80})[`'"]|\badd\s{1,3}(?:the\s{1,3})?(?:dependency|package)\s{1,3}[`'"]([@\w./-]{2,80})[`'"]/gi;
const INSECURE_INDEX_RE =
  /--(?:extra-)?index-url[= ]\s{0,3}http:\/\/|--trusted-host\b|\bindex-url\s{0,3}[= ]\s{0,3}["']?http:\/\/|\bregistry\s{0,3}[= ]\s{0,3}["']?http:\/\/|\bstrict-ssl\s{0,3}[= ]\s{0,3}false/i;
const NPM_UPPER_RE = /(?:^|["'\s])(@[a-z0-9-]{0,40}[A-Z][A-Za-z0-9-]{0,40}\/[\w.-]{1,80})/;

/** Where an install command's arguments end in prose: a closing code span, a dash or a parenthesis after a space. */
const INSTALL_ARGS_END_RE = /`|\s[-–—(]\s|\s\(/;
/** Lines that can hold an install command, a dependency mention, an index setting or a swap of one package for another. */
const CHEAP_GATE_RE =
  /install|\badd\b|index-url|trusted-host|registry|strict-ssl|dependenc|package|library|module|@|instead|rather|replace|swap|switch|migrate|move\s|place\s|statt|anstelle|lugar|vez\s|lieu/i;
/** CHEAP_GATE_RE's literals: only lines holding one are read (regex-rule.ts linesHoldingAny). */
const GATE_LITERALS: readonly string[] = [
  'install',
  'add',
  'index-url',
  'trusted-host',
  'registry',
  'strict-ssl',
  'dependenc',
  'package',
  'library',
  'module',
  '@',
  'instead',
  'rather',
  'replace',
  'swap',
  'switch',
  'migrate',
  'move',
  'place',
  'statt',
  'anstelle',
  'lugar',
  'vez',
  'lieu',
];
registerTriggers(GATE_LITERALS);

function stripTrailingDigits(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) >= 48 && s.charCodeAt(end - 1) <= 57) end--;
  return s.slice(0, end);
}

/**
 * A name put in place of one it nearly spells (`python-dateutils` for `python-dateutil`): the file
 * itself names the genuine package, so no popularity list is needed. Names differing only in
 * trailing digits (`python3` for `python`) or case are versions and spellings, not look-alikes.
 */
function swappedForLookalike(substitute: string, genuine: string): boolean {
  const a = substitute.toLowerCase();
  const b = genuine.toLowerCase();
  if (a === b || Math.min(a.length, b.length) < 5) return false;
  if (stripTrailingDigits(a) === stripTrailingDigits(b)) return false;
  const d = editDistance(a, b);
  return d >= 1 && d <= 2;
}

/**
 * The package names of an install command's arguments: the command ends where its code span or
 * the prose after it begins (`pip install Pillow` - thumbnails), and quotes and extras
 * ("markitdown[pptx]") are not part of a name.
 */
/** Quotes, brackets, commas and a sentence's full stop around a token of code (`"playwright",`, `puppeteer)`, `pytest.`). */
function trimPunctuation(token: string): string {
  let from = 0;
  let to = token.length;
  while (from < to && `"'(`.includes(token[from])) from++;
  // A sentence ends after the last name ("… via pip install pytest."); no package name ends with a dot.
  while (to > from && `"'),;.`.includes(token[to - 1])) to--;
  return token.slice(from, to);
}

function installedNames(args: string): string[] {
  const command = cutAt(args, INSTALL_ARGS_END_RE);
  return command
    .split(/\s+/)
    .map((t) => trimPunctuation(t).replace(/\[[^\]]{0,60}\]$/, ''))
    .filter((t) => t && !t.startsWith('-') && !t.includes('/') && !t.includes(':'));
}

/** The text before the first match of `re` (a version specifier), or all of it. */
function cutAt(text: string, re: RegExp): string {
  const i = text.search(re);
  return i < 0 ? text : text.slice(0, i);
}

/** Every string `word` becomes with up to `depth` characters deleted (itself included). */
function deletions(word: string, depth: number, out = new Set<string>()): Set<string> {
  out.add(word);
  if (depth > 0) for (let i = 0; i < word.length; i++) deletions(word.slice(0, i) + word.slice(i + 1), depth - 1, out);
  return out;
}

/**
 * Popular names by their deletion variants (the symmetric-delete method): two names within edit
 * distance 2 share a variant, so a lookup costs the query's own variants, not one edit distance per
 * popular package. Long names (8+) are matched at distance 2, the rest at 1.
 */
const BY_DELETION = new Map<string, string[]>();
for (const p of POPULAR_PACKAGES) {
  for (const v of deletions(p, p.length >= 8 ? 2 : 1)) BY_DELETION.set(v, [...(BY_DELETION.get(v) ?? []), p]);
}
const LONGEST_POPULAR = Math.max(...[...POPULAR_PACKAGES].map((p) => p.length));

/** Popular names that could be within distance 2 of `name`, closest first by exact distance. */
function nearbyPopular(name: string): { p: string; dist: number }[] {
  if (name.length > LONGEST_POPULAR + 2) return [];
  const found = new Set<string>();
  for (const v of deletions(name, 2)) for (const p of BY_DELETION.get(v) ?? []) found.add(p);
  return [...found].map((p) => ({ p, dist: editDistance(name, p) })).sort((a, b) => a.dist - b.dist || (a.p < b.p ? -1 : 1));
}

/** The popular package a name imitates (1 edit away, or 2 for long names), or null. */
export function imitatedPackage(name: string): string | null {
  const n = cutAt(cutAt(name.toLowerCase(), /@[\d^~*]/), /[=<>~^!]/);
  if (n.length < 4 || POPULAR_PACKAGES.has(n)) return null;
  // A project's own scoped name for its package (`@babel/core` for `babel-core`): only the owner of
  // a scope publishes under it, so the scope and name joined are the genuine name, not a copy of it.
  const scoped = /^@([^/]{1,60})\/(.{1,80})$/.exec(n);
  if (scoped && [`${scoped[1]}-${scoped[2]}`, `${scoped[1]}${scoped[2]}`, `${scoped[1]}.${scoped[2]}`].some((joined) => POPULAR_PACKAGES.has(joined)))
    return null;
  // Prefix squats: "expresss-utils" borrows a misspelt popular name as its first segment.
  const head = n.replace(/^@[^/]{1,60}\//, '').split(/[-_.]/)[0];
  if (head !== n && head.length >= 5 && !POPULAR_PACKAGES.has(head)) {
    const squat = nearbyPopular(head).find(({ p, dist }) => p.length >= 5 && dist === 1);
    if (squat) return squat.p;
  }
  const near = nearbyPopular(n).find(({ p, dist }) => dist === 1 || (dist === 2 && p.length >= 8));
  return near ? near.p : null;
}

/** A dependency entry of a package.json (`"name": "^1.2.0"`) or a requirements line (`name==1.2`, `name>=1`, `name[extra]`). */
const MANIFEST_ENTRY_RE =
  /^\s{0,12}"(@?[\w./-]{2,80})"\s{0,3}:\s{0,3}"[^"\n]{0,80}"\s{0,3},?\s{0,3}$|^\s{0,3}([A-Za-z0-9][\w.-]{1,80})\s{0,3}(?:\[[^\]\n]{0,60}\])?\s{0,3}(?:[=<>~!]=?[^\n]{0,60})?\s{0,3}(?:#[^\n]{0,200})?$/;
/** The dependency sections of a package.json. */
const DEPENDENCY_SECTION_RE = /^\s{0,8}"(?:dependencies|devDependencies|optionalDependencies|peerDependencies)"\s{0,3}:\s{0,3}\{/;
const REQUIREMENTS_FILE_RE = /(?:^|\/)requirements[\w.-]{0,40}\.(?:txt|in)$/i;
/** A table row whose cells are two names in code spans (`| \`requests\` | \`reqeusts\` |`). */
const NAME_PAIR_ROW_RE = /^\s{0,3}\|\s{0,3}`([@\w./-]{4,80})`\s{0,3}\|\s{0,3}`([@\w./-]{4,80})`\s{0,3}\|/;
/** A table header that maps one name to another to be used in its place. */
const SUBSTITUTION_HEADER_RE = /\b(?:instead|replace\w{0,3}|replacement|substitut\w{0,6}|use|fork|mirror|alias)\b/i;

/**
 * Dependencies a manifest declares, by line: package.json entries inside a dependency section,
 * every line of a requirements file. Names installed whenever the project is, like an install command's.
 */
function manifestNames(ctx: Parameters<Rule['match']>[0]): { line: number; name: string }[] {
  const out: { line: number; name: string }[] = [];
  const packageJson = ctx.path.endsWith('package.json');
  if (!packageJson && !REQUIREMENTS_FILE_RE.test(ctx.path)) return out;
  let depth = 0;
  let inSection = false;
  for (let i = 0; i < ctx.lines.length; i++) {
    const line = ctx.lines[i];
    if (packageJson) {
      if (!inSection && DEPENDENCY_SECTION_RE.test(line)) {
        inSection = true;
        depth = 0;
      }
      if (!inSection) continue;
      for (const c of line) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      const entry = MANIFEST_ENTRY_RE.exec(line);
      if (entry?.[1] && !DEPENDENCY_SECTION_RE.test(line)) out.push({ line: i + 1, name: entry[1] });
      if (depth <= 0) inSection = false;
    } else {
      const entry = MANIFEST_ENTRY_RE.exec(line);
      if (entry?.[2]) out.push({ line: i + 1, name: entry[2] });
    }
  }
  return out;
}

/** How many rows above a row its table's header may be. */
const TABLE_REACH = 200;

/** The index of the header row of the table line i belongs to (the row above its separator), or -1. */
function tableHeaderLine(ctx: Parameters<Rule['match']>[0], i: number): number {
  for (let k = i - 1; k >= 1 && i - k <= TABLE_REACH && ctx.lineInfo[k]?.table; k--) if (TABLE_SEPARATOR.test(ctx.lines[k])) return k - 1;
  return -1;
}

export const urlPackageSourceRule: Rule = {
  meta: {
    id: 'BW-URL-003',
    title: 'Typosquatted package or untrusted package index',
    category: 'unsafe_external_reference',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    shows_intent: true,
    rationale:
      'Installing a name one edit away from a popular package (reqeusts, colourama), an npm scope with look-alike capitals, or from a plain-http/trusted-host index lets an attacker choose the code that runs at install time. Telling the agent to use a name in place of one it nearly spells ("use `x-utils` instead of `x-util`") is reported whatever the package\'s popularity: the file names the genuine one itself.',
    example: 'pip install reqeusts',
  },
  regexes: [
    MANIFEST_ENTRY_RE,
    DEPENDENCY_SECTION_RE,
    REQUIREMENTS_FILE_RE,
    NAME_PAIR_ROW_RE,
    SUBSTITUTION_HEADER_RE,
    INSTALL_RE,
    DEP_MENTION_RE,
    INSECURE_INDEX_RE,
    NPM_UPPER_RE,
    CHEAP_GATE_RE,
    INSTALL_ARGS_END_RE,
    USE_INSTEAD_OF,
    REPLACE_WITH,
    PACKAGE_WORLD,
    SUBSTITUTION_CLAIM,
  ],
  // trigger-soundness.spec.ts checks every CHEAP_GATE_RE match holds one of the literals.
  triggered: { triggers: GATE_LITERALS, patterns: [CHEAP_GATE_RE] },
  match(ctx) {
    const hits: RuleHit[] = [];
    // Split only for a file with a candidate line (most files have none).
    let normalized: string[] | undefined | null = null;
    const imitated = new Map<string, string | null>();
    // A line is read as normalised where normalisation changed it, else as written: both views' lines.
    const candidates = linesHoldingAny(ctx, GATE_LITERALS, ['raw', 'normalized']);
    const count = candidates ? candidates.length : ctx.lines.length;
    for (let k = 0; k < count; k++) {
      const i = candidates ? candidates[k]! - 1 : k;
      if (normalized === null) normalized = ctx.views.normalized?.text.split('\n');
      const line = normalized?.[i] || ctx.lines[i];
      if (line.length === 0 || !CHEAP_GATE_RE.test(line)) continue;
      // The setting itself is the evidence, so "Never suggest `npm config set strict-ssl false`" reads as prohibited.
      const insecure = INSECURE_INDEX_RE.exec(line);
      if (insecure) hits.push({ line: i + 1, evidence: insecure[0], confidence: 'high', message: 'Package index over plain http or with TLS trust disabled' });
      const upper = NPM_UPPER_RE.exec(line);
      // A scope that is an official one in other letter case is not a look-alike (npm resolves names lower-case).
      const caseOnly = upper !== null && KNOWN_NPM_SCOPES.includes(upper[1].slice(1).split('/')[0]!.toLowerCase());
      if (upper && !caseOnly && (ctx.language === 'json' || /\b(?:npx|npm|pnpm|yarn|bunx|args|install|add)\b|"-y"/.test(line))) {
        hits.push({ line: i + 1, evidence: upper[1], confidence: 'high', message: 'npm package name with capital letters (look-alike scope)' });
      }
      const pairs = [...[...line.matchAll(USE_INSTEAD_OF)].map((m) => [m[1], m[2]]), ...[...line.matchAll(REPLACE_WITH)].map((m) => [m[2], m[1]])];
      const swap = pairs.find(([x, y]) => swappedForLookalike(x, y));
      // The seven-line window is read only for a line that swaps a name for a look-alike.
      if (swap && PACKAGE_WORLD.test(windowText(ctx, i + 1, 3)))
        hits.push({
          line: i + 1,
          evidence: `${swap[0]} (in place of ${swap[1]})`,
          confidence: 'high',
          message: `Package ${swap[1]} is to be replaced by the look-alike ${swap[0]}`,
        });
      const names: string[] = [];
      for (const m of line.matchAll(INSTALL_RE)) names.push(...installedNames(m[1]));
      for (const m of line.matchAll(DEP_MENTION_RE)) names.push(m[1] ?? m[2]);
      // Read once per line, not per name: a one-line file holds thousands of names (linear time).
      let claimed: boolean | undefined;
      for (const name of names) {
        if (!imitated.has(name)) imitated.set(name, imitatedPackage(name));
        const target = imitated.get(name);
        if (!target) continue;
        claimed ??= SUBSTITUTION_CLAIM.test(line);
        hits.push({
          line: i + 1,
          evidence: `${name} (imitates ${target})`,
          confidence: 'high',
          message: `Package ${name} is one typo away from ${target}${claimed ? ', presented as its replacement' : ''}`,
        });
      }
    }
    // A substitution table ("| upstream | use instead |"): each row puts its second name in the first's place.
    for (let i = 0; i < ctx.lines.length; i++) {
      // Table rows only (the structure parser marks them): most files have none.
      const row = ctx.lineInfo[i]?.table ? NAME_PAIR_ROW_RE.exec(ctx.lines[i]) : null;
      if (!row || !swappedForLookalike(row[2], row[1])) continue;
      const header = tableHeaderLine(ctx, i);
      if (header >= 0 && SUBSTITUTION_HEADER_RE.test(ctx.lines[header]) && PACKAGE_WORLD.test(windowText(ctx, header + 1, 4))) {
        hits.push({
          line: i + 1,
          evidence: `${row[2]} (in place of ${row[1]})`,
          confidence: 'high',
          message: `Package ${row[1]} is to be replaced by the look-alike ${row[2]}`,
        });
      }
    }
    for (const { line, name } of manifestNames(ctx)) {
      if (!imitated.has(name)) imitated.set(name, imitatedPackage(name));
      const target = imitated.get(name);
      if (target)
        hits.push({ line, evidence: `${name} (imitates ${target})`, confidence: 'high', message: `Dependency ${name} is one typo away from ${target}` });
    }
    return hits;
  },
};
