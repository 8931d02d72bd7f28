/**
 * Context and polarity: the same words weigh less when they are prohibited, listed as things to
 * deny, shown as anti-patterns, quoted as security education or given as a documentation example.
 * Never applied to executable scripts (they run as shipped) nor to hard-block rules.
 */
import type { FindingContext } from '../engine/scan-report.types';
import { lexiconWords } from '../lexicons/lexicon';
import { firstAtLeast } from '../views/line-index';
import type { ScanContext } from '../views/scan-context';
import { perLine } from './regex-rule';

const CITATION_MARKER = lexiconWords('citation-marker');
const DEFENSE_VERB = lexiconWords('defense-verb');
/** Quoted stretches of a line, removed before looking for what the citing sentence says to do. */
const QUOTED_SPAN_RE = /"[^"\n]{0,300}"|“[^”\n]{0,300}”/g;
/** The last one or two words before a point ("… language like", "… such as", "e.g."). */
const LAST_WORDS_RE = /([a-z.]{1,12})\s{1,3}([a-z.]{1,12})[\s,:(]{0,4}$|([a-z.]{1,12})[\s,:(]{0,4}$/i;
const DEFENSE_WORD_RE = /[a-z]{2,14}/gi;

const NEGATION_BEFORE =
  /(?:\b(?:never|do not|don'?t|does not|doesn'?t|must not|mustn'?t|should not|shouldn'?t|shall not|cannot|can'?t|won'?t|will not|no|not|avoid(?:ing)?|refuse|refrain from|prohibit(?:s|ed)?|forbid(?:s|den)?|disallow(?:s|ed)?|reject(?:s|ed)?|block(?:s|ed)?|deny|denies|denied|ban(?:s|ned)?|without ever|instead of|rather than|stop|prevent(?:s|ing)?|protect(?:s|ing)? against|guard(?:s|ing)? against|warn(?:s|ing)? (?:about|against|when|if)|flag(?:s|ged)?|detect(?:s|ed|ing)?|catch(?:es)?|look(?:s)? for|watch (?:out )?for|beware of|be wary of|treat .{0,40} as (?:untrusted|data|hostile)|is (?:a|an) (?:red flag|attack|injection|sign))\b|❌|⛔|🚫)/i;
const EDUCATION_LINE =
  /\b(?:attackers?|adversar(?:y|ies)|malicious (?:actors?|skills?|files?|instructions?|payloads?|prompts?)|(?:prompt|indirect) injection|example (?:attack|payload|of (?:an? )?(?:attack|injection|malicious))|such as|e\.g\.|for example|phishing|social engineering|threat|vulnerab|exploit|red[- ]team|jailbreak attempts?|suspicious|dangerous)\b/i;
const DENY_KEY = /"(?:deny|denied|disallow(?:ed)?|block(?:ed)?|forbidden|blocklist|denylist|deny_list|disallowedTools|excludeTools|ask)"\s{0,3}:\s{0,3}\[/i;
const EDUCATIONAL_FILE =
  /\b(?:prompt[- ]injection|supply[- ]chain[- ](?:risks?|attacks?)|attack[- ](?:examples?|phrases?)|(?:known|common)[- ](?:attacks?|techniques)|security[- ](?:scanner|review|audit|guidelines?|rules?|checklist|training)|threat[- ](?:model|analysis|detection)|detection[- ]rules?|(?:prompt[- ])?injection[- ](?:patterns?|detection|defen[cs]e)|secure[- ]coding|vulnerability[- ](?:patterns?|classes)|red[- ]flags|attack[- ](?:patterns?|vectors?|surface)|attacker[- ]controlled|vulnerable[- ](?:patterns?|code|configurations?)|codeguard|static[- ]analysis)\b/gi;

/** Whole-file signal: the file is *about* attacks (guides, scanner prompts, rule catalogues). */
export function isEducationalFile(ctx: ScanContext): boolean {
  // A file-wide fact read per finding: computed once per file, or many findings make it quadratic.
  let educational = EDUCATIONAL_FILES.get(ctx);
  if (educational === undefined) {
    const sample = ctx.text.length > 200_000 ? ctx.text.slice(0, 200_000) : ctx.text;
    educational = (sample.match(EDUCATIONAL_FILE)?.length ?? 0) >= 3;
    EDUCATIONAL_FILES.set(ctx, educational);
  }
  return educational;
}
const EDUCATIONAL_FILES = new WeakMap<ScanContext, boolean>();

/** A line that is only a bold label ("**MUST NOT**", "__Don't:__"), as a list's title. */
const BOLD_LABEL_RE = /^\s{0,3}(?:\*\*|__)[^*_\n]{1,60}(?:\*\*|__)\s{0,3}:?\s{0,3}$/;
const YAML_DENY_KEY = /^\s*(?:deny|disallow(?:ed)?_?tools?|blocked)\s{0,3}[:=]/i;
/** How far above a line its deny-list key or opening bracket may be. */
const DENY_REACH = 400;
const DENY_LINES = new WeakMap<ScanContext, Uint8Array>();

/**
 * Lines inside a deny/ask-style list of a config, computed for the whole file in one forward pass
 * (a per-hit upward scan cost lines × hits): a line is in one when the innermost array open at
 * its end was opened by a deny-style key, or when a deny-style key line above it sits at the same
 * bracket depth with nothing opened or closed in between, within DENY_REACH lines.
 */
function denyListLines(ctx: ScanContext): Uint8Array {
  let out = DENY_LINES.get(ctx);
  if (out) return out;
  out = new Uint8Array(ctx.lines.length);
  const open: { line: number; deny: boolean }[] = [];
  // keyLineAt[h]: the latest deny-key line whose end left the bracket stack at height h.
  const keyLineAt: number[] = [];
  for (let i = 0; i < ctx.lines.length; i++) {
    const text = ctx.lines[i];
    const keyLine = DENY_KEY.test(text) || YAML_DENY_KEY.test(text);
    for (let j = 0; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x5b /* [ */) {
        open.push({ line: i, deny: DENY_KEY.test(text.slice(Math.max(0, j - 60), j + 1)) });
        keyLineAt.length = open.length; // a new level starts without a key line
      } else if (c === 0x5d /* ] */ && open.length > 0) {
        open.pop();
        keyLineAt.length = open.length + 1;
        keyLineAt[open.length] = -Infinity; // the level's structure changed: earlier key lines no longer apply
      }
    }
    // A key line counts for its own line whatever brackets it holds, and for the lines below it at its final depth.
    if (keyLine) keyLineAt[open.length] = i;
    const top = open[open.length - 1];
    const keyAbove = keyLineAt[open.length] ?? -Infinity;
    out[i] = keyLine || (top !== undefined && top.deny && i - top.line < DENY_REACH) || i - keyAbove < DENY_REACH ? 1 : 0;
  }
  DENY_LINES.set(ctx, out);
  return out;
}

/** Is the line inside a JSON array value (or YAML/TOML list) of a deny/ask-style key? */
export function inDenyList(ctx: ScanContext, line: number): boolean {
  if (ctx.language !== 'json' && ctx.language !== 'yaml' && ctx.language !== 'toml') return false;
  return denyListLines(ctx)[line - 1] === 1;
}

/**
 * Where a hit's evidence stands on its line: at the hit's own column when it has one and the text is
 * there (the same text may stand earlier on the line, prohibited), else at its first occurrence.
 */
export function evidenceAt(lineText: string, probe: string, column?: number): number {
  if (probe === '') return -1;
  if (column !== undefined && lineText.startsWith(probe, column)) return column;
  return lineText.indexOf(probe);
}

export function isNegatedAt(lineText: string, evidence: string, column?: number): boolean {
  let at = evidenceAt(lineText, evidence.slice(0, 40), column);
  if (at < 0 && evidence) at = lineText.indexOf(evidence.split(/\s/)[0]);
  if (at < 0) return false;
  // Only the clause leading up to the match counts ("Never run `curl | sh`", not a later sentence).
  const before = lineText.slice(Math.max(0, at - 120), at);
  // Abbreviations ("e.g. `rm -rf /`") do not end the prohibiting clause.
  const clause =
    before
      .replace(/\b(?:e\.g|i\.e|etc|vs|cf)\./gi, (m) => m.replace(/\./g, ''))
      .split(/[.;!?]\s/)
      .pop() ?? before;
  // In a leading condition ("When the mirror cannot be reached, add …") the negation is the case, not the order.
  const opener = CLAUSE_OPENER.exec(clause)?.[1]?.toLowerCase();
  const order = opener !== undefined && CONDITION_WORDS.has(opener) ? (clause.split(/,\s/).pop() ?? clause) : clause;
  return NEGATION_BEFORE.test(order);
}

/** A line that opens a block of its own: a list item, a heading, a quote, a table row. */
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#|>|\|)/;
/** The first word of a clause, after a list marker: a condition word there makes what follows its comma the order. */
const CLAUSE_OPENER = /^\s{0,8}(?:[-*+]\s{1,3}|\d{1,3}[.)]\s{1,3})?([\p{L}]{1,20})/u;
const CONDITION_WORDS = lexiconWords('condition-word');
/** A heading, an HTML comment or tag line: not prose a sentence continues from. */
const MARKUP_LINE = /^\s*[#<]|-->\s*$/;
/** The start of a line that only continues a list of code spans (`` `a`, `b` or `` up to the match). */
const SPAN_LIST_CONTINUES = /^\s{0,8}(?:`[^`\n]{1,80}`\s{0,3}(?:[,;/]\s{0,3}|(?:or|and|nor)\s{1,3})?){0,12}`?$/;
/** A line that ends its sentence or introduces what follows. */
const SENTENCE_END = /[.!?:;]["'`*_)\]]{0,3}\s*$/;

/**
 * The end of the previous line when line `idx` (0-based) continues its sentence, else ''. A wrapped
 * prohibition ("Never add `--extra-index-url`,\n`--trusted-host` or …") negates the names it wraps onto.
 * Read once per line: it tests the whole line above, and a line may have many hits.
 */
const wrappedSentenceLead = perLine((ctx: ScanContext, idx: number): string => {
  if (idx === 0) return '';
  const prev = ctx.lines[idx - 1] ?? '';
  const here = ctx.lineInfo[idx];
  const above = ctx.lineInfo[idx - 1];
  if (prev.trim() === '' || SENTENCE_END.test(prev) || BLOCK_START.test(ctx.lines[idx] ?? '') || MARKUP_LINE.test(prev)) return '';
  if (!here || !above || here.inFence || above.inFence || here.inFrontmatter || above.inFrontmatter) return '';
  return prev.length > 240 ? prev.slice(prev.length - 240) : prev;
});

/** isNegatedAt over the line and, when the line continues a sentence from the line above, that line's end too. */
export function isNegatedInSentence(ctx: ScanContext, line: number, evidence: string, column?: number): boolean {
  const lineText = ctx.lines[line - 1] ?? '';
  if (isNegatedAt(lineText, evidence, column)) return true;
  const lead = wrappedSentenceLead(ctx, line - 1);
  if (lead === '') return false;
  // Only a list of named constructs continuing onto this line joins the lead: code spans, commas, "or".
  const at = evidenceAt(lineText, evidence.slice(0, 40), column);
  const head = at < 0 ? '' : lineText.slice(0, at);
  if (!head.includes('`') || !SPAN_LIST_CONTINUES.test(head)) return false;
  return isNegatedAt(`${lead} ${lineText}`, evidence, at < 0 ? undefined : lead.length + 1 + at);
}

/** Before this offset a line's marks are counted in place; past it, from the line's mark index. */
const INDEXED_FROM = 256;

/**
 * Offsets of one character in the last text asked about. A rule's hits on one long line come one
 * after another, and counting the quotes or backticks before each hit from the line's start made a
 * line dense with hits quadratic (the worst-case harness's `*:examples/lines`).
 */
class MarkIndex {
  private text = '';
  private offsets: number[] = [];
  constructor(private readonly mark: string) {}

  private of(text: string): readonly number[] {
    if (text !== this.text) {
      this.text = text;
      this.offsets = [];
      for (let k = text.indexOf(this.mark); k >= 0; k = text.indexOf(this.mark, k + 1)) this.offsets.push(k);
    }
    return this.offsets;
  }

  /** How many marks lie in [from, to). */
  countIn(text: string, from: number, to: number): number {
    const offsets = this.of(text);
    return firstAtLeast(offsets, to) - firstAtLeast(offsets, from);
  }

  /** The offset of the last mark before `to`, or -1. */
  lastBefore(text: string, to: number): number {
    const offsets = this.of(text);
    const k = firstAtLeast(offsets, to);
    return k > 0 ? offsets[k - 1]! : -1;
  }
}

const STRAIGHT_QUOTES = new MarkIndex('"');
const OPENING_QUOTES = new MarkIndex('“');
const CLOSING_QUOTES = new MarkIndex('”');
const BACKTICKS = new MarkIndex('`');

/** The match sits inside a quotation ("…", “…”) on its line: it is mentioned, not used. */
export function isQuotedMention(lineText: string, evidence: string, column?: number): boolean {
  const at = evidenceAt(lineText, evidence.slice(0, 30), column);
  if (at <= 0) return false;
  if (at >= INDEXED_FROM)
    return STRAIGHT_QUOTES.countIn(lineText, 0, at) % 2 === 1 || OPENING_QUOTES.lastBefore(lineText, at) > CLOSING_QUOTES.lastBefore(lineText, at);
  // Counted in place: a copy of the text before the match per hit is costly on long lines.
  let straight = 0;
  for (let k = lineText.indexOf('"'); k >= 0 && k < at; k = lineText.indexOf('"', k + 1)) straight++;
  return straight % 2 === 1 || lineText.lastIndexOf('“', at - 1) > lineText.lastIndexOf('”', at - 1);
}

/**
 * The match is a name standing alone in an inline code span of a prose line (`--yolo`,
 * `<system-reminder>`): the text talks about the flag or tag instead of using it. Only for rules
 * whose evidence is a name; a whole command in a code span is still a command.
 */
export function isNamedInCodeSpan(ctx: ScanContext, line: number, evidence: string): boolean {
  if (ctx.executable || ctx.lineInfo[line - 1]?.inFence) return false;
  const text = ctx.lines[line - 1] ?? '';
  return evidence.length > 0 && (text.includes(`\`${evidence}\``) || text.includes(`\`${evidence}=`));
}

/**
 * A quoted phrase cited as a sample of hostile text: right after a citation marker ("language like
 * "…"", "patterns resembling "…"", "e.g. "…"", also when the quote opens the next wrapped line), in
 * lines that, outside the quotes, say to flag, ignore, redact or reject it. A security instruction
 * names what to catch; it does not say it.
 */
export function isCitedForDefense(ctx: ScanContext, line: number, evidence: string, column?: number): boolean {
  const lineText = ctx.lines[line - 1] ?? '';
  const at = evidenceAt(lineText, evidence.slice(0, 30), column);
  if (at < 0 || !isQuotedMention(lineText, evidence, column)) return false;
  const quoteAt = Math.max(lineText.lastIndexOf('"', at), lineText.lastIndexOf('“', at));
  let before = lineText.slice(Math.max(0, quoteAt - 40), Math.max(0, quoteAt));
  if (before.trim() === '' && line > 1) before = (ctx.lines[line - 2] ?? '').slice(-40);
  const words = LAST_WORDS_RE.exec(before.toLowerCase());
  if (!words) return false;
  // Markers are read as the lexicon's tokens ("e.g." is "e g").
  const marker = (words[3] ?? words[2])
    .split('.')
    .filter((t) => t !== '')
    .join(' ');
  const pair = words[1] !== undefined ? `${words[1]} ${words[2]}` : '';
  if (!CITATION_MARKER.has(marker) && !CITATION_MARKER.has(pair)) return false;
  const around = [ctx.lines[line - 2] ?? '', lineText, ctx.lines[line] ?? ''].join(' ').replace(QUOTED_SPAN_RE, ' ');
  for (const w of around.matchAll(DEFENSE_WORD_RE)) if (DEFENSE_VERB.has(w[0].toLowerCase())) return true;
  return false;
}

/** After a list of code spans: the passive that says what is done to them ("must be rejected"). */
const SPAN_LIST_PREDICATE_RE = /^(?:must|should|shall|will|are|is|gets?)\s{1,3}(?:be\s{1,3})?([a-z]{2,14})\b/i;
const SPAN_LIST_JOINER_RE = /^(?:,|;|\/|or\b|and\b|\s)/i;

/** Position `to` of `text` is inside an inline code span opened in text[from, to): an odd number of backticks there. */
export function insideCodeSpan(text: string, from: number, to: number): boolean {
  if (to - from >= INDEXED_FROM) return BACKTICKS.countIn(text, from, to) % 2 === 1;
  let ticks = 0;
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === 96) ticks++;
  return ticks % 2 === 1;
}

/**
 * The match sits in an inline code span of a list of payloads that the line says are to be
 * rejected, blocked or flagged ("`; rm -rf /`, `$(curl …)` must be rejected"): a test payload
 * named to be caught. The predicate must follow the list of spans directly.
 */
export function isPayloadNamedToBeCaught(lineText: string, evidence: string, column?: number): boolean {
  const at = evidenceAt(lineText, evidence.slice(0, 40), column);
  if (at < 0 || !insideCodeSpan(lineText, 0, at)) return false;
  let k = lineText.indexOf('`', at);
  if (k < 0) return false;
  k++;
  // Step over further spans and their joiners ("`a`, `b` or `c`"), linearly.
  for (;;) {
    const rest = lineText.slice(k, k + 8);
    const joiner = SPAN_LIST_JOINER_RE.exec(rest);
    if (joiner) {
      k += joiner[0].length;
      continue;
    }
    if (lineText[k] !== '`') break;
    const close = lineText.indexOf('`', k + 1);
    if (close < 0) return false;
    k = close + 1;
  }
  const predicate = SPAN_LIST_PREDICATE_RE.exec(lineText.slice(k, k + 60));
  return predicate !== null && DEFENSE_VERB.has(predicate[1].toLowerCase());
}

const DETECTION_NOUN = lexiconWords('detection-noun');
const CATALOGUE_LIST_ITEM = /^\s{0,12}(?:[-*+]|\d{1,3}[.)])\s/;
/** Code spans and quotations of a line: the catalogued material, not what the line says about it. */
const CITED_SPAN_RE = /`[^`\n]{0,300}`|"[^"\n]{0,300}"|“[^”\n]{0,300}”/g;
const CATALOGUE_LINES = new WeakMap<ScanContext, Uint8Array>();

/** The text, outside its code spans and quotations, has a word of `a` and (when given) one of `b`. */
function saysWith(text: string, a: ReadonlySet<string>, b?: ReadonlySet<string>): boolean {
  let hasA = false;
  let hasB = b === undefined;
  for (const w of text.slice(0, 400).replace(CITED_SPAN_RE, ' ').matchAll(DEFENSE_WORD_RE)) {
    const word = w[0].toLowerCase();
    hasA ||= a.has(word);
    if (b) hasB ||= b.has(word);
    if (hasA && hasB) return true;
  }
  return false;
}

/**
 * Lines that are entries of a catalogue of what a guard catches, computed for the whole file in one
 * forward pass: rows of a table whose header row or section heading names patterns, threats or
 * payloads ("| Category | Key Patterns |", "## Threat Categories"), and items of a list whose
 * lead-in says they are caught ("scans every call against these threat patterns:"). A security
 * tool's own detection list names the technique; it does not order it.
 */
function catalogueLines(ctx: ScanContext): Uint8Array {
  let marks = CATALOGUE_LINES.get(ctx);
  if (marks) return marks;
  marks = new Uint8Array(ctx.lines.length);
  let table = false;
  let lead = false;
  for (let i = 0; i < ctx.lines.length; i++) {
    const info = ctx.lineInfo[i];
    const line = ctx.lines[i];
    if (!info || info.inFence || info.inFrontmatter) {
      table = lead = false;
      continue;
    }
    if (info.table) {
      if (!ctx.lineInfo[i - 1]?.table) table = saysWith(line, DETECTION_NOUN) || saysWith(info.heading, DETECTION_NOUN);
      if (table) marks[i] = 1;
      continue;
    }
    table = false;
    if (!NOT_BLANK_RE.test(line)) continue;
    if (CATALOGUE_LIST_ITEM.test(line)) {
      if (lead) marks[i] = 1;
    } else if (line.trimEnd().endsWith(':')) lead = saysWith(line, DETECTION_NOUN, DEFENSE_VERB);
    // A wrapped line of a list item keeps the list; any other paragraph ends it.
    else if (!CONTINUED_ITEM_RE.test(line)) lead = false;
  }
  CATALOGUE_LINES.set(ctx, marks);
  return marks;
}
const NOT_BLANK_RE = /\S/;
const CONTINUED_ITEM_RE = /^\s{2,12}\S/;

/** The line is an entry of a table or list that catalogues what a guard catches (catalogueLines). */
export function isCatalogueEntry(ctx: ScanContext, line: number): boolean {
  return !ctx.executable && catalogueLines(ctx)[line - 1] === 1;
}

/** The match is quoted (a code span or a quotation) in an entry of a detection catalogue. */
function quotedInCatalogue(ctx: ScanContext, line: number, evidence: string, column?: number): boolean {
  if (!isCatalogueEntry(ctx, line)) return false;
  const lineText = ctx.lines[line - 1] ?? '';
  const at = evidenceAt(lineText, evidence.slice(0, 40), column);
  return at >= 0 && (insideCodeSpan(lineText, 0, at) || isQuotedMention(lineText, evidence, column));
}

export interface ContextInputs {
  line: number;
  evidence: string;
  /** Where the match stands on its line (RuleHit.column), when the rule knows. */
  column?: number;
  hardBlock: boolean;
  educationalFile: boolean;
  /** The rule's own pattern is phrased negatively ("do not tell the user"): skip the negation test. */
  inherentNegation?: boolean;
}

export function determineContext(ctx: ScanContext, input: ContextInputs): FindingContext {
  if (input.hardBlock || ctx.executable) return 'direct';
  const idx = input.line - 1;
  const lineText = ctx.lines[idx] ?? '';
  const info = ctx.lineInfo[idx];
  if (inDenyList(ctx, input.line)) return 'deny_list';
  if (!input.inherentNegation && isNegatedInSentence(ctx, input.line, input.evidence, input.column)) return 'negated';
  if (!info) return 'direct';
  // A list item under a prohibition line ("Never do the following:", a bold "**MUST NOT**" label)
  // inherits its polarity.
  if (/^\s*(?:[-*+]|\d+[.)])\s/.test(lineText) && idx > 0) {
    for (let i = idx - 1, steps = 0; i >= 0 && steps < 15; i--, steps++) {
      const prev = ctx.lines[i];
      if (/^\s*(?:[-*+]|\d+[.)])\s/.test(prev)) continue;
      if ((prev.trim().endsWith(':') || BOLD_LABEL_RE.test(prev)) && NEGATION_BEFORE.test(prev)) return 'negated';
      break;
    }
  }
  if (info.sectionKind === 'anti_pattern') return 'anti_pattern';
  if (
    isQuotedMention(lineText, input.evidence, input.column) &&
    (info.table || /^\s*(?:[-*+]|\d+[.)])\s/.test(lineText) || input.educationalFile || info.blockquote)
  ) {
    return 'quoted_education';
  }
  if (info.sectionKind === 'education') return 'quoted_education';
  if (isCitedForDefense(ctx, input.line, input.evidence, input.column)) return 'quoted_education';
  if (info.blockquote && EDUCATION_LINE.test(lineText)) return 'quoted_education';
  if (input.educationalFile && (info.inFence || info.blockquote || info.table || EDUCATION_LINE.test(lineText))) {
    return 'quoted_education';
  }
  // Agents read fenced examples in their own instruction files as instructions, so only
  // documents (READMEs, guides) get the documentation-example discount.
  if (info.inFence && ctx.kind === 'document') return 'documentation_example';
  return 'direct';
}

/**
 * A hard-block pattern quoted as attack material in a security reference document: the file is a
 * document (a skill's reference, a guide; not the agent's own instruction file, not a script) and
 * the line is marked as cited — prohibited, under an anti-pattern or attack heading, or an
 * instruction the instruction layer reads as a quotation ("The attacker can also chain commands:");
 * or, in a file about attacks (isEducationalFile), on a line naming attackers or threats or cited to be caught.
 * In any prose file, agent instructions included, a test payload listed to be rejected
 * (isPayloadNamedToBeCaught) is cited too. Such a hit is recorded with that context and never
 * hard-blocks; null leaves the hit to determineContext. Applies to every rule's hits, hard block or not.
 */
export function citedAttackContext(ctx: ScanContext, input: ContextInputs, quotedByInstructionLayer: (line: number) => boolean): FindingContext | null {
  if (ctx.executable) return null;
  const info = ctx.lineInfo[input.line - 1];
  if (!info || info.inFrontmatter) return null;
  const lineText = ctx.lines[input.line - 1] ?? '';
  // In any prose file, agent instructions included: test payloads listed to be rejected, and the
  // quoted entries of a guard's detection catalogue.
  if (!info.inFence && (isPayloadNamedToBeCaught(lineText, input.evidence, input.column) || quotedInCatalogue(ctx, input.line, input.evidence, input.column)))
    return 'quoted_education';
  if (ctx.kind !== 'document') return null;
  if (!input.inherentNegation && isNegatedAt(lineText, input.evidence, input.column)) return 'negated';
  if (info.sectionKind === 'anti_pattern') return 'anti_pattern';
  if (info.sectionKind === 'education' || quotedByInstructionLayer(input.line)) return 'quoted_education';
  if (!input.educationalFile) return null;
  return EDUCATION_LINE.test(lineText) || isCitedForDefense(ctx, input.line, input.evidence, input.column) ? 'quoted_education' : null;
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const CONTEXT_REGEXES: readonly RegExp[] = [
  BLOCK_START,
  CLAUSE_OPENER,
  MARKUP_LINE,
  SPAN_LIST_CONTINUES,
  SENTENCE_END,
  SPAN_LIST_PREDICATE_RE,
  SPAN_LIST_JOINER_RE,
  QUOTED_SPAN_RE,
  LAST_WORDS_RE,
  DEFENSE_WORD_RE,
  NEGATION_BEFORE,
  EDUCATION_LINE,
  DENY_KEY,
  YAML_DENY_KEY,
  EDUCATIONAL_FILE,
  BOLD_LABEL_RE,
  CATALOGUE_LIST_ITEM,
  CITED_SPAN_RE,
  NOT_BLANK_RE,
  CONTINUED_ITEM_RE,
];
