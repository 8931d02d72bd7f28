/**
 * The instruction layer: a file's prose split into instructions (sentences, list items, table
 * cells, frontmatter values, headings, HTML comments, comments in scripts and fenced code), each
 * with its 1-based line, the lexicon classes it states (the slots of its semantic frame), who it
 * addresses and its mood. Built once per file, in one pass over the tokens; frame rules read it.
 */
import type { FindingContext } from '../engine/scan-report.types';
import { lexiconMatcher, lexiconWords, nextToken, type LexiconClass, type LexiconMatch } from '../lexicons/lexicon';
import { determineContext, isCitedForDefense, isEducationalFile, isQuotedMention } from '../rules/context-layer';
import { perLine } from '../rules/regex-rule';
import type { ScanContext } from '../views/scan-context';
import { firstAtLeast } from '../views/line-index';
import { FORMAT_CHARS_RE, skeleton } from '../views/normalize';

export type Addressee = 'agent' | 'human';
/** A lexicon class, or a slot derived from two of them standing together. */
export type SlotClass = LexiconClass | 'weaken-control' | 'override-instructions' | 'destination-address';
export type Mood = 'directive' | 'description' | 'prohibition' | 'example' | 'quotation';

/** One lexicon phrase found in an instruction: a filled slot of its frame. */
export interface SlotHit {
  cls: SlotClass;
  /** 1-based line of the phrase's first token. */
  line: number;
  /** The phrase as written (lower-cased tokens). */
  text: string;
  /** A negation before it in the same instruction ("never send …", "credentials are not sent"). */
  negated: boolean;
  /** The word before it is "that" or "which": a relative clause describing a thing ("values that disable security"). */
  relative?: boolean;
  /** Index of its first token in the file's token stream: one word fills one slot of a frame. */
  at?: number;
  /** Index past its last token. */
  end?: number;
  /** A means of the step, not what it moves ("publish it using the deploy token"). */
  instrument?: boolean;
  /**
   * Concealment only: the phrase points back at what was done ("do not tell the user", "keep this
   * quiet") instead of holding its own subject or object ("the field must be omitted", "the diff
   * doesn't tell the whole story"). Only such a phrase reaches past its window.
   */
  refersBack?: boolean;
  /** Quiet adverbs only: token index of the act right after it ("has silently truncated values"), which it describes. */
  modifies?: number;
}

export interface Instruction {
  /** 1-based line of the first token. */
  line: number;
  /** Paragraph or list (with its lead-in line): frames may span adjacent instructions of one block. */
  block: number;
  /** Heading section: modifiers such as concealment may come from anywhere in it. */
  section: number;
  addressee: Addressee;
  /**
   * Prohibition (a negated action, an anti-pattern section), quotation (an attack described as
   * what attackers or vulnerabilities do, here or in the list's lead-in line), example (fenced or
   * example section of a document), else directive (starts with an action) or description.
   */
  mood: Mood;
  /** List items: the 1-based line of the lead-in that introduces the list ("Attackers can:"). */
  leadLine?: number;
  /** List items: the index, in the file's instructions, of their lead-in; frames read the two together. */
  leadIndex?: number;
  /** Asked, not told ("Does it disable security?"): read as a description. */
  question: boolean;
  /** A lead-in whose negation governs no act of its own ("Never do the following:", "Folgendes ist verboten:"): its list items are prohibitions. */
  forbids?: boolean;
  /**
   * A paragraph that names a numbered step of a list above it ("Step 1 also covers the API
   * keys."): the index, in the file's instructions, of that list item. Frames read the two together.
   */
  refersTo?: number;
  slots: readonly SlotHit[];
  /** Slot classes present (un-negated hits only). */
  classes: ReadonlySet<SlotClass>;
}

export interface InstructionSet {
  instructions: Instruction[];
  /** Classes present anywhere in a section (un-negated), by section number. */
  sectionClasses: Map<number, Set<SlotClass>>;
  /** Classes present anywhere in the file (un-negated). */
  fileClasses: Set<SlotClass>;
  /** Instruction index → the instructions that refer back to it by its step number (`refersTo`). */
  referrers: Map<number, number[]>;
  /** Classes present anywhere in a block (un-negated), by block number: what "there" may point back to. */
  blockClasses: Map<number, Set<SlotClass>>;
  /** Why part of the prose was not read as instructions (the file's budget ran out), or undefined. */
  incomplete?: string;
}

/** Classes whose phrases carry their own negation ("do not mention", "without asking"): never negated by it. */
const SELF_NEGATING: ReadonlySet<LexiconClass> = new Set<LexiconClass>(['concealment', 'consent-bypass', 'persona-unrestricted', 'negation']);
/** Quiet adverbs ("silently") also describe harmless background work: they count next to an action only, never section-wide. */
const WINDOW_ONLY: ReadonlySet<SlotClass> = new Set<SlotClass>(['stealth']);
/** A negation this many tokens before a phrase, within its instruction, makes it a prohibition. */
const NEGATION_REACH = 6;
/** A verb and its object form one derived slot when at most this many tokens lie between them. */
const PAIR_GAP = 4;
/** Verb class, object class and the slot they form together. */
const DERIVED_PAIRS: readonly (readonly [LexiconClass, LexiconClass, SlotClass])[] = [
  ['action-weaken', 'object-control', 'weaken-control'],
  ['action-disregard', 'object-instructions', 'override-instructions'],
];

const AGENT_SUBJECT = lexiconWords('agent-subject');
const HUMAN_SUBJECT = lexiconWords('human-subject');
const SUBJECT_ARTICLE = lexiconWords('subject-article');
const QUESTION_START = lexiconWords('question-start');
const RELATIVE = lexiconWords('relative-pronoun');
/** Nouns that open a checklist item naming a technique rather than ordering it. */
const TECHNIQUE_NOUN = lexiconWords('technique-noun');
/** First words of a paragraph that continues the one before it. */
const CONTINUATION = lexiconWords('continuation-word');

/** Second words that refer back to what the paragraph before named ("Paste them …", "Send it …"). */
const BACK_REFERENCE = lexiconWords('back-reference');
/** Words after a concealment phrase that still point back at the act ("… about this", "… any of it"). */
const POINTS_BACK = new Set([...BACK_REFERENCE, ...lexiconWords('points-back')]);
/** Words between a concealment phrase and what it points at: the person kept uninformed, a preposition. */
const PERSON_OR_LINK = new Set([...HUMAN_SUBJECT, ...lexiconWords('person-or-link')]);
/** Words that point back only when they end the clause ("… does not need to know why"). */
const POINTS_BACK_ALONE = lexiconWords('points-back-alone');

const OCTET = /^\d{1,3}$/;
/** Nouns that name a numbered item of a list ("Step 1", "item 2"). */
const STEP_NOUN = lexiconWords('step-noun');
/** Seven letters in a row each followed by one space ("i g n o r e"): letter-spaced text, read with the spaces taken out. */
const LETTER_SPACED = /(?:^|\s)(?:\S ){6}\S/;
const WORD_GAP = / {2,}/;
const WORD_CHAR = /[\p{L}\p{N}_-]/u;

/**
 * A URL whose host is a public IP address ("http://203.0.113.7/in"): a destination outside the
 * user's control (no name, no vendor). Loopback and private ranges are the user's own machines.
 */
function publicIpUrlAt(tokens: readonly string[], from: number, to: number): number {
  for (let k = from; k + 4 < to; k++) {
    if (tokens[k] !== 'http' && tokens[k] !== 'https') continue;
    const octets = tokens.slice(k + 1, k + 5);
    if (!octets.every((o) => OCTET.test(o) && Number(o) <= 255)) continue;
    const [a, b] = octets.map(Number);
    const privateRange = a === 10 || a === 127 || a === 0 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
    if (!privateRange) return k;
  }
  return -1;
}

const LOCAL_HOSTS = lexiconWords('local-host');

/**
 * Schemes of a written address data can be sent to: web URLs and object-store buckets
 * (`s3://`, `gs://`, `az://`, …), which leave the machine just the same.
 */
const URL_SCHEMES = lexiconWords('url-scheme');

/**
 * A URL to a named host outside the user's machine ("https://notes.team.example/api"): an address
 * data can leave to. Whose host it is stays open, so frames use it only with stronger intent.
 */
function hostUrlAt(ctx: ScanContext, tokens: readonly string[], tokenLine: TokenLines, facts: TokenFacts, from: number, to: number): number {
  for (let k = from; k + 2 < to; k++) {
    if (!has(facts, k, ON_URL_LINE) || !URL_SCHEMES.has(tokens[k])) continue;
    const host = tokens[k + 1];
    // "the HTTP layer" names a protocol and `aws s3 cp` a command; only a written URL names a host.
    if (!loweredLine(ctx, tokenLine[k]).includes(`${tokens[k]}://${host}`)) continue;
    if (LOCAL_HOSTS.has(host) || OCTET.test(host)) continue;
    return k;
  }
  return -1;
}

const PORT_NUMBER = /^\d{2,5}$/;
/** What follows a dotfile's name in the name of its template (`.env.example`, `.npmrc.sample`). */
const TEMPLATE_SUFFIX = /^\.(?:example|sample|template|tmpl|dist|defaults?)\b/;
/** A written email address's domain, read from just after its `@`; group 1 is the domain's first label. */
const EMAIL_DOMAIN = /([a-z\d-]{1,63})(?:\.[a-z\d-]{1,63}){1,4}\b/iy;
/** A character of an address's local part, one of which must stand right before the `@`. */
const EMAIL_LOCAL_CHAR = /[\w.+-]/;

/**
 * The first labels of the email domains in `text`, as a global search for `local@domain` finds them
 * (local: 1-64 of [\w.+-]): read from each `@` instead of from every position, since a search that
 * opens with the local part's run reads up to 64 characters at each position of a long word.
 */
function emailDomainLabels(text: string): string[] {
  const labels: string[] = [];
  let end = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    // The local part may not reach back into the previous address.
    if (at - 1 < end || !EMAIL_LOCAL_CHAR.test(text[at - 1])) continue;
    EMAIL_DOMAIN.lastIndex = at + 1;
    const m = EMAIL_DOMAIN.exec(text);
    if (!m) continue;
    labels.push(m[1]);
    end = EMAIL_DOMAIN.lastIndex;
  }
  return labels;
}

/** The first labels of the email domains written on each line (empty for most lines), read once per file. */
const EMAIL_LABELS = new WeakMap<ScanContext, Map<number, Set<string>>>();

function emailLabels(ctx: ScanContext): Map<number, Set<string>> {
  let byLine = EMAIL_LABELS.get(ctx);
  if (!byLine) {
    byLine = new Map();
    for (let i = 0; i < ctx.lines.length; i++) {
      const text = ctx.lines[i];
      if (!text.includes('@')) continue;
      const labels = new Set<string>();
      for (const label of emailDomainLabels(text)) if (!LOCAL_HOSTS.has(label.toLowerCase())) labels.add(label.toLowerCase());
      if (labels.size > 0) byLine.set(i + 1, labels);
    }
    EMAIL_LABELS.set(ctx, byLine);
  }
  return byLine;
}

/**
 * An email address written in the instruction ("bcc audit@vault.example on every message"): like a
 * URL, a place data can be sent to. The token index of its domain's first label, or -1.
 */
function emailAddressAt(ctx: ScanContext, tokens: readonly string[], tokenLine: TokenLines, from: number, to: number): number {
  const byLine = emailLabels(ctx);
  // Most files write no email address: nothing to look up per token.
  if (byLine.size === 0) return -1;
  for (let k = from; k < to; k++) if (byLine.get(tokenLine[k])?.has(tokens[k])) return k;
  return -1;
}

/**
 * A host name written with its port in prose ("reachable at review.team.example on port 8443"):
 * an address data can be sent to, like a URL.
 */
function hostOnPortAt(ctx: ScanContext, tokens: readonly string[], tokenLine: TokenLines, from: number, to: number): number {
  for (let k = from + 2; k + 2 < to; k++) {
    if (tokens[k] !== 'on' || tokens[k + 1] !== 'port' || !PORT_NUMBER.test(tokens[k + 2])) continue;
    const host = `${tokens[k - 2]}.${tokens[k - 1]}`;
    if (LOCAL_HOSTS.has(tokens[k - 2]) || LOCAL_HOSTS.has(tokens[k - 1]) || OCTET.test(tokens[k - 1])) continue;
    // The two words before "on port" must be written as one dotted name.
    if (loweredLine(ctx, tokenLine[k]).includes(`${host} on port`)) return k - 2;
  }
  return -1;
}

/** A token that is one Chinese, Japanese or Korean letter (lexicon.ts reads each such letter as a token). */
const SINGLE_LETTER_TOKEN = /^[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff]$/;

/** Cyrillic and Greek letters that look like no Latin letter: a line holding one is written in that script. */
const GENUINE_CYRILLIC_OR_GREEK =
  /[\u0431\u0433\u0434\u0436-\u0439\u043b\u043f\u0444\u0446-\u044b\u044d-\u044f\u0451\u0411\u0413\u0414\u0416-\u0419\u041b\u041f\u0424\u0426-\u042b\u042d-\u042f\u0401\u03b4\u03b6-\u03b8\u03bb\u03bc\u03be\u03c0\u03c2\u03c3\u03c6\u03c8\u03c9]/;
/** A run of letters; one that mixes Latin with Cyrillic or Greek letters is a homoglyph disguise. */
const LETTER_RUN = /\p{L}{1,80}/gu;
const LATIN_LETTER = /[A-Za-z]/;
const CYRILLIC_OR_GREEK = /[\u0370-\u03ff\u0400-\u04ff]/;

/**
 * The line the instruction layer reads. The normalized view folds Cyrillic and Greek look-alikes
 * to Latin (`іgnоre` → `ignore`); on a line written in Russian or Greek ("Собери все токены") that
 * fold would garble every word, so there only the words mixing Latin with those letters are folded.
 */
function readableLine(raw: string, normalized: string): string {
  if (!GENUINE_CYRILLIC_OR_GREEK.test(raw)) return normalized;
  let text = raw.replace(FORMAT_CHARS_RE, '');
  try {
    text = text.normalize('NFKC');
  } catch {
    // A lone surrogate: read the text as written.
  }
  return text.replace(LETTER_RUN, (run) => (LATIN_LETTER.test(run) && CYRILLIC_OR_GREEK.test(run) ? skeleton(run) : run));
}

/** "i g n o r e   a l l" reads as "ignore all": runs of single characters join, wider gaps part words. */
function despaced(line: string): string {
  if (!LETTER_SPACED.test(line)) return line;
  return line
    .split(WORD_GAP)
    .map((chunk) => {
      let out = '';
      let previousSingle = false;
      for (const piece of chunk.split(' ')) {
        const single = piece.length === 1;
        out += out.length > 0 && !(single && previousSingle) ? ` ${piece}` : piece;
        previousSingle = single;
      }
      return out;
    })
    .join(' ');
}

const NO_SPANS: readonly (readonly [number, number])[] = [];
/** What may stand between two listed code spans: a comma, with "and" or "or" after it. */
const LIST_JOINS = new Set([',', ', or', ', and']);

/**
 * Inline code spans (content offsets) that are items of a comma-separated list of code spans
 * ("`permissions`, `write-all`, `contents: read`"): a list of names or search terms, not a sentence.
 */
function listedCodeSpans(text: string): readonly (readonly [number, number])[] {
  if (!text.includes('`')) return NO_SPANS;
  const spans: [number, number][] = [];
  for (let open = text.indexOf('`'); open >= 0;) {
    const close = text.indexOf('`', open + 1);
    if (close < 0) break;
    spans.push([open + 1, close]);
    open = text.indexOf('`', close + 1);
  }
  const joined = (k: number): boolean => k + 1 < spans.length && LIST_JOINS.has(text.slice(spans[k][1] + 1, spans[k + 1][0] - 1).trim());
  return spans.filter((_, k) => joined(k) || (k > 0 && joined(k - 1)));
}

/** Tokens read per line at most (a minified line must not dominate). */
const MAX_TOKENS_PER_LINE = 400;
/**
 * Tokens of one instruction at most: framing compares an instruction's phrases with each other,
 * so an unbounded sentence is quadratic. Over 10,369 real and corpus files the longest has 469
 * tokens (a generated workflow lock file); prose sentences stay under 300.
 */
const MAX_INSTRUCTION_TOKENS = 512;

/**
 * Lower-cased with typographic apostrophes straightened; when lower-casing would shift offsets
 * (a few characters such as İ) the text stays as written and each token is lower-cased instead.
 */
function lowerSameLength(text: string): { text: string; lowered: boolean } {
  const straight = text.includes('\u2019') ? text.replace(/\u2019/g, "'") : text;
  const lower = straight.toLowerCase();
  return lower.length === straight.length ? { text: lower, lowered: true } : { text: straight, lowered: false };
}

/** The first two words of a text, lower-cased. */
function leadingWords(text: string): [string, string] {
  const span: [number, number] = [0, 0];
  const first = nextToken(text, 0, span) >= 0 ? text.slice(span[0], span[1]).toLowerCase() : '';
  const second = first !== '' && nextToken(text, span[1], span) >= 0 ? text.slice(span[0], span[1]).toLowerCase() : '';
  return [first, second];
}

/** A paragraph that continues the one before: it opens with a back-reference or a verb acting on one. */
function continuesBlock(text: string): boolean {
  const [first, second] = leadingWords(text);
  return CONTINUATION.has(first) || BACK_REFERENCE.has(second);
}
const MODAL = lexiconWords('modal-verb');
const ABBREVIATION = lexiconWords('abbreviation');

/** A Markdown list item's line. */
export const LIST_ITEM = /^\s{0,12}(?:[-*+]|\d{1,3}[.)])\s/;
/** A Markdown heading's line. */
export const HEADING = /^\s{0,3}#{1,6}\s/;
/** A Markdown table's separator row (`|---|:--|`). */
export const TABLE_SEPARATOR = /^\s{0,3}\|?[\s:|-]{3,}$/;
const FRONTMATTER_FIELD = /^\s{0,8}(?:- )?[\w.-]{1,40}:\s?/;
const SCRIPT_COMMENT = /^\s{0,40}(?:#(?!!)|\/\/|--\s|;;|\/\*|\*\s|<!--)/;
/** A string literal holding prose (checked for at least four words). */
const STRING_LITERAL = /"([^"\n\\]{12,600})"|'([^'\n\\]{12,600})'/g;
/** A JSON string value, escapes included ("p\u00e1salo"), decoded before it is read. */
const JSON_STRING = /"((?:[^"\\\n]|\\.){12,600})"/g;
const MODEL_FACING_FIELD = /\b(?:description|instructions?|prompt|system_prompt|system|summary|help|title)["']?\s{0,3}[=:]/i;
const TRIPLE_QUOTE = /"""|'''/g;
const FENCE_EDGE = /^\s{0,3}(?:```|~~~)/;

const TREE_DRAWING = /[\u2500-\u257f]/;
/** A Title-Case name in double quotes and the word after it ("Information Sources" section). */
const QUOTED_TITLE = /"([A-Z][\w'-]{0,30}(?: [A-Z][\w'-]{0,30}){0,5})" {1,3}([a-z]{2,12})/g;
const DOCUMENT_PART = lexiconWords('document-part');
const URGING_VERB = lexiconWords('urging-verb');
const RESTRICTOR = lexiconWords('restrictor');
/** The gap between two tokens holds a list or clause break. */
const CLAUSE_BREAK = /[,;:()\u2013\u2014]|\s-\s/;
/** Full-width and ideographic marks that break a clause of Chinese or Japanese like their ASCII twins. */
const WIDE_CLAUSE_BREAK = /[\u3001\u3002\uff0c\uff1b\uff1a\uff08\uff09\uff01\uff1f]/;
/** One letter of Chinese, Japanese or Korean, each a token of its own. */
const SPACELESS_LETTER = /^[\u3041-\ufaff]$/;
/** Terminal punctuation, then only space, to the end of the line. */
const TERMINAL_TAIL = /[.!?;:|]\s*$/g;
/** A file listing line: a path, then a comment ("json.ts  # report formats"). */
const FILE_LISTING = /^\s{0,40}[\w.-]{1,80}(?:\/[\w.-]{1,80}){0,8}\/?\s{1,40}#/;
const PROSE_FENCES = new Set(['', 'text', 'txt', 'markdown', 'md', 'prompt', 'plain', 'plaintext', 'none']);

/** Every regex of this module, for the ReDoS check in the test suite. */
export const INSTRUCTION_REGEXES: readonly RegExp[] = [
  SINGLE_LETTER_TOKEN,
  GENUINE_CYRILLIC_OR_GREEK,
  LETTER_RUN,
  LATIN_LETTER,
  CYRILLIC_OR_GREEK,
  QUOTED_TITLE,
  CLAUSE_BREAK,
  PORT_NUMBER,
  EMAIL_DOMAIN,
  EMAIL_LOCAL_CHAR,
  TEMPLATE_SUFFIX,
  LETTER_SPACED,
  WORD_GAP,
  WORD_CHAR,
  TERMINAL_TAIL,
  JSON_STRING,
  LIST_ITEM,
  HEADING,
  TABLE_SEPARATOR,
  FRONTMATTER_FIELD,
  SCRIPT_COMMENT,
  TREE_DRAWING,
  FILE_LISTING,
  STRING_LITERAL,
  TRIPLE_QUOTE,
  FENCE_EDGE,
  MODEL_FACING_FIELD,
  OCTET,
];

/** What part of a line is prose, and whether it starts an instruction of its own. */
interface LinePart {
  text: string;
  /** The line begins a new instruction (list item, heading, cell, comment, field value). */
  breakBefore: boolean;
  /** The line begins a new block (after a blank line, a heading, a fence edge). */
  newBlock: boolean;
  heading: boolean;
}

function proseOf(ctx: ScanContext, index: number, line: string, inDocstring: boolean): LinePart | null {
  const info = ctx.lineInfo[index];
  if (!ctx.executable && ctx.language === 'markdown' && info) {
    if (info.inFrontmatter) {
      if (line.trim() === '---' || line.trim() === '...') return null;
      const field = FRONTMATTER_FIELD.exec(line);
      return field
        ? { text: line.slice(field[0].length), breakBefore: true, newBlock: true, heading: false }
        : { text: line, breakBefore: false, newBlock: false, heading: false };
    }
    if (info.inFence) {
      // Directory trees ("├── hooks.ts # rules for …") list files, not instructions.
      // Fenced text is line-oriented (templates, prompts, listings): each line is an instruction of its own.
      if (PROSE_FENCES.has(info.fenceLang ?? '') && !FENCE_EDGE.test(line) && !TREE_DRAWING.test(line) && !FILE_LISTING.test(line))
        return { text: line, breakBefore: true, newBlock: false, heading: false };
      const comment = SCRIPT_COMMENT.exec(line);
      return comment ? { text: line.slice(comment[0].length), breakBefore: true, newBlock: false, heading: false } : null;
    }
    if (HEADING.test(line)) return { text: line, breakBefore: true, newBlock: true, heading: true };
    if (info.table) return TABLE_SEPARATOR.test(line) ? null : { text: line, breakBefore: true, newBlock: false, heading: false };
    const quoted = info.blockquote ? line.replace(/^\s{0,3}>\s?/, '') : line;
    return { text: quoted, breakBefore: LIST_ITEM.test(quoted) || line.trimStart().startsWith('<!--'), newBlock: false, heading: false };
  }
  if (ctx.language === 'json') {
    // Tool schemas and configs hold prose in their string values (descriptions, defaults, enum
    // entries) that the model reads; keys and short values are structure.
    const strings = jsonProse(line);
    return strings ? { text: strings, breakBefore: true, newBlock: false, heading: false } : null;
  }
  if (ctx.executable) {
    if (inDocstring) return { text: line.replace(TRIPLE_QUOTE, ' '), breakBefore: false, newBlock: false, heading: false };
    const comment = SCRIPT_COMMENT.exec(line);
    if (comment) return { text: line.slice(comment[0].length), breakBefore: true, newBlock: false, heading: false };
    // Strings given to the model (tool descriptions, instructions, prompts) are prose it reads;
    // other literals (log lines, demo output) are the program talking, not instructions.
    const strings = MODEL_FACING_FIELD.test(line) ? proseStrings(line) : null;
    return strings ? { text: strings, breakBefore: true, newBlock: false, heading: false } : null;
  }
  return { text: line, breakBefore: LIST_ITEM.test(line), newBlock: false, heading: false };
}

/** At least three spaces, so at least four words split on a space (counted in place: no array of pieces). */
function hasFourWords(text: string): boolean {
  let at = -1;
  for (let spaces = 0; spaces < 3; spaces++) if ((at = text.indexOf(' ', at + 1)) < 0) return false;
  return true;
}

function jsonProse(line: string): string | null {
  let out = '';
  JSON_STRING.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = JSON_STRING.exec(line)) !== null) {
    let body = m[1];
    if (body.includes('\\')) {
      try {
        body = JSON.parse(`"${body}"`) as string;
      } catch {
        // An invalid escape: read the value as written.
      }
    }
    if (hasFourWords(body)) out += `${body}. `;
  }
  return out.length > 0 ? out : null;
}

function proseStrings(line: string): string | null {
  let out = '';
  STRING_LITERAL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = STRING_LITERAL.exec(line)) !== null) {
    const body = m[1] ?? m[2] ?? '';
    if (hasFourWords(body)) out += `${body}. `;
  }
  return out.length > 0 ? out : null;
}

/** Python docstrings: is the next line inside one? (An odd number of triple quotes toggles.) */
function docstringStateAfter(ctx: ScanContext, line: string, inside: boolean): boolean {
  if (ctx.language !== 'python' || (!line.includes('"""') && !line.includes("'''"))) return inside;
  const marks = line.match(TRIPLE_QUOTE)?.length ?? 0;
  return marks % 2 === 1 ? !inside : inside;
}

/** The text from `from` on ends with terminal punctuation (searched in place: no copy of the tail). */
function endsWithTerminal(text: string, from: number): boolean {
  TERMINAL_TAIL.lastIndex = from;
  return TERMINAL_TAIL.test(text);
}

/** Sentence ends between two tokens: terminal punctuation followed by space, or a table cell edge. */
function endsSentence(text: string, from: number, to: number, previousToken: string | undefined): boolean {
  for (let k = from; k < to; k++) {
    const c = text[k];
    if (c === '|' || c === ';' || c === '!' || c === '?') return true;
    // A dot or colon ends a sentence before a space, emphasis, a code span or the line end, never
    // inside a word ("203.0.113.9", "file.txt", "https://").
    if ((c === '.' || c === ':') && (k + 1 === text.length || text[k + 1] === ' ' || text[k + 1] === '\t' || text[k + 1] === '*' || text[k + 1] === '`')) {
      if (c === '.' && previousToken !== undefined && (ABBREVIATION.has(previousToken) || previousToken.length === 1)) continue;
      return true;
    }
  }
  return false;
}

function addresseeOf(ctx: ScanContext, tokens: readonly string[], from: number, to: number): Addressee {
  let i = from;
  while (i < to && SUBJECT_ARTICLE.has(tokens[i])) i++;
  const subject = tokens[i];
  if (subject !== undefined && HUMAN_SUBJECT.has(subject) && i + 1 < to && MODAL.has(tokens[i + 1])) return 'human';
  if (ctx.kind === 'document') return subject !== undefined && AGENT_SUBJECT.has(subject) && subject !== 'you' ? 'agent' : 'human';
  return 'agent';
}

/**
 * What the text around a token shows, one bit each, per token of the file's stream: a number per
 * token instead of a set of token indices per fact (sets were much of this layer's allocation).
 */
type TokenFacts = Readonly<ArrayLike<number>>;
/** The token continues the one before inside an identifier (joined by `_` or `.`). */
const IDENTIFIER_JOIN = 1;
/** Right after a comma ("Before setup, locate …"): where the main clause may begin. */
const AFTER_COMMA = 2;
/** Joined to the one before by a hyphen ("publicly-embedded"): one compound word. */
const HYPHEN_JOIN = 4;
/** Inside an inline code span that is one item of a comma-separated list of names. */
const LISTED_NAME = 8;
/** Written with a capital, not at the start of its line: a word of a proper name. */
const CAPITALIZED = 16;
/** After a list or clause break (comma, dash, colon, semicolon, bracket): "Security — injection, authz bypass". */
const AFTER_BREAK = 32;
/** In a quoted title naming a part of a document ("the "Information Sources" section"): a name, no act. */
const IN_TITLE = 64;
/** On a line that writes "://": only there may a token be a URL's scheme (hostUrlAt). */
const ON_URL_LINE = 128;
/** After a clause mark between two letters of Chinese, Japanese or Korean ("，", "、", "；"): those phrases ignore spaces, so one never runs across a mark. */
const AFTER_WIDE_BREAK = 256;

/** Per token of the file's stream, its 1-based line. */
type TokenLines = Readonly<ArrayLike<number>>;

/** The same values in an array twice as long. */
function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const out = new Int32Array(a.length * 2);
  out.set(a);
  return out;
}

/** Does token `k` (past the stream's end: none) have this fact? */
function has(facts: TokenFacts, k: number, fact: number): boolean {
  return ((facts[k] ?? 0) & fact) !== 0;
}

const CACHE = new WeakMap<ScanContext, InstructionSet>();

/**
 * The work of this layer per file is bounded (docs/decisions/0030-instruction-layer-work-per-file.md):
 * at most `floor + perKb × KB` instructions, and of them at most so many holding a slot. Real agent
 * files use a small part of it; a file of prose cut into a sentence every few bytes ("a|a|a|…",
 * "send|send|…") reaches it, and the prose after that point is not read as instructions: the
 * file is reported incomplete, never passed as clean.
 */
export const INSTRUCTION_BUDGET = { floor: 2048, perKb: 96 } as const;
export const SLOTTED_INSTRUCTION_BUDGET = { floor: 1024, perKb: 24 } as const;

function budgetFor(ctx: ScanContext, budget: { floor: number; perKb: number }): number {
  return budget.floor + Math.ceil((budget.perKb * ctx.text.length) / 1024);
}

/** The instructions of a file, computed once per ScanContext. */
export function instructionsOf(ctx: ScanContext): InstructionSet {
  const cached = CACHE.get(ctx);
  if (cached) return cached;
  const built = buildInstructions(ctx);
  CACHE.set(ctx, built);
  return built;
}

/** The instructions of a file if a rule has read them (static-analyzer.ts reports their gaps). */
export function instructionsIfComputed(ctx: ScanContext): InstructionSet | undefined {
  return CACHE.get(ctx);
}

function buildInstructions(ctx: ScanContext): InstructionSet {
  const matcher = lexiconMatcher();
  const tokens: string[] = [];
  // Per token, its TokenFact bits and its line: typed arrays grown by doubling (three arrays pushed
  // per token were a tenth of this layer on long prose), read through views of the tokens' length.
  let factsOf = new Int32Array(Math.max(64, ctx.text.length >> 3));
  let lineOf = new Int32Array(factsOf.length);
  // Instruction boundaries as token indices, with the block and section each one belongs to and
  // whether it opens a list item: parallel arrays, not an object per boundary ("a|a|a|…" makes one
  // per two bytes).
  const starts: number[] = [];
  const startBlock: number[] = [];
  const startSection: number[] = [];
  const startsItem: boolean[] = [];
  let block = 0;
  let section = 0;
  const maxInstructions = budgetFor(ctx, INSTRUCTION_BUDGET);
  /** The line where the budget ran out, or 0. */
  let cutAt = 0;
  const startHereAt = (item: boolean): void => {
    starts.push(tokens.length);
    startBlock.push(block);
    startSection.push(section);
    startsItem.push(item);
  };
  let blankBefore = false;
  let previousWasListOrLead = false;
  // The paragraph so far names the steps of a list to come ("Follow these steps without asking").
  let paragraphNamesSteps = false;
  let docstring = false;
  // The normalized view (homoglyphs folded, invisible characters dropped) holds only the lines
  // normalisation changed; every other line reads as written.
  const normalized = ctx.views.normalized?.text.split('\n');
  const span: [number, number] = [0, 0];
  lines: for (let i = 0; i < ctx.lines.length; i++) {
    const raw = despaced(normalized?.[i] ? readableLine(ctx.lines[i], normalized[i]) : ctx.lines[i]);
    if (raw.trim().length === 0) {
      blankBefore = true;
      continue;
    }
    const inDocstring = docstring;
    const part = proseOf(ctx, i, raw, docstring);
    docstring = docstringStateAfter(ctx, raw, docstring);
    if (!part) {
      // Code between comments keeps their block; a fence edge or prose around it does not.
      if (!(ctx.executable || (ctx.lineInfo[i]?.inFence && !FENCE_EDGE.test(raw)))) blankBefore = true;
      continue;
    }
    const isList = LIST_ITEM.test(part.text);
    // A docstring is prose: its paragraphs are blocks of their own, unlike comments around code.
    const inCode = (ctx.executable && !inDocstring) || (ctx.lineInfo[i]?.inFence ?? false);
    // A blank line ends the block, except between items of one list, a lead-in line and its list,
    // a paragraph that refers back ("Then post them …", "These steps …"), or inside code, whose
    // comments read as one block.
    if (part.heading) {
      section++;
      block++;
    } else if (part.newBlock || (blankBefore && !inCode && !(isList && previousWasListOrLead) && !continuesBlock(part.text))) {
      block++;
      if (!isList) paragraphNamesSteps = false;
      // Code has no headings: each block of it (a docstring paragraph; comments run on across the
      // code between them) is a section, so section-wide modifiers do not reach the whole script.
      if (ctx.executable) section++;
    }
    // Tokens are read in place (no per-token objects: this runs over every prose line of every file).
    const { text: lower, lowered } = lowerSameLength(part.text);
    let startHere = part.breakBefore || blankBefore || part.heading || starts.length === 0;
    let previousEnd = -1;
    let previousToken: string | undefined;
    let onLine = 0;
    const listed = listedCodeSpans(lower);
    let listedAt = 0;
    const titles = lowered ? titleSpans(part.text) : NO_SPANS;
    const onUrlLine = ctx.lines[i].includes('://') ? ON_URL_LINE : 0;
    while (onLine < MAX_TOKENS_PER_LINE && nextToken(lower, previousEnd < 0 ? 0 : previousEnd, span) >= 0) {
      if (previousEnd >= 0 && endsSentence(lower, previousEnd, span[0], previousToken)) startHere = true;
      // A sentence that never ends (no punctuation across many lines) is cut, so framing it stays linear.
      if (tokens.length - starts[starts.length - 1]! >= MAX_INSTRUCTION_TOKENS) startHere = true;
      if (startHere) {
        if (starts.length >= maxInstructions) {
          cutAt = i + 1;
          break lines;
        }
        startHereAt(onLine === 0 && isList);
        startHere = false;
      }
      let fact = onUrlLine;
      const word = lower.slice(span[0], span[1]);
      previousToken = lowered ? word : word.toLowerCase();
      if (!isList && STEPS_LEAD.has(previousToken)) paragraphNamesSteps = true;
      // A dotfile name (".env", "~/.npmrc") is a thing of its own, unlike the word ("env" of a conda env).
      // A template of one (".env.example") holds no values: it stays the plain word.
      if (
        span[0] > 0 &&
        lower[span[0] - 1] === '.' &&
        (span[0] === 1 || !WORD_CHAR.test(lower[span[0] - 2])) &&
        !TEMPLATE_SUFFIX.test(lower.slice(span[1], span[1] + 12)) &&
        matcher.startsPhrase(`dot${previousToken}`)
      )
        previousToken = `dot${previousToken}`;
      // "issue_comment", "event.issue.title": a name in code, whose words the tokens split apart.
      if (previousEnd >= 0 && span[0] === previousEnd + 1 && (lower[previousEnd] === '_' || lower[previousEnd] === '.')) fact |= IDENTIFIER_JOIN;
      // Most gaps between tokens are one space and hold no comma or break: only others are copied and read.
      if (previousEnd >= 0 && (span[0] - previousEnd > 1 || lower.charCodeAt(previousEnd) !== 32)) {
        const gap = lower.slice(previousEnd, span[0]);
        const mark = gap.trim();
        if (mark === ',' || mark === '\uff0c' || mark === '\u3001') fact |= AFTER_COMMA;
        if (CLAUSE_BREAK.test(gap)) fact |= AFTER_BREAK;
        // Between two letters of a script written without spaces (the normalised view reads "，" as ",").
        if (
          (CLAUSE_BREAK.test(gap) || WIDE_CLAUSE_BREAK.test(gap)) &&
          SPACELESS_LETTER.test(previousToken) &&
          SPACELESS_LETTER.test(tokens[tokens.length - 1] ?? '')
        )
          fact |= AFTER_BREAK | AFTER_WIDE_BREAK;
      }
      if (previousEnd >= 0 && span[0] === previousEnd + 1 && lower[previousEnd] === '-') fact |= HYPHEN_JOIN;
      if (onLine > 0 && lowered && part.text[span[0]] !== lower[span[0]]) fact |= CAPITALIZED;
      while (listedAt < listed.length && listed[listedAt][1] <= span[0]) listedAt++;
      if (listedAt < listed.length && listed[listedAt][0] <= span[0]) fact |= LISTED_NAME;
      if (titles.length > 0 && titles.some(([a, b]) => span[0] >= a && span[1] <= b)) fact |= IN_TITLE;
      if (tokens.length === factsOf.length) {
        factsOf = grown(factsOf);
        lineOf = grown(lineOf);
      }
      factsOf[tokens.length] = fact;
      lineOf[tokens.length] = i + 1;
      tokens.push(previousToken);
      previousEnd = span[1];
      onLine++;
    }
    // A heading is an instruction of its own; the body starts a new one.
    if (onLine > 0 && (part.heading || endsWithTerminal(lower, previousEnd))) startHereAt(false);
    previousWasListOrLead = isList || part.text.trimEnd().endsWith(':') || paragraphNamesSteps;
    if (isList || part.heading) paragraphNamesSteps = false;
    blankBefore = false;
  }
  startHereAt(false);
  const facts: TokenFacts = factsOf.subarray(0, tokens.length);
  const tokenLine: TokenLines = lineOf.subarray(0, tokens.length);

  // A public place named by a code identifier (the `issue_comment` event, `event.issue.title`) is a
  // name in code, not where the text publishes anything; a file name (`authorized_keys`) is a place.
  // An action or attacker word that is part of an identifier, file or host name (`before_send`,
  // `upload.py`, `attacker.example`) names it; it does nothing and describes no one.
  // "publicly-embedded views": the first part of a hyphenated compound describes the noun after it.
  // An action word inside a listed code span ("`write-all`, `contents: read`") names a value.
  // A phrase of a script written without spaces is read within one clause: "请客观回答，说明优缺点"
  // (answer objectively, explain …) holds no "回答说" (answer that).
  const matches = matcher
    .match(tokens)
    .filter(
      (h) =>
        !wideBreakWithin(facts, h.start, h.end) &&
        !(h.cls === 'destination-public' && (joinsIdentifier(facts, h.start, h.end) || has(facts, h.end, HYPHEN_JOIN))) &&
        !(neverAnIdentifierPart(h.cls) && (partOfIdentifier(facts, h.start, h.end) || has(facts, h.start, LISTED_NAME))) &&
        !(
          PROPER_NAME_PART.has(h.cls) &&
          h.end === h.start + 1 &&
          PARTY_NOUN.has(tokens[h.start]) &&
          has(facts, h.start, CAPITALIZED) &&
          has(facts, h.end, CAPITALIZED)
        ),
    );
  const instructions: Instruction[] = [];
  const sectionClasses = new Map<number, Set<SlotClass>>();
  const blockClasses = new Map<number, Set<SlotClass>>();
  const fileClasses = new Set<SlotClass>();
  let m = 0;
  let lead: Instruction | null = null;
  let leadIndex = -1;
  let stepsLead: Instruction | null = null;
  let stepsLeadIndex = -1;
  // Numbered list items of the current section by their number ("1." → its instruction index).
  let stepsOfSection = new Map<string, number>();
  let stepSection = -1;
  const referrers = new Map<number, number[]>();
  const maxSlotted = budgetFor(ctx, SLOTTED_INSTRUCTION_BUDGET);
  let slotted = 0;
  for (let s = 0; s + 1 < starts.length; s++) {
    const from = starts[s];
    const to = starts[s + 1];
    if (to <= from) continue;
    // Matches come by start: this instruction's are the run from `from` to `to` (one without any shares NO_MATCHES).
    while (m < matches.length && matches[m].start < from) m++;
    const first = m;
    while (m < matches.length && matches[m].start < to) m++;
    const own = m > first ? matches.slice(first, m) : NO_MATCHES;
    const instruction = frameOf(ctx, tokens, tokenLine, from, to, own, startBlock[s], startSection[s], facts);
    if (instruction.slots.length > 0 && ++slotted > maxSlotted) {
      cutAt = instruction.line;
      break;
    }
    if (lead && lead.block !== instruction.block) lead = null;
    if (stepsLead && stepsLead.block !== instruction.block) stepsLead = null;
    // A paragraph that names the steps of the list after it leads that list like a line ending with a colon.
    if (startsItem[s] && !lead && stepsLead) {
      lead = stepsLead;
      leadIndex = stepsLeadIndex;
    }
    if (startsItem[s] && lead) {
      instruction.leadLine = lead.line;
      instruction.leadIndex = leadIndex;
      // An item under "Attackers can:" describes the attack like its lead-in does; one under
      // "mention these fixes:" reports a fixed bug ("the uploader silently dropped files").
      if ((lead.mood === 'quotation' || lead.classes.has('report-subject')) && instruction.mood !== 'prohibition') instruction.mood = 'quotation';
      // Every slot of an item under a forbidding lead-in is forbidden, its modifiers (hiding, skipping consent) too.
      else if (lead.forbids && instruction.slots.length > 0) {
        for (const sl of instruction.slots) sl.negated = true;
        instruction.mood = 'prohibition';
        instruction.classes = new Set();
      }
    } else if (!startsItem[s] && (ctx.lines[tokenLine[to - 1] - 1] ?? '').trimEnd().endsWith(':')) {
      lead = instruction;
      leadIndex = instructions.length;
    }
    if (!startsItem[s] && namesSteps(tokens, from, to)) {
      stepsLead = instruction;
      stepsLeadIndex = instructions.length;
    }
    if (instruction.section !== stepSection) {
      stepsOfSection = new Map();
      stepSection = instruction.section;
    }
    if (startsItem[s] && OCTET.test(tokens[from])) stepsOfSection.set(tokens[from], instructions.length);
    else if (!startsItem[s] && STEP_NOUN.has(tokens[from]) && from + 1 < to && stepsOfSection.has(tokens[from + 1])) {
      // "Step 1 occurs for all errors, including …": this paragraph goes on about item 1.
      const item = stepsOfSection.get(tokens[from + 1])!;
      instruction.refersTo = item;
      referrers.set(item, [...(referrers.get(item) ?? []), instructions.length]);
    }
    instructions.push(instruction);
    let blk = blockClasses.get(instruction.block);
    if (!blk) blockClasses.set(instruction.block, (blk = new Set()));
    for (const c of instruction.classes) blk.add(c);
    let sec = sectionClasses.get(instruction.section);
    if (!sec) sectionClasses.set(instruction.section, (sec = new Set()));
    for (const c of instruction.classes) {
      if (WINDOW_ONLY.has(c)) continue;
      if (c === 'concealment' && !instruction.slots.some((sl) => sl.cls === c && !sl.negated && sl.refersBack)) continue;
      sec.add(c);
      fileClasses.add(c);
    }
  }
  const incomplete =
    cutAt > 0 ? `the file\u2019s budget for reading instructions ran out; the prose from line ${cutAt} on was not read as instructions` : undefined;
  return { instructions, sectionClasses, fileClasses, referrers, blockClasses, incomplete };
}

const CONDITION = lexiconWords('condition-word');
/** Words by which a paragraph introduces the list after it ("these steps", "die folgenden Schritte"). */
const STEPS_LEAD = lexiconWords('steps-lead');
function namesSteps(tokens: readonly string[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (STEPS_LEAD.has(tokens[k])) return true;
  return false;
}
/** Words that state a prohibition as a predicate ("is forbidden", "ist verboten"), unlike a bare "not". */
const FORBIDDING_WORD = lexiconWords('forbidding-word');
const ALTERNATIVE_WORD = lexiconWords('alternative-word');

/**
 * "If the system can silently commit the user to costs without showing them, that's a missing
 * safeguard": a phrase inside a leading condition about someone other than the agent states the
 * case being looked for, not something the agent keeps from the user.
 */
function inOthersCondition(tokens: readonly string[], from: number, at: number, facts: TokenFacts): boolean {
  if (!CONDITION.has(tokens[from])) return false;
  for (let k = from + 1; k <= at; k++) if (has(facts, k, AFTER_COMMA)) return false;
  let subject = from + 1;
  while (subject < at && SUBJECT_ARTICLE.has(tokens[subject])) subject++;
  return subject < at && !AGENT_SUBJECT.has(tokens[subject]) && !HUMAN_SUBJECT.has(tokens[subject]);
}
const CONSENTING_PARTY = lexiconWords('consenting-party');
/**
 * "When a tool asks for confirmation, …" names an event, not the user keeping control: a consent
 * phrase inside a condition whose subject is not the user gives no consent.
 */
function conditionOnOther(tokens: readonly string[], from: number, at: number): boolean {
  for (let k = Math.max(from, at - 3); k < at; k++) {
    if (!CONDITION.has(tokens[k])) continue;
    for (let j = k + 1; j < at; j++) if (CONSENTING_PARTY.has(tokens[j])) return false;
    return true;
  }
  return false;
}

/** Words before a passive concealment phrase that do not name its subject ("… and must not be shown"). */
const CLAUSE_LINK = lexiconWords('clause-link');
/** First words of a passive concealment phrase ("is not disclosed", "must be omitted"): its subject stands before it. */
const PASSIVE_START = new Set([...MODAL, ...lexiconWords('passive-start')]);
/** Words naming the steps of a procedure ("these steps", "dieser Schritt"): as a subject they point back at the act. */
const STEP_WORD = new Set([...STEPS_LEAD, ...STEP_NOUN]);

/**
 * Does a concealment phrase point back at an act named elsewhere? Not when a passive phrase has a
 * subject of its own ("the field must be omitted") or a thing of its own follows it ("doesn't tell
 * the whole story", "is not reported as current"); yes when it ends on a back-reference or on the
 * person kept uninformed ("do not tell the user", "never mention this").
 */
function pointsBack(tokens: readonly string[], from: number, to: number, start: number, end: number): boolean {
  // A passive phrase is about its subject: an act referred back to, or the person left uninformed.
  // "These steps are not shown to the user", "Questi passaggi non vanno mostrati": a subject naming
  // the steps is the act itself, referred back to.
  if (start > from && STEP_WORD.has(tokens[start - 1])) return true;
  const before = start > from && PASSIVE_START.has(tokens[start]) ? tokens[start - 1] : undefined;
  if (before !== undefined && !CLAUSE_LINK.has(before) && !POINTS_BACK.has(before) && !CONTINUATION.has(before) && !PERSON_OR_LINK.has(before)) return false;
  // "… without mentioning that" points back; "without mentioning that both accept it" states its own clause.
  if (POINTS_BACK.has(tokens[end - 1]) && (tokens[end - 1] !== 'that' || end >= to)) return true;
  let k = end;
  while (k < to && PERSON_OR_LINK.has(tokens[k])) k++;
  return k >= to || POINTS_BACK.has(tokens[k]) || (POINTS_BACK_ALONE.has(tokens[k]) && k + 1 >= to);
}

const MODAL_OR_AUX = new Set([...MODAL, ...lexiconWords('auxiliary-verb')]);

const STOP_VERB = lexiconWords('stop-verb');
/** "If the user asks you to stop …" is the user withdrawing consent, not giving it. */
function asksToStop(tokens: readonly string[], after: number, to: number): boolean {
  let k = after;
  if (tokens[k] === 'you' || tokens[k] === 'me' || tokens[k] === 'us') k++;
  return k + 1 < to && tokens[k] === 'to' && STOP_VERB.has(tokens[k + 1]);
}

/** The matches of an instruction that holds no lexicon phrase: shared, never written. */
const NO_MATCHES: readonly LexiconMatch[] = Object.freeze([]);
/** The frame of an instruction that fills no slot (most of them): shared, never written. */
const NO_SLOTS: readonly SlotHit[] = Object.freeze([]);
const NO_CLASSES: ReadonlySet<SlotClass> = new Set<SlotClass>();

/** The first phrase slot (`slotStart`: their first tokens, ascending) that starts at token `at` and has this class. */
function slotStartingAt(slots: readonly SlotHit[], slotStart: readonly number[], cls: SlotClass, at: number): SlotHit | undefined {
  for (let k = firstAtLeast(slotStart, at); k < slotStart.length && slotStart[k] === at; k++) if (slots[k].cls === cls) return slots[k];
  return undefined;
}

/**
 * Index of the first instruction on or after `line` (instructions are in line order): readers of
 * the instructions near a finding bisect to them, since a walk from the top per finding is quadratic.
 */
export function firstInstructionFrom(instructions: readonly Instruction[], line: number): number {
  let lo = 0;
  let hi = instructions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (instructions[mid].line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const RESPONSE_PART = lexiconWords('response-part');
/** A quiet adverb at most this many tokens after "instead of" belongs to the alternative not taken. */
const CONTRAST_REACH = 2;

const SOURCE_PREPOSITION = lexiconWords('source-preposition');
const GOAL_PREPOSITION = lexiconWords('goal-preposition');
/** How far back from a place its governing preposition is looked for (over a coordinated list: "from A, B and C"). */
const SOURCE_REACH = 10;

/** The nearest preposition before the place, with no action or goal preposition in between, is "from". */
function isSourcePlace(tokens: readonly string[], from: number, at: number, marks: Uint16Array): boolean {
  for (let k = at - 1; k >= from && at - k <= SOURCE_REACH; k--) {
    if ((marks[k - from] & ACTION_START) !== 0 || GOAL_PREPOSITION.has(tokens[k])) return false;
    if (SOURCE_PREPOSITION.has(tokens[k])) return true;
  }
  return false;
}

const LOCATIVE_PREPOSITION = lexiconWords('locative-preposition');

/**
 * "Use the credentials in the bot's PR comment": a place that a locative preposition ties to the
 * credential right before it, with no act before that credential, is where the credential already
 * is ("paste the keys in the PR comment" has its act, and the place stays a destination).
 */
function isSecretLocation(
  tokens: readonly string[],
  from: number,
  at: number,
  marks: Uint16Array,
  secretEnds: ReadonlyMap<number, number> | undefined,
): boolean {
  for (let k = at - 1; k >= from && at - k <= SOURCE_REACH; k--) {
    if ((marks[k - from] & ACT_OR_ECHO_START) !== 0) return false;
    if (!LOCATIVE_PREPOSITION.has(tokens[k])) continue;
    const secretStart = secretEnds?.get(k);
    if (secretStart === undefined) return false;
    for (let j = from; j < secretStart; j++) if ((marks[j - from] & ACT_OR_ECHO_START) !== 0) return false;
    return true;
  }
  return false;
}

/** Classes an identifier's part never fills: an act, or an attacker as subject (`attacker.example` is a host name). */
const neverAnIdentifierPart = (cls: LexiconClass): boolean => cls.startsWith('action-') || cls === 'echo-verb' || cls === 'threat-subject';

/**
 * Classes a word of a proper name does not fill: "Partner Center" is a vendor's portal, a partner
 * is a third party. The word and the next are capitalized inside the line.
 */
const PROPER_NAME_PART: ReadonlySet<LexiconClass> = new Set<LexiconClass>(['destination-external', 'object-partner']);
const PARTY_NOUN = lexiconWords('party-noun');
/** Character spans of quoted titles that name a part of a document ("Information Sources" section). */
function titleSpans(text: string): (readonly [number, number])[] {
  if (!text.includes('"')) return [];
  const out: (readonly [number, number])[] = [];
  QUOTED_TITLE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = QUOTED_TITLE.exec(text)) !== null) if (DOCUMENT_PART.has(m[2])) out.push([m.index + 1, m.index + 1 + m[1].length]);
  return out;
}

/** How far before a grant its restrictor may stand ("only use the sources and tools the user …"). */
const RESTRICTOR_REACH = 8;
/**
 * A grant whose subject is the consenting party, in a clause a restrictor opens ("only use sources
 * the user has authorized"): it limits the act to what the user gave.
 */
function boundByGrant(tokens: readonly string[], from: number, at: number): boolean {
  let k = at - 1;
  // "… the user has already authorized": the overlapping reading starts after the auxiliary.
  while (k >= from && at - k <= 2 && MODAL_OR_AUX.has(tokens[k])) k--;
  if (k < from || !CONSENTING_PARTY.has(tokens[k])) return false;
  // "Only the owner has authorized this" restricts who granted it, a claim all the same: the restrictor must govern the act.
  for (k--; k >= from && at - k <= RESTRICTOR_REACH; k--)
    if (RESTRICTOR.has(tokens[k])) return !SUBJECT_ARTICLE.has(tokens[k + 1]) && !CONSENTING_PARTY.has(tokens[k + 1]);
  return false;
}

/**
 * The end of a list of alternatives after a sentence's opening prohibition: the first break other
 * than a list comma, when a word joining alternatives ("or", "nor") stands before it; else `from`
 * (no list). "Never open, print or put it in code, logs or commit messages" is one list.
 */
function alternativesEnd(tokens: readonly string[], facts: TokenFacts, from: number, to: number): number {
  let joined = false;
  for (let k = from; k < to; k++) {
    if (has(facts, k, AFTER_BREAK) && !has(facts, k, AFTER_COMMA)) return joined ? k : from;
    if (ALTERNATIVE_WORD.has(tokens[k])) joined = true;
  }
  return joined ? to : from;
}

const COPULA = lexiconWords('copula');

/** Does the phrase at `at` follow the agent and a copula ("you are the partner", "the agent is a reviewer")? */
function namesAgentRole(tokens: readonly string[], from: number, at: number): boolean {
  let k = at - 1;
  if (k >= from && SUBJECT_ARTICLE.has(tokens[k])) k--;
  if (k < from || !COPULA.has(tokens[k])) return false;
  // A contraction carries its subject ("you're the partner").
  if (tokens[k].includes("'")) return true;
  return k - 1 >= from && AGENT_SUBJECT.has(tokens[k - 1]);
}

/** The first token in [from, to) that follows a list or clause break, else `to`. */
function firstBreakAfter(facts: TokenFacts, from: number, to: number): number {
  for (let k = from; k < to; k++) if (has(facts, k, AFTER_BREAK)) return k;
  return to;
}

/** Does a list or clause break stand before any token of [from, to]? */
function wideBreakWithin(facts: TokenFacts, start: number, end: number): boolean {
  for (let k = start + 1; k < end; k++) if (has(facts, k, AFTER_WIDE_BREAK)) return true;
  return false;
}

function breakBetween(facts: TokenFacts, from: number, to: number): boolean {
  for (let k = from; k <= to; k++) if (has(facts, k, AFTER_BREAK)) return true;
  return false;
}

/** Is the phrase [start, end) joined to the token before or after it by `_` or `.` (one identifier)? */
function partOfIdentifier(facts: TokenFacts, start: number, end: number): boolean {
  return has(facts, start, IDENTIFIER_JOIN) || has(facts, end, IDENTIFIER_JOIN);
}

/** Does the phrase [start, end) run across an identifier's join? */
function joinsIdentifier(facts: TokenFacts, start: number, end: number): boolean {
  for (let k = start + 1; k < end; k++) if (has(facts, k, IDENTIFIER_JOIN)) return true;
  return false;
}

/** Does a token of [from, to) stand on a line that writes a URL or an email address? */
function writesAddress(ctx: ScanContext, facts: TokenFacts, tokenLine: TokenLines, from: number, to: number): boolean {
  const emails = emailLabels(ctx);
  for (let k = from; k < to; k++) if (has(facts, k, ON_URL_LINE) || (emails.size > 0 && emails.has(tokenLine[k]))) return true;
  return false;
}

/** Tokens [start, end) joined by spaces, built in place (no array copy and join per slot). */
function phraseText(tokens: readonly string[], start: number, end: number): string {
  let text = tokens[start];
  // Letters of scripts written without spaces (each one a token) are joined as written: "요청한작업만".
  for (let k = start + 1; k < end; k++) text += SINGLE_LETTER_TOKEN.test(tokens[k - 1]) && SINGLE_LETTER_TOKEN.test(tokens[k]) ? tokens[k] : ` ${tokens[k]}`;
  return text;
}

/**
 * A negation at most NEGATION_REACH tokens before `at`. With `condition` (the instruction opens with
 * "if", "when" …), a negation stops at a clause break: "If the remote no longer matches, change the
 * fee" negates the condition, not the order after it.
 */
function negatedAt(negations: readonly number[], at: number, condition: TokenFacts | null = null): boolean {
  for (const n of negations) if (n < at && at - n <= NEGATION_REACH && !(condition && breakBetween(condition, n + 1, at))) return true;
  return false;
}

/**
 * A negation that follows its verb (lexicon `negation-after`: Japanese and Korean verb endings,
 * German and Dutch "nicht"/"niet" after the object) at most NEGATION_REACH tokens after the phrase
 * ends, with no clause break between.
 */
function negatedAfter(negationsAfter: readonly number[], end: number, facts: TokenFacts): boolean {
  for (const n of negationsAfter) if (n >= end && n - end <= NEGATION_REACH && !breakBetween(facts, end, n)) return true;
  return false;
}

// What an instruction's own phrases mark on its tokens, one bit each (frameOf's `marks`, indexed
// from the instruction's first token): one small array per instruction instead of a set per mark.
/** Inside a phrase of several tokens that is no negation ("do not mention"): a negation there belongs to that phrase. */
const COVERED = 1;
/** A consent phrase a negation withdrew ("do not ask first"): the prohibition is its own sense. */
const WITHDRAWN = 2;
/** Right after a determiner: an action word there is a noun ("the upload", "every change"), not an act. */
const AFTER_DETERMINER = 4;
/** One of the two tokens after an instrument phrase ("using the deploy token"). */
const AFTER_INSTRUMENT = 8;
/** The first token of an action phrase. */
const ACTION_START = 16;
/** An act, showing and repeating included ("paste the keys in …"): what makes a place a destination. */
const ACT_OR_ECHO_START = 32;
/** Inside a fixed phrase in which an action word has another sense ("log in", "out of sync", "push protection"): no action slot starts there. */
const PHRASAL = 64;
/** Right after a stand-in ("a TODO for the credentials"): the credential is named, not written. */
const STAND_IN_END = 128;
/** The first word of a name of a thing or place of two or more words ("commit messages"). */
const NOUN_PHRASE_START = 256;

/** Classes that only mark the words around them (frameOf's `marks`): they fill no slot themselves. */
const MARKER_CLASSES: ReadonlySet<string> = new Set(['determiner', 'instrument', 'phrasal-sense', 'contrast', 'secret-stand-in']);

function onlyMarkers(own: readonly LexiconMatch[]): boolean {
  for (const h of own) if (!MARKER_CLASSES.has(h.cls)) return false;
  return true;
}

function frameOf(
  ctx: ScanContext,
  tokens: readonly string[],
  tokenLine: TokenLines,
  from: number,
  to: number,
  own: readonly LexiconMatch[],
  block: number,
  section: number,
  facts: TokenFacts,
): Instruction {
  // Most instructions fill no slot: they still count for blocks and lead-ins, at no further cost.
  // One that writes an address (a table cell holding only a URL) still names a destination that
  // a step elsewhere may point at.
  if (own.length === 0 && !writesAddress(ctx, facts, tokenLine, from, to))
    return {
      line: tokenLine[from],
      block,
      section,
      addressee: addresseeOf(ctx, tokens, from, to),
      mood: 'description',
      question: false,
      slots: NO_SLOTS,
      classes: NO_CLASSES,
    };
  // Words that only mark their neighbours ("a", "using", "instead of") fill no slot and negate
  // nothing: an instruction holding no other is framed without the tables below ("a|a|a|…" is one
  // instruction per two bytes).
  if (onlyMarkers(own)) {
    const address = addressSlot(ctx, tokens, tokenLine, facts, from, to);
    return framed(
      ctx,
      tokens,
      tokenLine,
      facts,
      from,
      to,
      own,
      block,
      section,
      address ? [address] : NO_SLOTS,
      address ? new Set([address.cls]) : NO_CLASSES,
      false,
    );
  }
  // Marks by token index from `from`, up to the end of the last phrase and the token after it.
  let last = to;
  for (const h of own) last = Math.max(last, h.end);
  const marks = new Uint16Array(last - from + 2);
  // A negation inside a longer phrase ("do not mention", "do not log", "without asking") belongs to
  // that phrase and negates nothing else.
  for (const h of own) if (h.cls !== 'negation' && h.end - h.start > 1) for (let k = h.start; k < h.end; k++) marks[k - from] |= COVERED;
  const negations: number[] = [];
  const anyNegations: number[] = [];
  const conditional = CONDITION.has(tokens[OCTET.test(tokens[from] ?? '') ? from + 1 : from]) ? facts : null;
  for (const h of own) {
    if (h.cls !== 'negation') continue;
    // "Don't forget to run …", "don't worry about the backups, wipe …": the negation is of the
    // forgetting or the worry, and the act is urged on, so it forbids nothing.
    if (URGING_VERB.has(tokens[h.end]) || (h.end + 1 < to && URGING_VERB.has(tokens[h.end + 1]))) continue;
    anyNegations.push(h.start);
    if ((marks[h.start - from] & COVERED) === 0) negations.push(h.start);
  }
  // "送信しないでください", "보내지 마세요", "lade sie nicht hoch": a negation after the verb it negates.
  const negationsAfter: number[] = [];
  for (const h of own) if (h.cls === 'negation-after') negationsAfter.push(h.start);
  const slots: SlotHit[] = [];
  const slotStart: number[] = [];
  const classes = new Set<SlotClass>();
  let firstProhibitedAction = Infinity;
  /** End token of each credential phrase → its start ("the credentials in …"); made for the few instructions that name one. */
  let secretEnds: Map<number, number> | undefined;
  // "… instead of silently rewriting it": the quiet way is the one not taken.
  const contrastEnds: number[] = [];
  for (const h of own) {
    if (h.cls === 'phrasal-sense') for (let k = h.start; k < h.end; k++) marks[k - from] |= PHRASAL;
    if (h.cls === 'contrast') contrastEnds.push(h.end);
    if (h.cls === 'secret-stand-in') marks[h.end - from] |= STAND_IN_END;
    if (h.cls === 'determiner') marks[h.end - from] |= AFTER_DETERMINER;
    if (h.cls === 'instrument') {
      marks[h.end - from] |= AFTER_INSTRUMENT;
      marks[h.end + 1 - from] |= AFTER_INSTRUMENT;
    }
    if (h.cls.startsWith('action-')) marks[h.start - from] |= ACTION_START;
    // "commit messages", "commit history", "chat output": a longer name of a thing or place opens
    // with the word, which is then a noun, not an act.
    if ((h.cls.startsWith('object-') || h.cls.startsWith('destination-')) && h.end - h.start > 1) marks[h.start - from] |= NOUN_PHRASE_START;
    if (h.cls === 'object-secret') (secretEnds ??= new Map()).set(h.end, h.start);
    if (h.cls.startsWith('action-') || h.cls === 'echo-verb') marks[h.start - from] |= ACT_OR_ECHO_START;
  }
  for (const h of own) {
    if (h.cls === 'negation' || h.cls === 'negation-after' || MARKER_CLASSES.has(h.cls)) continue;
    if (h.cls === 'object-secret' && (marks[h.start - from] & STAND_IN_END) !== 0) continue;
    // "The response shape changed", "the response body": a program's message, not the agent's reply.
    if (h.cls === 'destination-reply' && h.end < to && RESPONSE_PART.has(tokens[h.end])) continue;
    // "There is …", "there must be …": the existential, not a place.
    if (h.cls === 'place-reference' && h.end < to && MODAL_OR_AUX.has(tokens[h.end])) continue;
    // "The contract from the current code and public documentation": where it comes from, not where it goes.
    if (h.cls === 'destination-public' && (isSourcePlace(tokens, from, h.start, marks) || isSecretLocation(tokens, from, h.start, marks, secretEnds))) continue;
    if (h.cls.startsWith('action-') && ((marks[h.start - from] & (AFTER_DETERMINER | PHRASAL | NOUN_PHRASE_START)) !== 0 || has(facts, h.start, IN_TITLE)))
      continue;
    // "The count could silently drift": a quiet adverb between a modal and a verb that is no action describes a failure, not stealth.
    if (h.cls === 'stealth' && h.start > from && MODAL_OR_AUX.has(tokens[h.start - 1]) && (marks[h.end - from] & ACTION_START) === 0) continue;
    // "Only use sources the user has already authorized": the user's grant bounds the act; it claims no authority.
    if (h.cls === 'authority-claim' && boundByGrant(tokens, from, h.start)) continue;
    // "An undisclosed change is a reason to reject the PR": a concealment word in the noun phrase
    // that opens a clause describes what the sentence talks about; it orders nothing hidden.
    if (
      h.cls === 'concealment' &&
      h.end - h.start === 1 &&
      h.start - 1 >= from &&
      (marks[h.start - from] & AFTER_DETERMINER) !== 0 &&
      (h.start - 1 === from || has(facts, h.start - 1, AFTER_BREAK))
    )
      continue;
    // "You are the partner", "the agent is a coach": a noun after the agent and "is"/"are" names the
    // agent's role, not a place anything goes.
    if (h.cls.startsWith('destination-') && namesAgentRole(tokens, from, h.start)) continue;
    // "Must not be reported as current", "is not shown as an error": how a thing is classed, not whether the user learns of it.
    if (h.cls === 'concealment' && h.end < to && tokens[h.end] === 'as') continue;
    // "Don't ask for confirmation" and "without a preview or asking for confirmation" withdraw
    // consent: any negation before it, even one inside another phrase, makes it a bypass.
    const withdrawn = h.cls === 'consent-given' && negatedAt(anyNegations, h.start);
    const negated =
      (!withdrawn && !SELF_NEGATING.has(h.cls) && (negatedAt(negations, h.start, conditional) || negatedAfter(negationsAfter, h.end, facts))) ||
      (h.cls === 'consent-given' && (conditionOnOther(tokens, from, h.start) || asksToStop(tokens, h.end, to))) ||
      (h.cls === 'stealth' && contrastEnds.some((e) => e <= h.start && h.start - e <= CONTRAST_REACH));
    // Showing and repeating are acts too: "never show a figure without showing the plan" requires the disclosure.
    // A negated object carries the prohibition when its verb is no lexicon word ("do not rewrite shared history … without approval").
    if (negated && (h.cls.startsWith('action-') || h.cls === 'echo-verb' || h.cls.startsWith('object-')))
      firstProhibitedAction = Math.min(firstProhibitedAction, h.start);
    const cls: SlotClass = withdrawn ? 'consent-bypass' : h.cls;
    if (withdrawn) marks[h.start - from] |= WITHDRAWN;
    const slot: SlotHit = {
      cls,
      line: tokenLine[h.start],
      text: phraseText(tokens, h.start, h.end),
      negated,
      relative: h.start > from && RELATIVE.has(tokens[h.start - 1]),
      at: h.start,
      end: h.end,
      instrument: (marks[h.start - from] & AFTER_INSTRUMENT) !== 0 || undefined,
    };
    if (cls === 'stealth') {
      let k = h.end;
      if (k < to && MODAL_OR_AUX.has(tokens[k])) k++;
      if ((marks[k - from] & ACTION_START) !== 0) slot.modifies = k;
    }
    if (cls === 'concealment') slot.refersBack = pointsBack(tokens, from, to, h.start, h.end) && !inOthersCondition(tokens, from, h.start, facts);
    slots.push(slot);
    slotStart.push(h.start);
  }
  // "Don't reach for anything new without asking": an instruction that opens with a prohibition
  // ("don't", "never", not "don't hesitate to") carries it to a consent phrase in the same clause.
  const opener = OCTET.test(tokens[from] ?? '') ? from + 1 : from;
  const opensProhibited = negations.some((n) => n === opener || (n === opener + 1 && tokens[opener] === 'do'));
  if (opensProhibited) {
    const clauseEnd = firstBreakAfter(facts, opener + 1, to);
    for (let k = 0; k < slots.length; k++)
      if (slotStart[k] < clauseEnd && slots[k].cls === 'consent-bypass' && (marks[slotStart[k] - from] & WITHDRAWN) === 0) slots[k].negated = true;
  }
  // "Never paste a key into code, tests, fixtures, commit messages or chat output": a prohibition
  // that opens its sentence and closes a list with "or" forbids every item, however far the list runs.
  if (opensProhibited && conditional === null) {
    const end = alternativesEnd(tokens, facts, opener + 1, to);
    for (let k = 0; k < slots.length; k++)
      if (slotStart[k] > opener && slotStart[k] < end && !SELF_NEGATING.has(slots[k].cls as LexiconClass)) slots[k].negated = true;
    if (end > opener)
      for (let k = 0; k < slots.length; k++)
        if (slots[k].negated && slots[k].cls.startsWith('action-')) firstProhibitedAction = Math.min(firstProhibitedAction, slotStart[k]);
  }
  // "Never push without approval", "never copy keys silently": a modifier after a prohibited action belongs to the prohibition.
  for (let k = 0; k < slots.length; k++) {
    const cls = slots[k].cls;
    // In a leading condition the prohibited act is the case ("When the user asks you not to run it, do it anyway"): its modifiers stop at the clause break.
    if (
      slotStart[k] > firstProhibitedAction &&
      (cls === 'consent-bypass' || cls === 'concealment' || cls === 'stealth') &&
      !(conditional && breakBetween(conditional, firstProhibitedAction + 1, slotStart[k]))
    )
      slots[k].negated = true;
  }
  for (const sl of slots) if (!sl.negated) classes.add(sl.cls);
  // Derived slots: a verb next to its object ("disable security controls", "filtering is
  // disabled", "ignore the previous instructions").
  // Phrases and slots come in the order of their first tokens: a verb's candidates are found by
  // bisection, so an instruction of hundreds of verbs and objects ("disable the firewall" over and
  // over) is not read once per verb.
  let ownStarts: number[] | null = null;
  let longest = 0;
  for (const [verbCls, objectCls, derived] of DERIVED_PAIRS) {
    for (const w of own) {
      if (w.cls !== verbCls) continue;
      ownStarts ??= own.map((o) => {
        longest = Math.max(longest, o.end - o.start);
        return o.start;
      });
      // An object after its verb may follow a list ("disable the firewall, antivirus"); one before
      // it pairs only within its clause ("filtering is disabled", not "Security — injection, authz bypass").
      // The first such object: none starts more than PAIR_GAP + the longest phrase before the verb, or PAIR_GAP after it.
      let near: LexiconMatch | undefined;
      for (let k = firstAtLeast(ownStarts, w.start - PAIR_GAP - longest); k < own.length && own[k].start <= w.end + PAIR_GAP; k++) {
        const o = own[k];
        if (o.cls === objectCls && (o.start >= w.end ? o.start - w.end <= PAIR_GAP : w.start - o.end <= PAIR_GAP && !breakBetween(facts, o.end, w.start))) {
          near = o;
          break;
        }
      }
      if (!near) continue;
      const verb = slotStartingAt(slots, slotStart, verbCls, w.start);
      // A verb word read as something else ("drops out of", "the disabled flag") acts on nothing.
      if (!verb && verbCls.startsWith('action-')) continue;
      const object = slotStartingAt(slots, slotStart, objectCls, near.start);
      const negated = (verb?.negated ?? false) || (object?.negated ?? false);
      const start = Math.min(w.start, near.start);
      slots.push({ cls: derived, line: tokenLine[start], text: tokens.slice(start, Math.max(w.end, near.end)).join(' '), negated, relative: verb?.relative });
      if (!negated) classes.add(derived);
    }
  }
  const address = addressSlot(ctx, tokens, tokenLine, facts, from, to);
  if (address) {
    slots.push(address);
    classes.add(address.cls);
  }
  // "Folgendes ist verboten:", "Never do the following:": a negation that governs no act of its
  // own line, outside a condition, forbids what the list under it names.
  const forbids =
    (opensProhibited || [...negations, ...negationsAfter].some((n) => FORBIDDING_WORD.has(tokens[n]))) &&
    conditional === null &&
    !slots.some((sl) => sl.cls.startsWith('action-') && !sl.negated);
  return framed(ctx, tokens, tokenLine, facts, from, to, own, block, section, slots, classes, forbids);
}

/** The instruction [from, to) with its slots settled: its line, addressee, mood and question. */
function framed(
  ctx: ScanContext,
  tokens: readonly string[],
  tokenLine: TokenLines,
  facts: TokenFacts,
  from: number,
  to: number,
  own: readonly LexiconMatch[],
  block: number,
  section: number,
  slots: readonly SlotHit[],
  classes: ReadonlySet<SlotClass>,
  forbids: boolean,
): Instruction {
  const line = tokenLine[from];
  const lastLine = ctx.lines[tokenLine[to - 1] - 1] ?? '';
  const question = QUESTION_START.has(tokens[from]) && lastLine.includes('?');
  const mood = moodOf(ctx, line, tokens, own, slots, from, facts);
  return {
    line,
    block,
    section,
    addressee: addresseeOf(ctx, tokens, from, to),
    mood: mood === 'description' && narrates(tokens, from, own, slots, facts) ? 'quotation' : mood,
    question,
    slots,
    classes,
    forbids: forbids ? true : undefined,
  };
}

/** A written address in [from, to): a URL to a public IP, else a URL, host on a port or email address naming a host. */
function addressSlot(ctx: ScanContext, tokens: readonly string[], tokenLine: TokenLines, facts: TokenFacts, from: number, to: number): SlotHit | null {
  const literal = publicIpUrlAt(tokens, from, to);
  if (literal >= 0) return { cls: 'destination-external', line: tokenLine[literal], text: tokens.slice(literal, literal + 5).join('.'), negated: false };
  let address = hostUrlAt(ctx, tokens, tokenLine, facts, from, to);
  let addressLength = 3;
  if (address < 0) {
    address = hostOnPortAt(ctx, tokens, tokenLine, from, to);
    addressLength = 2;
  }
  if (address < 0) address = emailAddressAt(ctx, tokens, tokenLine, from, to);
  if (address < 0) return null;
  return { cls: 'destination-address', line: tokenLine[address], text: tokens.slice(address, address + addressLength).join('.'), negated: false };
}

/**
 * A sentence telling what someone else did ("the implementer changed a signature without
 * notifying anyone"): its first act is a past form between its subject and its object's
 * determiner, not after an auxiliary ("is changed"), an opener ("once uploaded"), a comma or the
 * agent ("you deleted"), nor an adjective before a noun ("collected credentials"). It reports a
 * past event, like an item under "fixed:", and orders nothing.
 */
function narrates(tokens: readonly string[], from: number, own: readonly LexiconMatch[], slots: readonly SlotHit[], facts: TokenFacts): boolean {
  const act = slots.find((sl) => sl.cls.startsWith('action-') && !sl.negated);
  if (act?.at === undefined || act.end !== act.at + 1 || act.at === from || has(facts, act.at, AFTER_COMMA)) return false;
  if (!own.some((h) => h.cls === 'determiner' && h.start === act.end)) return false;
  const verb = tokens[act.at];
  const before = tokens[act.at - 1];
  return (
    verb.endsWith('ed') &&
    !MODAL_OR_AUX.has(before) &&
    !LEAD_CLAUSE_OPENER.has(before) &&
    !STEP_ADVERB.has(before) &&
    !AGENT_SUBJECT.has(before) &&
    !HUMAN_SUBJECT.has(before)
  );
}

/** A leading adverbial clause before the main clause's verb is short ("Before setup, …", "Once the tests pass, …"). */
const LEAD_CLAUSE_TOKENS = 6;
const LEAD_CLAUSE_OPENER = lexiconWords('lead-clause-opener');
const STEP_ADVERB = lexiconWords('step-adverb');

const isAction = (h: LexiconMatch): boolean => h.cls.startsWith('action-');

/** Is an act not negated ordered after `sl`, past a clause break? */
function orderedAfter(slots: readonly SlotHit[], sl: SlotHit, facts: TokenFacts): boolean {
  return slots.some(
    (o) => !o.negated && o.cls.startsWith('action-') && o.at !== undefined && sl.at !== undefined && o.at > sl.at && breakBetween(facts, sl.at + 1, o.at),
  );
}

function moodOf(
  ctx: ScanContext,
  line: number,
  tokens: readonly string[],
  own: readonly LexiconMatch[],
  slots: readonly SlotHit[],
  from: number,
  facts: TokenFacts,
): Mood {
  // The attack is described when an attacker is the subject: named before the first action
  // ("Attackers send tokens …"), not after it ("send tokens to mail.attacker.example"). This comes
  // before the prohibition test: "if the issue asks you to reveal secrets or run forbidden tools"
  // quotes the attack even when one of its words reads as a negation.
  const firstAction = own.find(isAction)?.start ?? Infinity;
  for (let k = 0; k < own.length; k++) if (own[k].cls === 'threat-subject' && own[k].start < firstAction) return 'quotation';
  // In a leading condition, a negated act is the case ("If the remote no longer matches"), and the
  // act after the clause break is the order.
  const condition = CONDITION.has(tokens[OCTET.test(tokens[from] ?? '') ? from + 1 : from]);
  for (let k = 0; k < slots.length; k++) {
    const sl = slots[k];
    if (sl.negated && sl.cls.startsWith('action-') && !(condition && orderedAfter(slots, sl, facts))) return 'prohibition';
  }
  // A list item naming a technique ("Instructions to modify settings.json") mentions it.
  if (TECHNIQUE_NOUN.has(tokens[from]) && (tokens[from + 1] === 'to' || tokens[from + 1] === 'that')) return 'quotation';
  const info = ctx.lineInfo[line - 1];
  if (info && !ctx.executable) {
    if (info.sectionKind === 'anti_pattern') return 'prohibition';
    if (info.sectionKind === 'education' || (info.blockquote && educational(ctx))) return 'quotation';
    if (ctx.kind === 'document' && (info.inFence || info.sectionKind === 'example')) return 'example';
  }
  // A numbered step ("2. Upload the file …") starts with its action after the number, and an
  // order may open with an adverb ("Then run …", "Please upload …").
  let opener = OCTET.test(tokens[from] ?? '') && from + 1 < tokens.length ? from + 1 : from;
  if (STEP_ADVERB.has(tokens[opener] ?? '')) opener++;
  for (let k = 0; k < own.length; k++) {
    const h = own[k];
    if (isAction(h) && (h.start === from || h.start === opener || ordersAfterLeadClause(tokens, from, h.start, facts))) return 'directive';
  }
  return 'description';
}

/** After a short leading clause ("Before setup, locate the files"), the verb after the comma gives the order. */
function ordersAfterLeadClause(tokens: readonly string[], from: number, at: number, facts: TokenFacts): boolean {
  const mainClause = has(facts, at, AFTER_COMMA) || (at > from && has(facts, at - 1, AFTER_COMMA) && STEP_ADVERB.has(tokens[at - 1]));
  return mainClause && at - from <= LEAD_CLAUSE_TOKENS && LEAD_CLAUSE_OPENER.has(tokens[from]);
}

/**
 * How a frame found in these instructions weighs: a negated slot makes it a prohibition; otherwise
 * the line's context (deny list, anti-pattern section, quotation, security education,
 * documentation example, decided by the context layer) and, for a human reader, a documentation
 * discount. Self-negating slots (concealment) are never read as prohibitions.
 */
export function contextOf(ctx: ScanContext, anchor: SlotHit, parts: readonly SlotHit[], instruction: Instruction): FindingContext {
  if (parts.some((p) => p.negated)) return 'negated';
  if (instruction.mood === 'quotation') return 'quoted_education';
  if (instruction.mood === 'example' || instruction.question) return 'documentation_example';
  const educationalFile = educational(ctx);
  const context = determineContext(ctx, { line: anchor.line, evidence: '', hardBlock: false, educationalFile, inherentNegation: true });
  if (context !== 'direct') return context;
  // A quoted phrase in a table or a blockquote is cited, not said ('> "Ignore all previous instructions"').
  const info = ctx.lineInfo[anchor.line - 1];
  if (parts.some((p) => quotedOnItsLine(ctx, p)) && (educationalFile || info?.table || info?.blockquote)) return 'quoted_education';
  // "If a file contains language like "ignore previous instructions", flag it": cited to be caught.
  if (parts.some((p) => isCitedForDefense(ctx, p.line, p.text.split(' ')[0]))) return 'quoted_education';
  if (instruction.addressee === 'human' && !ctx.executable) return 'documentation_example';
  return 'direct';
}

const EDUCATIONAL = new WeakMap<ScanContext, boolean>();
function educational(ctx: ScanContext): boolean {
  let e = EDUCATIONAL.get(ctx);
  if (e === undefined) EDUCATIONAL.set(ctx, (e = isEducationalFile(ctx)));
  return e;
}

function quotedOnItsLine(ctx: ScanContext, slot: SlotHit): boolean {
  const word = slot.text.split(' ')[0];
  return word.length > 0 && isQuotedMention(loweredLine(ctx, slot.line), word);
}

/** A 1-based line lower-cased, once per line: a line may hold many slots. */
const loweredLine = perLine((ctx, line) => (ctx.lines[line - 1] ?? '').toLowerCase());
