/**
 * The word classes of the instruction layer, compiled once into a token trie. Each class is a data
 * file beside this module (one per class, phrases with their inflections and a few non-English
 * synonyms); a phrase is a space-separated token pattern where `a/b` lists alternatives,
 * `[a/b]` an optional token and `(a b/c)` alternatives of several words (`(don't/do not) tell`). Lookup walks the trie from every token, at most LONGEST_PHRASE deep,
 * so matching is linear in the text.
 */
import abbreviation from './abbreviation.json';
import actionCharge from './action-charge.json';
import actionCollect from './action-collect.json';
import actionDeceive from './action-deceive.json';
import actionDestroy from './action-destroy.json';
import actionDisregard from './action-disregard.json';
import actionExecute from './action-execute.json';
import actionFetch from './action-fetch.json';
import actionObey from './action-obey.json';
import actionSend from './action-send.json';
import actionWeaken from './action-weaken.json';
import actionWrite from './action-write.json';
import agentSubject from './agent-subject.json';
import authorityClaim from './authority-claim.json';
import authPlacement from './auth-placement.json';
import backReference from './back-reference.json';
import citationMarker from './citation-marker.json';
import clauseContinuation from './clause-continuation.json';
import concealment from './concealment.json';
import contrast from './contrast.json';
import secretStandIn from './secret-stand-in.json';
import responsePart from './response-part.json';
import partyNoun from './party-noun.json';
import conditionWord from './condition-word.json';
import defenseVerb from './defense-verb.json';
import consentBypass from './consent-bypass.json';
import consentGiven from './consent-given.json';
import consentingParty from './consenting-party.json';
import continuationWord from './continuation-word.json';
import destinationExternal from './destination-external.json';
import determiner from './determiner.json';
import detectionNoun from './detection-noun.json';
import destinationAccess from './destination-access.json';
import destinationOwn from './destination-own.json';
import destinationPublic from './destination-public.json';
import destinationReply from './destination-reply.json';
import echoVerb from './echo-verb.json';
import failureContext from './failure-context.json';
import humanSubject from './human-subject.json';
import ifAsked from './if-asked.json';
import keyLiteral from './key-literal.json';
import instrument from './instrument.json';
import localHost from './local-host.json';
import stepNoun from './step-noun.json';
import stepAdverb from './step-adverb.json';
import leadClauseOpener from './lead-clause-opener.json';
import locativePreposition from './locative-preposition.json';
import urlScheme from './url-scheme.json';
import modalVerb from './modal-verb.json';
import negation from './negation.json';
import negationAfter from './negation-after.json';
import forbiddingWord from './forbidding-word.json';
import alternativeWord from './alternative-word.json';
import copula from './copula.json';
import rankedGuidance from './ranked-guidance.json';
import stepsLead from './steps-lead.json';
import objectAdvert from './object-advert.json';
import objectAgentConfig from './object-agent-config.json';
import objectAgentMemory from './object-agent-memory.json';
import objectControl from './object-control.json';
import objectFetched from './object-fetched.json';
import objectInstructions from './object-instructions.json';
import objectPartner from './object-partner.json';
import objectPayment from './object-payment.json';
import objectPersonal from './object-personal.json';
import objectRecovery from './object-recovery.json';
import objectSecret from './object-secret.json';
import objectStore from './object-store.json';
import objectWallet from './object-wallet.json';
import personaUnrestricted from './persona-unrestricted.json';
import pointsBack from './points-back.json';
import pointsBackAlone from './points-back-alone.json';
import personOrLink from './person-or-link.json';
import sourcePreposition from './source-preposition.json';
import goalPreposition from './goal-preposition.json';
import clauseLink from './clause-link.json';
import passiveStart from './passive-start.json';
import auxiliaryVerb from './auxiliary-verb.json';
import persona from './persona.json';
import placeReference from './place-reference.json';
import placeElsewhere from './place-elsewhere.json';
import phrasalSense from './phrasal-sense.json';
import preferenceBias from './preference-bias.json';
import retention from './retention.json';
import reportSubject from './report-subject.json';
import questionStart from './question-start.json';
import relativePronoun from './relative-pronoun.json';
import scopeBroad from './scope-broad.json';
import secretPlaceholder from './secret-placeholder.json';
import solicitVerb from './solicit-verb.json';
import stealth from './stealth.json';
import stopVerb from './stop-verb.json';
import subjectArticle from './subject-article.json';
import techniqueNoun from './technique-noun.json';
import editVerb from './edit-verb.json';
import workingCopy from './working-copy.json';
import documentPart from './document-part.json';
import restrictor from './restrictor.json';
import urgingVerb from './urging-verb.json';
import threatSubject from './threat-subject.json';
import triggerRecurring from './trigger-recurring.json';
import codeBroadTarget from './code-broad-target.json';
import codeDestroy from './code-destroy.json';
import codeFetchTool from './code-fetch-tool.json';
import codeInstallerName from './code-installer-name.json';
import codeHostingHost from './code-hosting-host.json';
import codeInterpreter from './code-interpreter.json';
import codePersistLocation from './code-persist-location.json';
import codeProbe from './code-probe.json';
import codeTamperTarget from './code-tamper-target.json';
import codeUnsafeLoader from './code-unsafe-loader.json';
import codeVerifyCommand from './code-verify-command.json';
import codeShellCommand from './code-shell-command.json';
import codeShadowedCommand from './code-shadowed-command.json';
import codeCovertSink from './code-covert-sink.json';
import codePatternLanguage from './code-pattern-language.json';
import codeNetworkSink from './code-network-sink.json';
import toolBuiltinName from './tool-builtin-name.json';
import toolPopularName from './tool-popular-name.json';
import toolEffectDestroy from './tool-effect-destroy.json';
import toolEffectWrite from './tool-effect-write.json';
import toolEffectSend from './tool-effect-send.json';
import toolEffectExecute from './tool-effect-execute.json';
import toolEffectNounLike from './tool-effect-noun-like.json';
import homeAgentConfig from './home-agent-config.json';
import homeShellProfile from './home-shell-profile.json';
import envHijackVariable from './env-hijack-variable.json';
import vendorBrand from './vendor-brand.json';
import vendorApiHost from './vendor-api-host.json';

interface LexiconFile {
  class: string;
  description: string;
  phrases: string[];
  /**
   * `words`: a list of single words the instruction layer reads as a set (lexiconWords), not a
   * class of the frame matcher; `code`: names of commands, calls, paths and identifiers the code
   * layer (src/scanner/code) reads literally, lower-cased (codeLexicon); `names`: tool names, paths
   * and hosts read exactly as written, case kept (lexiconNames); default: a class whose phrases the
   * matcher finds in the text.
   */
  use?: string;
}

/** Every lexicon file, in one list so the loader and the tests see the same set. */
export const LEXICON_FILES = [
  actionCharge,
  actionCollect,
  actionDeceive,
  actionDestroy,
  actionDisregard,
  actionExecute,
  actionFetch,
  actionObey,
  actionSend,
  actionWeaken,
  actionWrite,
  authorityClaim,
  authPlacement,
  concealment,
  contrast,
  secretStandIn,
  consentBypass,
  consentGiven,
  destinationExternal,
  determiner,
  detectionNoun,
  destinationAccess,
  destinationOwn,
  destinationPublic,
  destinationReply,
  echoVerb,
  failureContext,
  ifAsked,
  instrument,
  keyLiteral,
  negation,
  negationAfter,
  objectAdvert,
  objectAgentConfig,
  objectAgentMemory,
  objectControl,
  objectFetched,
  objectInstructions,
  objectPartner,
  objectPayment,
  objectPersonal,
  objectRecovery,
  objectSecret,
  objectStore,
  objectWallet,
  persona,
  placeReference,
  placeElsewhere,
  phrasalSense,
  personaUnrestricted,
  preferenceBias,
  retention,
  reportSubject,
  scopeBroad,
  secretPlaceholder,
  solicitVerb,
  stealth,
  threatSubject,
  triggerRecurring,
  // Word lists (`"use": "words"`), read as sets.
  forbiddingWord,
  alternativeWord,
  copula,
  rankedGuidance,
  stepsLead,
  pointsBack,
  pointsBackAlone,
  personOrLink,
  responsePart,
  partyNoun,
  sourcePreposition,
  goalPreposition,
  clauseLink,
  passiveStart,
  auxiliaryVerb,
  abbreviation,
  agentSubject,
  backReference,
  citationMarker,
  clauseContinuation,
  conditionWord,
  defenseVerb,
  consentingParty,
  continuationWord,
  humanSubject,
  localHost,
  stepNoun,
  stepAdverb,
  leadClauseOpener,
  locativePreposition,
  urlScheme,
  modalVerb,
  questionStart,
  relativePronoun,
  stopVerb,
  subjectArticle,
  techniqueNoun,
  editVerb,
  workingCopy,
  documentPart,
  restrictor,
  urgingVerb,
  codeBroadTarget,
  codeDestroy,
  codeFetchTool,
  codeInstallerName,
  codeHostingHost,
  codeInterpreter,
  codePersistLocation,
  codeProbe,
  codeTamperTarget,
  codeUnsafeLoader,
  codeVerifyCommand,
  codeShellCommand,
  codeShadowedCommand,
  codeCovertSink,
  codePatternLanguage,
  codeNetworkSink,
  toolEffectDestroy,
  toolEffectWrite,
  toolEffectSend,
  toolEffectExecute,
  toolEffectNounLike,
  // Names read exactly as written (`"use": "names"`): tool names, home-directory paths, hosts.
  toolBuiltinName,
  toolPopularName,
  homeAgentConfig,
  homeShellProfile,
  envHijackVariable,
  vendorBrand,
  vendorApiHost,
] as const satisfies readonly LexiconFile[];

export type LexiconClass = (typeof LEXICON_FILES)[number]['class'];

/**
 * Letters of scripts written without spaces between words (Chinese, Japanese kana and kanji) or
 * whose words carry their particles and endings (Korean syllables): each such letter is a token of
 * its own, so a lexicon phrase in these scripts (also written as one run, "发送") is matched as its
 * sequence of characters wherever it stands in the run, with no word segmentation.
 */
const SINGLE_LETTER_RANGES = '\\u3041-\\u3096\\u309d-\\u309f\\u30a1-\\u30fa\\u30fc-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7a3\\uf900-\\ufaff';
const SINGLE_LETTER = new RegExp(`[${SINGLE_LETTER_RANGES}]`, 'u');

/**
 * Words of prose: letters and digits, with inner apostrophes kept ("don't", "user's"). Hyphens,
 * dots and underscores separate tokens, so "force-push", "force push" and `send_message` read as
 * words. A letter of SINGLE_LETTER_RANGES is a token by itself.
 */
export const TOKEN_PATTERN = new RegExp(
  `(?=\\p{L})[${SINGLE_LETTER_RANGES}]|(?:(?![${SINGLE_LETTER_RANGES}])[\\p{L}\\p{N}])+(?:'(?:(?![${SINGLE_LETTER_RANGES}])[\\p{L}\\p{N}])+)*`,
  'gu',
);

/** One letter or digit (TOKEN_PATTERN's class), read where the scanner stands. */
const WORD_CHAR = /[\p{L}\p{N}]/uy;
/** ASCII letters and digits. */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0;
/** Non-ASCII characters of the basic plane already classified: 0 unknown, 1 word character, 2 not, 3 a letter that is a token by itself. */
const BMP_WORD = new Uint8Array(0x10000);

function classifyBmp(text: string, i: number, c: number): number {
  let known = BMP_WORD[c]!;
  if (known === 0) {
    WORD_CHAR.lastIndex = i;
    known = WORD_CHAR.test(text) ? (SINGLE_LETTER.test(text[i]) ? 3 : 1) : 2;
    BMP_WORD[c] = known;
  }
  return known;
}

/** Is the character at `i` a letter that is a token by itself (SINGLE_LETTER_RANGES)? */
function singleLetterAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0x3041 && c <= 0xfaff && classifyBmp(text, i, c) === 3;
}

/** Code units of the word character at `i` (1, or 2 for a surrogate pair), or 0 when there is none. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_WORD[c]!;
  if (c < 0xd800 || (c > 0xdfff && c <= 0xffff)) return classifyBmp(text, i, c) === 2 ? 0 : 1;
  if (Number.isNaN(c)) return 0;
  WORD_CHAR.lastIndex = i;
  return WORD_CHAR.test(text) ? WORD_CHAR.lastIndex - i : 0;
}

/**
 * The next token of `text` at or after `from`, as TOKEN_PATTERN's global search finds it, without
 * a match object: its start, or -1, with its end in `span[1]`. Instruction analysis tokenizes every
 * prose line of every file; the regex's match arrays were most of that layer's allocation.
 */
export function nextToken(text: string, from: number, span: [number, number]): number {
  const n = text.length;
  let i = from;
  while (i < n) {
    const w = wordCharAt(text, i);
    if (w > 0) break;
    const c = text.charCodeAt(i);
    // TOKEN_PATTERN is a /u pattern: it steps over a surrogate pair as one character.
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  if (i >= n) return -1;
  if (singleLetterAt(text, i)) {
    span[0] = i;
    span[1] = i + 1;
    return i;
  }
  let end = i;
  for (;;) {
    const w = wordCharAt(text, end);
    if (w > 0 && !singleLetterAt(text, end)) {
      end += w;
      continue;
    }
    // An inner apostrophe joins two runs ("don't"); a trailing one does not.
    if (text.charCodeAt(end) === 39) {
      const after = wordCharAt(text, end + 1);
      if (after > 0 && !singleLetterAt(text, end + 1)) {
        end += 1 + after;
        continue;
      }
    }
    break;
  }
  span[0] = i;
  span[1] = end;
  return i;
}

/** Lower-cased tokens of a string, with their offsets; typographic apostrophes read as ASCII ones. */
export function tokenize(text: string): { token: string; start: number; end: number }[] {
  const out: { token: string; start: number; end: number }[] = [];
  const straight = text.includes('\u2019') ? text.replace(/\u2019/g, "'") : text;
  // Lower-casing can change the length of a few characters (İ); offsets then come from the original.
  const lower = straight.toLowerCase();
  const src = lower.length === straight.length ? lower : straight;
  const lowered = src === lower;
  const span: [number, number] = [0, 0];
  for (let at = nextToken(src, 0, span); at >= 0; at = nextToken(src, span[1], span)) {
    const word = src.slice(span[0], span[1]);
    out.push({ token: lowered ? word : word.toLowerCase(), start: span[0], end: span[1] });
  }
  return out;
}

/** Longest phrase, in tokens, any lexicon may hold: bounds the walk from each token. */
export const LONGEST_PHRASE = 10;
/** A phrase pattern may expand to at most this many phrases (a typo in a data file cannot blow up the trie). */
const MAX_EXPANSIONS = 2048;

interface TrieNode {
  next: Map<string, TrieNode>;
  classes: LexiconClass[] | null;
}

/** One part of a phrase pattern: a group of multi-word alternatives in parentheses, or a run of non-space characters. */
const PHRASE_PART = /\([^()]{1,200}\)|\S+/g;

/** `send/sends [them] to` → every token sequence it stands for. */
export function expandPhrase(pattern: string): string[][] {
  let results: string[][] = [[]];
  for (const part of pattern.trim().match(PHRASE_PART) ?? []) {
    const optional = part.startsWith('[') && part.endsWith(']');
    const grouped = part.startsWith('(') && part.endsWith(')');
    const body = optional || grouped ? part.slice(1, -1) : part;
    const alternatives = body.split('/').map((alt) => tokenize(alt).map((t) => t.token));
    const next: string[][] = [];
    for (const prefix of results) {
      if (optional) next.push(prefix);
      for (const alt of alternatives) if (alt.length > 0) next.push([...prefix, ...alt]);
    }
    if (next.length > MAX_EXPANSIONS) throw new Error(`lexicon phrase expands too far: ${pattern}`);
    results = next;
  }
  return results.filter((r) => r.length > 0 && r.length <= LONGEST_PHRASE);
}

export interface LexiconMatch {
  /** Token index of the first token (inclusive) and past the last one (exclusive). */
  start: number;
  end: number;
  cls: LexiconClass;
}

/**
 * Tokens a phrase pattern's expansions may open with (a superset: the first token of every
 * alternative of its leading optional parts and of its first required part).
 */
function openingTokens(pattern: string): string[] {
  const out: string[] = [];
  for (const part of pattern.trim().match(PHRASE_PART) ?? []) {
    const optional = part.startsWith('[') && part.endsWith(']');
    const grouped = part.startsWith('(') && part.endsWith(')');
    const body = optional || grouped ? part.slice(1, -1) : part;
    for (const alt of body.split('/')) {
      const first = tokenize(alt)[0];
      if (first) out.push(first.token);
    }
    if (!optional) break;
  }
  return out;
}

/** A phrase's first token not yet expanded into its subtree (see LexiconMatcher.firstNode). */
const UNBUILT: TrieNode = { next: new Map(), classes: null };

export class LexiconMatcher {
  private readonly patterns: { cls: LexiconClass; pattern: string }[] = [];
  /**
   * Per token that may open a phrase: the subtree of the phrases opening with it, or UNBUILT. The
   * ~22,000 phrases the patterns expand to are only expanded for the tokens a text holds, so a
   * process that scans a few files (the CLI) does not pay for the whole vocabulary at start-up.
   */
  private readonly byFirst = new Map<string, TrieNode | null>();
  /** Per opening token, the patterns (ids, in file order) that may expand to a phrase opening with it. */
  private readonly openers = new Map<string, number[]>();

  constructor(files: readonly { class: string; phrases: readonly string[] }[]) {
    for (const file of files) {
      for (const pattern of file.phrases) {
        const id = this.patterns.push({ cls: file.class as LexiconClass, pattern }) - 1;
        for (const t of openingTokens(pattern)) {
          const ids = this.openers.get(t);
          if (!ids) {
            this.openers.set(t, [id]);
            this.byFirst.set(t, UNBUILT);
          } else if (ids[ids.length - 1] !== id) ids.push(id);
        }
      }
    }
  }

  /** The subtree of the phrases opening with `token` (built at its first use), or undefined when none does. */
  private firstNode(token: string): TrieNode | undefined {
    const node = this.byFirst.get(token);
    if (node !== UNBUILT) return node ?? undefined;
    // Patterns in file order and their expansions in order: each node's classes are in the order
    // a whole-vocabulary build would give them.
    const built: TrieNode = { next: new Map(), classes: null };
    let any = false;
    for (const id of this.openers.get(token)!) {
      const { cls, pattern } = this.patterns[id]!;
      for (const phrase of expandPhrase(pattern)) {
        if (phrase[0] !== token) continue;
        insert(built, phrase, 1, cls);
        any = true;
      }
    }
    this.byFirst.set(token, any ? built : null);
    return any ? built : undefined;
  }

  /** Whether some phrase starts with this token (a dotfile name is read as `dot<name>` only where a lexicon lists that form). */
  startsPhrase(token: string): boolean {
    return this.firstNode(token) !== undefined;
  }

  /**
   * Every class phrase in the token sequence, keeping per class and start only the longest phrase
   * ("without asking for confirmation" over "without asking").
   */
  match(tokens: readonly string[], from = 0, to = tokens.length): LexiconMatch[] {
    const out: LexiconMatch[] = [];
    for (let i = from; i < to; i++) {
      let node = this.firstNode(tokens[i]);
      if (!node) continue;
      // Deeper nodes end later, so a class seen again replaces its shorter match from the same start.
      const firstOfStart = out.length;
      for (let j = i; ;) {
        if (node.classes) {
          for (const cls of node.classes) {
            let k = firstOfStart;
            while (k < out.length && out[k].cls !== cls) k++;
            if (k < out.length) out[k].end = j + 1;
            else out.push({ start: i, end: j + 1, cls });
          }
        }
        if (++j >= to || j - i >= LONGEST_PHRASE) break;
        node = node.next.get(tokens[j]);
        if (!node) break;
      }
    }
    return out;
  }
}

/** Adds `tokens` from index `from` on below `node`, ending in class `cls`. */
function insert(node: TrieNode, tokens: readonly string[], from: number, cls: LexiconClass): void {
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k];
    let child = node.next.get(t);
    if (!child) {
      child = { next: new Map(), classes: null };
      node.next.set(t, child);
    }
    node = child;
  }
  node.classes ??= [];
  if (!node.classes.includes(cls)) node.classes.push(cls);
}

let shared: LexiconMatcher | null = null;

/** The matcher over every frame lexicon (not the word lists), built on first use and shared. */
export function lexiconMatcher(): LexiconMatcher {
  shared ??= new LexiconMatcher(LEXICON_FILES.filter((f) => (f as LexiconFile).use === undefined));
  return shared;
}

/** The words of a word-list lexicon (`"use": "words"`), lower-cased as tokens are. */
export function lexiconWords(cls: LexiconClass): ReadonlySet<string> {
  const file = LEXICON_FILES.find((f) => f.class === cls) as LexiconFile | undefined;
  if (!file || file.use !== 'words') throw new Error(`no word-list lexicon ${cls}`);
  const words = new Set<string>();
  for (const pattern of file.phrases) for (const phrase of expandPhrase(pattern)) words.add(phrase.join(' '));
  return words;
}

/** The entries of a code lexicon (`"use": "code"`), lower-cased, read literally (no phrase expansion). */
export function codeLexicon(cls: LexiconClass): ReadonlySet<string> {
  // Built once per class: the code rules read these per call and per guard.
  let words = CODE_LEXICONS.get(cls);
  if (!words) {
    const file = LEXICON_FILES.find((f) => f.class === cls) as LexiconFile | undefined;
    if (!file || file.use !== 'code') throw new Error(`no code lexicon ${cls}`);
    words = new Set(file.phrases.map((p) => p.toLowerCase()));
    CODE_LEXICONS.set(cls, words);
  }
  return words;
}
const CODE_LEXICONS = new Map<LexiconClass, ReadonlySet<string>>();

/** The entries of a names lexicon (`"use": "names"`), exactly as written, in file order. */
export function lexiconNames(cls: LexiconClass): readonly string[] {
  const file = LEXICON_FILES.find((f) => f.class === cls) as LexiconFile | undefined;
  if (!file || file.use !== 'names') throw new Error(`no names lexicon ${cls}`);
  return file.phrases;
}
