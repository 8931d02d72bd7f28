/**
 * The common rule shape: a few regexes run over chosen views. Patterns never span lines (views are
 * line-preserving) and use bounded quantifiers; every pattern is ReDoS-checked in the tests.
 */
import type { FileLanguage, ScanContext } from '../views/scan-context';
import { lineOfOffset } from '../views/line-index';
import { requiredLiteralSets } from './required-literals';
import { matchReach } from './match-reach';
import { compiledPattern, patternCompilation, type PatternCompilation } from './pattern-compilation';
import { TriggerIndex } from './trigger-index';
import type { SegmentSource, TextView, ViewName } from '../views/view.types';
import type { Rule, RuleHit, RuleMeta } from './rule.types';

/**
 * Distinct matches one rule examines on a line, over all its patterns and views (by text; by text
 * and column when the line is read again, see hitKey). A match the rule's refinement vetoes does
 * not end the line, and when context weakens the line's first hit the rule engine reads the line's
 * other matches (hitsOnLine), so decoys earlier on a line (negated, quoted, vetoed) never hide a
 * later match. Past this many the rest of the line is not read and the file is reported as not
 * fully analysed: no line of about 10,400 real and corpus uploads needs more than 6
 * (docs/decisions/0031-every-match-on-a-line.md).
 */
export const MAX_MATCHES_PER_LINE = 16;

/** Per scanned file and rule: the lines past MAX_MATCHES_PER_LINE, for the analysis-incomplete finding. */
const CAPPED_LINES = new WeakMap<ScanContext, Map<string, Set<number>>>();

/** Per rule, the lines where it stopped at MAX_MATCHES_PER_LINE; undefined when none did. */
export function cappedLinesOf(ctx: ScanContext): ReadonlyMap<string, ReadonlySet<number>> | undefined {
  return CAPPED_LINES.get(ctx);
}

const INVISIBLE_IN_RAW: ReadonlySet<SegmentSource> = new Set<SegmentSource>(['tag_chars', 'variation_selectors', 'zero_width']);

export interface RegexRuleSpec {
  meta: RuleMeta;
  patterns: RegExp[];
  /** Views to search; default raw + normalized. */
  views?: ViewName[];
  /** Only run for these languages (default: all). */
  languages?: FileLanguage[];
  /** Skip the whole file (cheap pre-check). */
  skipFile?: (ctx: ScanContext) => boolean;
  /**
   * Lower-case literals of which every match contains at least one: patterns then run only on lines
   * holding a trigger. Required for speed on large files; the fixtures prove they are sufficient.
   */
  triggers?: readonly string[];
  /** Refine or veto a hit; return null to drop it. */
  refine?: (hit: RuleHit, m: RegExpExecArray, ctx: ScanContext, view: TextView) => RuleHit | null;
}

export function viewsOf(ctx: ScanContext, names: readonly ViewName[]): TextView[] {
  const out: TextView[] = [];
  for (const n of names) {
    const v = ctx.views[n];
    if (v) out.push(v);
  }
  return out;
}

/** Per way of compiling (pattern-compilation.ts), each pattern's global copy. */
const GLOBAL_CACHE: Record<PatternCompilation, WeakMap<RegExp, RegExp>> = { 'as-written': new WeakMap(), 'cheap-to-compile': new WeakMap() };
const LOWER_CACHE = new WeakMap<TextView, string>();
/** Beyond this many trigger lines a view is scanned whole (bounded quantifiers keep it linear). */
const MAX_CANDIDATE_LINES = 4000;

function globalOf(pattern: RegExp): RegExp {
  const cache = GLOBAL_CACHE[patternCompilation()];
  let re = cache.get(pattern);
  if (!re) {
    re = compiledPattern(pattern, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    cache.set(pattern, re);
  }
  return re;
}

/** Views whose lower-cased text changed length, so lowerOf gave the text as written. */
const NOT_LOWERED = new WeakSet<TextView>();

function lowerOf(view: TextView): string {
  let lower = LOWER_CACHE.get(view);
  if (lower === undefined) {
    // toLowerCase can change string length for a few characters (e.g. İ); offsets then drift, so
    // fall back to the original text (triggers are ASCII; matching still works case-sensitively).
    const l = view.text.toLowerCase();
    lower = l.length === view.text.length ? l : view.text;
    if (lower !== l) NOT_LOWERED.add(view);
    LOWER_CACHE.set(view, lower);
  }
  return lower;
}

/** Every trigger a rule has declared (defineRegexRule registers them), and their one-pass index. */
const REGISTERED_TRIGGERS = new Set<string>();
/** Each registered trigger list (a rule's) as one group of the index: its lines come out as one union. */
const TRIGGER_GROUPS: (readonly string[])[] = [];
/** Group number by the list itself, and by its content (a caller may build an equal list per call). */
const GROUP_OF = new WeakMap<readonly string[], number>();
const GROUP_OF_CONTENT = new Map<string, number>();
let triggerIndex: TriggerIndex | null = null;
const VIEW_TRIGGERS = new WeakMap<TextView, { index: TriggerIndex; lines: (readonly number[] | null)[] }>();

/** Every trigger literal the catalogue has registered (the worst-case harness repeats them). */
export function registeredTriggers(): ReadonlySet<string> {
  return REGISTERED_TRIGGERS;
}

/** Registers a trigger list; its lines are indexed as one group. Returns the group's number. */
export function registerTriggers(triggers: readonly string[]): number {
  const known = GROUP_OF.get(triggers);
  if (known !== undefined) return known;
  const content = triggers.join('\n');
  let group = GROUP_OF_CONTENT.get(content);
  if (group === undefined) {
    for (const t of triggers) REGISTERED_TRIGGERS.add(t);
    group = TRIGGER_GROUPS.push([...triggers]) - 1;
    GROUP_OF_CONTENT.set(content, group);
    triggerIndex = null;
  }
  GROUP_OF.set(triggers, group);
  return group;
}

/**
 * 1-based lines of the view containing any trigger (lower-case literal), or null when every line
 * must be scanned (more than MAX_CANDIDATE_LINES). Running patterns only on trigger lines is far
 * cheaper than running every pattern over every position. The view's index is built once, in one
 * pass, for every registered trigger list.
 */
export function candidateLines(view: TextView, triggers: readonly string[]): readonly number[] | null {
  // Rules register at definition; a caller passing its own triggers gets them indexed too.
  const group = registerTriggers(triggers);
  return groupLinesOf(view)[group]!;
}

/** Per registered group: its lines in the view (see candidateLines), from the view's one pass. */
function groupLinesOf(view: TextView): readonly (readonly number[] | null)[] {
  triggerIndex ??= new TriggerIndex(REGISTERED_TRIGGERS, TRIGGER_GROUPS);
  let cached = VIEW_TRIGGERS.get(view);
  if (cached === undefined || cached.index !== triggerIndex) {
    cached = { index: triggerIndex, lines: triggerIndex.groupLinesIn(lowerOf(view), view.lineStarts, MAX_CANDIDATE_LINES) };
    VIEW_TRIGGERS.set(view, cached);
  }
  return cached.lines;
}

/**
 * 1-based lines, ascending, whose text in these views holds one of the lower-case literals, read
 * from the views' one trigger pass; null when every line must be read (a view whose lower-cased
 * text changed length, or literals on more than MAX_CANDIDATE_LINES lines). A rule whose per-line
 * gate is an alternation of literals reads only these lines; register the literals at module load
 * (registerTriggers) so the index is built once with them.
 */
export function linesHoldingAny(ctx: ScanContext, literals: readonly string[], names: readonly ViewName[] = ['raw']): readonly number[] | null {
  const group = registerTriggers(literals);
  let out: readonly number[] = [];
  for (const name of names) {
    const view = ctx.views[name];
    if (!view) continue;
    const lines = groupLinesOf(view)[group]!;
    // A view read as written (lowerOf) may hold the literals in upper case.
    if (lines === null || NOT_LOWERED.has(view)) return null;
    out = out.length === 0 ? lines : lines.length === 0 ? out : [...new Set([...out, ...lines])].sort((x, y) => x - y);
  }
  return out;
}

/**
 * Per pattern list: each pattern's trigger groups, one per literal set its matches must all hold
 * (required-literals.ts), at most MAX_LITERAL_SETS of them (each set is one more group in every
 * view's trigger pass); empty when none are known.
 */
const LITERAL_GROUPS = new WeakMap<readonly RegExp[], (readonly number[])[]>();
const MAX_LITERAL_SETS = 2;

/**
 * Registers the triggers and the patterns' literal sets of a scanPatterns call a rule makes itself
 * (defineRegexRule registers its own). Call it at module load: a set registered at a scan makes the
 * next scan rebuild the trigger index of every view (trigger-registration.spec.ts checks none is).
 */
export function registerScan(patterns: readonly RegExp[], triggers?: readonly string[]): void {
  if (triggers) registerTriggers(triggers);
  literalGroupsOf(patterns);
}

function literalGroupsOf(patterns: readonly RegExp[]): (readonly number[])[] {
  let groups = LITERAL_GROUPS.get(patterns);
  if (!groups) {
    groups = patterns.map((p) => {
      const [first, ...rest] = requiredLiteralSets(p);
      if (!first) return [];
      // After the first set, the most selective: the one whose shortest literal is longest.
      const shortest = (set: readonly string[]): number => Math.min(...set.map((l) => l.length));
      const extra = [...rest].sort((a, b) => shortest(b) - shortest(a)).slice(0, MAX_LITERAL_SETS - 1);
      return [first, ...extra].map(registerTriggers);
    });
    LITERAL_GROUPS.set(patterns, groups);
  }
  return groups;
}

/** Lines in both ascending lists. */
function bothLines(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return out;
}

export function scanPatterns(
  ctx: ScanContext,
  patterns: readonly RegExp[],
  views: readonly TextView[],
  onMatch: (m: RegExpExecArray, line: number, view: TextView) => boolean | void,
  triggers?: readonly string[],
  /** Lines the caller is done with (a rule's line ends at its first kept hit): no later pattern reads them. */
  settled?: ReadonlySet<number>,
): void {
  const literalGroups = literalGroupsOf(patterns);
  for (const view of views) {
    let candidates: readonly number[] | null = triggers ? candidateLines(view, triggers) : null;
    if (view.name === 'hidden') {
      // Comments, alt text, titles and padding are also in the raw view; only text that raw does
      // not show (invisible-character payloads) needs a second scan here.
      const invisible = [...view.sources].filter(([, s]) => INVISIBLE_IN_RAW.has(s)).map(([l]) => l);
      const allowed = new Set(invisible);
      candidates = (candidates ?? invisible).filter((l) => allowed.has(l)).sort((a, b) => a - b);
    }
    if (candidates && candidates.length === 0) continue;
    // Whole view, or only the trigger lines merged into contiguous blocks (patterns never span
    // lines, so a block boundary never cuts a match). Dense candidates: scan the whole view.
    const blocks: Block[] = [];
    if (!candidates || candidates.length * 3 > view.lineStarts.length) {
      blocks.push({ from: 0, text: view.text, firstLine: 1, lastLine: view.lineStarts.length });
    } else {
      let i = 0;
      while (i < candidates.length) {
        let j = i;
        while (j + 1 < candidates.length && candidates[j + 1] === candidates[j] + 1) j++;
        const from = view.lineStarts[candidates[i] - 1];
        const to = (view.lineStarts[candidates[j]] ?? view.text.length + 1) - 1;
        blocks.push({ from, text: view.text.slice(from, to), firstLine: candidates[i], lastLine: candidates[j] });
        i = j + 1;
      }
    }
    // Lines holding each pattern's required literals; a view read as written (not lower-cased,
    // see lowerOf) may hold them in upper case, so there they gate nothing.
    const viewLines = groupLinesOf(view);
    const groupLines = NOT_LOWERED.has(view) ? null : viewLines;
    for (let p = 0; p < patterns.length; p++) {
      // Lines holding a literal of every set: a match lies on one of them.
      let own: readonly number[] | null = null;
      if (groupLines) {
        for (const g of literalGroups[p]!) {
          const lines = groupLines[g]!;
          if (lines === null) continue;
          own = own === null ? lines : bothLines(own, lines);
          if (own.length === 0) break;
        }
      }
      // Every match holds a literal of its own: no literal in the view, no match in it.
      if (own && own.length === 0) continue;
      const re = globalOf(patterns[p]!);
      let at = 0;
      const unsettled = settled && settled.size > 0 ? withoutLines(view, blocks, settled) : blocks;
      for (let b = 0; b < unsettled.length; b++) {
        const { from, text: slice, firstLine, lastLine: blockEnd } = unsettled[b]!;
        // A block holding no line with one of the literals cannot hold a match (literals never span lines).
        if (own) {
          while (at < own.length && own[at]! < firstLine) at++;
          if (at >= own.length || own[at]! > blockEnd) {
            if (((b & 15) === 15 || b + 1 === unsettled.length) && performance.now() > ctx.deadline) break;
            continue;
          }
        }
        // A block of long lines (a minified or serialized document): only the windows around the
        // pattern's literals, when its matches' reach is bounded.
        const longLines = slice.length >= WINDOWED_LINE.minLength && slice.length >= (blockEnd - firstLine + 1) * WINDOWED_LINE.averageLine;
        const windowedBy = own && longLines ? literalGroups[p]![0] : undefined;
        if (windowedBy === undefined || !matchesInWindows(view, patterns[p]!, re, TRIGGER_GROUPS[windowedBy]!, from, slice.length, onMatch)) {
          matchesIn(view, re, slice, from, onMatch);
        }
        // The clock every few blocks: one call per block cost more than a short block's scan.
        if (((b & 15) === 15 || b + 1 === unsettled.length) && performance.now() > ctx.deadline) break;
      }
    }
  }
}

/** A run of whole lines of a view that a pattern is run over: its text starts at offset `from`. */
interface Block {
  from: number;
  text: string;
  firstLine: number;
  lastLine: number;
}

/**
 * The blocks with the given lines cut out. A match begins on the line it is reported on, so a line
 * already settled by an earlier pattern is not read again, and no match begun there can run on and
 * hide one on the next line (docs/decisions/0032-settled-lines-are-not-read-again.md).
 */
function withoutLines(view: TextView, blocks: readonly Block[], settled: ReadonlySet<number>): Block[] {
  const out: Block[] = [];
  for (const blk of blocks) {
    let l = blk.firstLine;
    while (l <= blk.lastLine) {
      while (l <= blk.lastLine && settled.has(l)) l++;
      if (l > blk.lastLine) break;
      let e = l;
      while (e + 1 <= blk.lastLine && !settled.has(e + 1)) e++;
      if (l === blk.firstLine && e === blk.lastLine) out.push(blk);
      else {
        const from = view.lineStarts[l - 1]!;
        const to = (view.lineStarts[e] ?? view.text.length + 1) - 1;
        out.push({ from, text: view.text.slice(from, to), firstLine: l, lastLine: e });
      }
      l = e + 1;
    }
  }
  return out;
}

/**
 * Every match of `re` in `slice`, the view's text from offset `from`, that starts between `startAt`
 * and `lastStart` of the slice; a caller's true skips the rest of the match's line. Returns the
 * view offset where the last skip ends (Infinity past the last line), or -1 when none was asked.
 */
function matchesIn(
  view: TextView,
  re: RegExp,
  slice: string,
  from: number,
  onMatch: (m: RegExpExecArray, line: number, view: TextView) => boolean | void,
  startAt = 0,
  lastStart = Infinity,
): number {
  re.lastIndex = startAt;
  let skippedTo = -1;
  let m: RegExpExecArray | null;
  while ((m = re.exec(slice)) !== null) {
    if (m.index > lastStart) break;
    if (m[0].length === 0) re.lastIndex++;
    m.index += from;
    const line = lineOfOffset(view.lineStarts, m.index);
    if (view.boundaries) {
      // Joined view: only matches that cross into the continuation line are new.
      const start = m.index - view.lineStarts[line - 1];
      const cut = view.boundaries[line - 1];
      if (!(start < cut && start + m[0].length > cut + 1)) continue;
    }
    if (onMatch(m, line, view) === true) {
      const nextLine = view.lineStarts[line];
      if (nextLine === undefined) return Infinity;
      skippedTo = nextLine;
      re.lastIndex = Math.max(re.lastIndex, nextLine - from);
    }
  }
  return skippedTo;
}

/**
 * A block of lines at least `minLength` long whose lines average `averageLine` or more (a minified
 * or serialized document) is read in windows around each pattern's literals (matchesInWindows).
 */
export const WINDOWED_LINE = { minLength: 8192, averageLine: 1024 };

/** Per view, per block (`from:length`): where each trigger starts in it (TriggerIndex.startsIn), read once for every pattern. */
const BLOCK_STARTS = new WeakMap<TextView, Map<string, (number[] | null | undefined)[]>>();

/**
 * The matches of one pattern in one block, read only in windows around `literals`, the first of
 * its required literal sets (every match holds one). A window reaches the pattern's longest match on both sides
 * of a literal, plus what its lookarounds read, so each match is found there as a run over the
 * whole block finds it, and none starts elsewhere. Returns false, having read nothing, when the
 * pattern's reach is unbounded or the windows would cover most of the block.
 */
function matchesInWindows(
  view: TextView,
  pattern: RegExp,
  re: RegExp,
  literals: readonly string[],
  from: number,
  length: number,
  onMatch: (m: RegExpExecArray, line: number, view: TextView) => boolean | void,
): boolean {
  const reach = matchReach(pattern);
  if (!reach || !triggerIndex) return false;
  let byBlock = BLOCK_STARTS.get(view);
  if (!byBlock) BLOCK_STARTS.set(view, (byBlock = new Map()));
  const key = `${from}:${length}`;
  let starts = byBlock.get(key);
  if (!starts) byBlock.set(key, (starts = triggerIndex.startsIn(lowerOf(view), from, from + length)));
  const at: number[] = [];
  for (const literal of literals) {
    const id = triggerIndex.automatonIdOf(literal);
    if (id === undefined) return false;
    // A literal all over the block: windows around it would cover it.
    const own = starts[id];
    if (own === null) return false;
    if (own) for (const p of own) at.push(p);
  }
  at.sort((a, b) => a - b);
  const end = from + length;
  const margin = reach.context + 1;
  // Windows: [first start a match may have − margin, last start + longest match + margin], merged.
  const windows: { sliceFrom: number; sliceTo: number; firstStart: number; lastStart: number }[] = [];
  let covered = 0;
  for (const p of at) {
    const firstStart = Math.max(from, p - reach.maxLength);
    const sliceFrom = Math.max(from, firstStart - margin);
    const sliceTo = Math.min(end, p + reach.maxLength + margin);
    const last = windows[windows.length - 1];
    if (last && sliceFrom <= last.sliceTo) {
      covered += Math.max(0, sliceTo - last.sliceTo);
      last.sliceTo = Math.max(last.sliceTo, sliceTo);
      last.lastStart = p;
    } else {
      covered += sliceTo - sliceFrom;
      windows.push({ sliceFrom, sliceTo, firstStart, lastStart: p });
    }
  }
  if (covered * 2 > length) return false;
  // A hit that settles its line (the caller's true) moves every later window past that line.
  let resumeAt = -1;
  for (const w of windows) {
    if (w.lastStart < resumeAt) continue;
    let startAt = Math.max(w.firstStart, resumeAt);
    // Never from the middle of a surrogate pair, where a run over the block never starts.
    if (startAt > w.sliceFrom && (view.text.charCodeAt(startAt) & 0xfc00) === 0xdc00 && (view.text.charCodeAt(startAt - 1) & 0xfc00) === 0xd800) startAt--;
    startAt -= w.sliceFrom;
    const skipped = matchesIn(view, re, view.text.slice(w.sliceFrom, w.sliceTo), w.sliceFrom, onMatch, startAt, w.lastStart - w.sliceFrom);
    resumeAt = Math.max(resumeAt, skipped);
    if (resumeAt === Infinity) break;
  }
  return true;
}

/**
 * scanPatterns on one line: every pattern over that line of each view, without the trigger index
 * (one line costs what its text costs, and looking it up in a view's candidate list would not).
 */
function scanLine(
  patterns: readonly RegExp[],
  views: readonly TextView[],
  line: number,
  onMatch: (m: RegExpExecArray, line: number, view: TextView) => boolean | void,
): void {
  for (const view of views) {
    const from = view.lineStarts[line - 1];
    if (from === undefined) continue;
    // As in scanPatterns: the hidden view adds only what raw does not show.
    const source = view.sources.get(line);
    if (view.name === 'hidden' && !(source && INVISIBLE_IN_RAW.has(source))) continue;
    const slice = view.text.slice(from, (view.lineStarts[line] ?? view.text.length + 1) - 1);
    for (const p of patterns) matchesIn(view, globalOf(p), slice, from, onMatch);
  }
}

function capLine(ctx: ScanContext, rule: string, line: number): void {
  let byRule = CAPPED_LINES.get(ctx);
  if (!byRule) CAPPED_LINES.set(ctx, (byRule = new Map()));
  let lines = byRule.get(rule);
  if (!lines) byRule.set(rule, (lines = new Set()));
  lines.add(line);
}

/** Rules that read prose also read its hard-wrapped continuation. */
function withJoined(views: ViewName[]): ViewName[] {
  return views.includes('normalized') && !views.includes('joined') ? [...views, 'joined'] : views;
}

export function defineRegexRule(spec: RegexRuleSpec): Rule {
  // Registered now, so the one trigger index of all views is built once with them.
  registerScan(spec.patterns, spec.triggers);
  const views = withJoined(spec.views ?? ['raw', 'normalized']);
  const appliesTo = (ctx: ScanContext): boolean => (!spec.languages || spec.languages.includes(ctx.language)) && !spec.skipFile?.(ctx);
  return {
    meta: spec.meta,
    regexes: spec.patterns,
    triggered: { triggers: spec.triggers, patterns: spec.patterns },
    match(ctx) {
      return appliesTo(ctx) ? regexHits(ctx, spec, views, { firstPerLine: true }) : [];
    },
    hitsOnLine(ctx, line, weighed) {
      return appliesTo(ctx) ? regexHits(ctx, spec, views, { firstPerLine: false, onlyLine: line, weighed }) : [];
    },
  };
}

/** A hit's identity on its line: its text, and where it stands when the rule knows. */
export const hitKey = (hit: Pick<RuleHit, 'evidence' | 'column'>): string => (hit.column === undefined ? hit.evidence : `${hit.column}\u0000${hit.evidence}`);

/**
 * A regex rule's hits: refined, one per distinct match text and line. With `firstPerLine` a line
 * ends at its first kept hit (the common case: one finding per rule and line); vetoed matches never
 * end it. `onlyLine` reads that line alone, passing over the match texts in `weighed`.
 */
function regexHits(
  ctx: ScanContext,
  spec: RegexRuleSpec,
  views: ViewName[],
  opts: { firstPerLine: boolean; onlyLine?: number; weighed?: ReadonlySet<string> },
): RuleHit[] {
  const hits: RuleHit[] = [];
  const done = new Set<number>();
  // Per line, the match texts examined: the same text again (another view, a repeat) adds nothing.
  const examined = new Map<number, Set<string>>();
  if (opts.onlyLine !== undefined && opts.weighed) examined.set(opts.onlyLine, new Set(opts.weighed));
  const onMatch = (m: RegExpExecArray, line: number, view: TextView): boolean => {
    if (done.has(line)) return true;
    const column = view.name === 'raw' ? m.index - view.lineStarts[line - 1]! : undefined;
    // A line's first pass tells matches apart by text; reading a line again (its first hit was
    // weakened), the same text elsewhere on it is another match.
    const key = opts.firstPerLine ? m[0] : hitKey({ evidence: m[0], column });
    // Kept only once a line has a second match (most lines have one).
    let texts = examined.get(line);
    if (texts?.has(key)) return false;
    if (texts && texts.size >= MAX_MATCHES_PER_LINE) {
      capLine(ctx, spec.meta.id, line);
      return true;
    }
    const source = view.name === 'raw' ? 'raw' : view.name === 'normalized' || view.name === 'joined' ? 'normalized' : (view.sources.get(line) ?? 'raw');
    let hit: RuleHit | null = { line, evidence: m[0], source, column };
    if (spec.refine) hit = spec.refine(hit, m, ctx, view);
    if (hit) hits.push(hit);
    if (hit && opts.firstPerLine) {
      done.add(line);
      return true;
    }
    if (!texts) examined.set(line, (texts = new Set()));
    texts.add(key);
    return false;
  };
  if (opts.onlyLine === undefined) scanPatterns(ctx, spec.patterns, viewsOf(ctx, views), onMatch, spec.triggers, done);
  else scanLine(spec.patterns, viewsOf(ctx, views), opts.onlyLine, onMatch);
  return hits;
}

/**
 * A whole-file fact for per-hit refinement, computed once per file: a refine that reads the whole
 * text on every hit makes the rule quadratic in the number of hits.
 */
export function perFile<T>(compute: (ctx: ScanContext) => T): (ctx: ScanContext) => T {
  const cache = new WeakMap<ScanContext, T>();
  return (ctx) => {
    if (!cache.has(ctx)) cache.set(ctx, compute(ctx));
    return cache.get(ctx) as T;
  };
}

/**
 * A per-line fact, computed once per file and line: a fact that reads a whole line (or the lines
 * around it), asked for each of the line's hits, costs the line's length per hit on a long line.
 */
export function perLine<T>(compute: (ctx: ScanContext, line: number) => T): (ctx: ScanContext, line: number) => T {
  const cache = new WeakMap<ScanContext, Map<number, T>>();
  return (ctx, line) => {
    let lines = cache.get(ctx);
    if (!lines) cache.set(ctx, (lines = new Map()));
    if (!lines.has(line)) lines.set(line, compute(ctx, line));
    return lines.get(line) as T;
  };
}

/**
 * Lines [line-radius, line+radius] joined, for "A near B" checks: a substring of the file's text
 * (its lines joined by line breaks), not a copy of each line joined again; rules call this per
 * candidate line.
 */
export function windowText(ctx: ScanContext, line: number, radius: number): string {
  const from = Math.max(0, line - 1 - radius);
  const to = Math.min(ctx.lines.length, line + radius);
  if (from >= to) return '';
  const starts = ctx.views.raw.lineStarts;
  return ctx.text.slice(starts[from], to < starts.length ? starts[to]! - 1 : ctx.text.length);
}

/**
 * The sentence holding `evidence` on `line`, read across the neighbouring lines of its paragraph
 * (hard-wrapped prose): for checks on what one statement says about its own target.
 */
export function sentenceAround(ctx: ScanContext, line: number, evidence: string): string {
  const at = line - 1;
  const own = ctx.lines[at] ?? '';
  const prev = at > 0 && ctx.lines[at - 1].trim() !== '' ? `${ctx.lines[at - 1]} ` : '';
  const next = ctx.lines[at + 1]?.trim() ? ` ${ctx.lines[at + 1]}` : '';
  const text = `${prev}${own}${next}`;
  const found = text.indexOf(evidence, prev.length);
  const pos = found < 0 ? prev.length : found;
  const start = Math.max(text.lastIndexOf('. ', pos), text.lastIndexOf('! ', pos), text.lastIndexOf('? ', pos)) + 1;
  const ends = ['. ', '! ', '? '].map((t) => text.indexOf(t, pos + evidence.length)).filter((i) => i >= 0);
  return text.slice(start, ends.length ? Math.min(...ends) + 1 : text.length).trim();
}
