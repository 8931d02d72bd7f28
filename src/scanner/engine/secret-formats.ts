/**
 * The one catalogue of secret-token formats. The hard-coded-secret rule (BW-SEC-001), the
 * evidence in reports and the text sent to a judge all read it, so a format added here is both
 * found and hidden everywhere. Every quantifier is bounded (src/scanner/rules/redos.spec.ts).
 */
import { lexiconWords } from '../lexicons/lexicon';
import { literalPattern } from './literal-pattern';

export interface SecretFormat {
  /** Names the format in `[REDACTED:<kind>]`. */
  kind: string;
  /** The token itself, without flags. */
  pattern: RegExp;
  /**
   * Its presence in an agent file is a leak worth a finding on its own. Shapes that documentation
   * shows routinely (the example JWT, webhook URLs, bearer headers) are only redacted.
   */
  detect: boolean;
  /** Lower-case literals of which every match contains one (the detector's trigger index). */
  triggers: readonly string[];
}

/** The opening line of a PEM private key; the block's body follows on later lines. */
export const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----/;
export const PRIVATE_KEY_END = /-----END [A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----/;

export const SECRET_FORMATS: readonly SecretFormat[] = [
  // The marker as a key file has it: at the end of its line (or of an escaped line) or before the
  // body. Named inside a sentence (`-----BEGIN PRIVATE KEY-----`) it is a pattern to look for.
  {
    kind: 'private_key',
    pattern: new RegExp(String.raw`${PRIVATE_KEY_BEGIN.source}(?=[ \t]{0,4}(?:\r?\n|\\n|$)|[ \t]{0,4}[A-Za-z0-9+/]{20})`),
    detect: true,
    triggers: ['private key'],
  },
  { kind: 'aws_access_key_id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/, detect: true, triggers: ['akia', 'asia', 'abia', 'acca'] },
  {
    kind: 'github_token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})\b/,
    detect: true,
    triggers: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
  { kind: 'gitlab_token', pattern: /\bglpat-[A-Za-z0-9_-]{20,64}/, detect: true, triggers: ['glpat-'] },
  // Before the OpenAI shape, which would also match an Anthropic key.
  { kind: 'anthropic_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{16,255}/, detect: true, triggers: ['sk-ant-'] },
  { kind: 'openai_key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/, detect: true, triggers: ['sk-'] },
  { kind: 'stripe_key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,255}\b/, detect: true, triggers: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'] },
  { kind: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,255}/, detect: true, triggers: ['xox'] },
  { kind: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/, detect: true, triggers: ['aiza'] },
  { kind: 'npm_token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/, detect: true, triggers: ['npm_'] },
  { kind: 'huggingface_token', pattern: /\bhf_[A-Za-z0-9]{30,255}\b/, detect: true, triggers: ['hf_'] },
  { kind: 'bulwark_api_key', pattern: /\bbwk_[A-Za-z0-9]{16,255}\b/, detect: false, triggers: ['bwk_'] },
  { kind: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,255}/, detect: false, triggers: ['hooks.slack.com'] },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}/, detect: false, triggers: ['eyj'] },
  // Only the secret part: the scheme, user and host of a URL stay readable.
  { kind: 'url_password', pattern: /(?<=\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]{1,64}:)[^\s@/]{3,256}(?=@)/i, detect: false, triggers: ['://'] },
  { kind: 'bearer_token', pattern: /(?<=\b[Bb]earer[ \t]{1,8})[A-Za-z0-9._~+/-]{16,4096}=*/, detect: false, triggers: ['bearer'] },
];

/** `password = "…"`, `"api_key": "…"`: the key names a secret; group 1 is the key, group 2 the value. */
const ASSIGNED_SECRET =
  /\b([\w.-]{0,32}?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[\w.-]{0,32})(["']?\s{0,4}[:=]\s{0,4}["']?)([^\s"'`,;{}]{8,256})/gi;
/** Keys that name where a secret lives or is sent, not the secret: an exfiltration URL must stay readable. */
const NON_SECRET_KEY = /(?:url|uri|path|file|endpoint|host|header|type|name|env|var|length|count|limit|max_tokens|tokens)$/i;
const NON_SECRET_VALUE = /^(?:https?:\/\/|\/|~|\.\.?\/|\d+$|true$|false$|null$|none$)/i;
/** Whole values that are references to a secret or stand in for one: `${X}`, `<key>`, `%X%`, `process.env.X`. */
const SECRET_REFERENCE =
  /^(?:\$\{?[A-Za-z_]\w{0,100}\}?|<[^>]{0,100}>|%[A-Za-z_]{1,60}%|\.{3,}|process\.env\..{0,200}|os\.environ.{0,200}|env\(.{0,200}|getenv.{0,200}|\[REDACTED.{0,200})$/i;
/** A placeholder word opening the value: `your-api-key`, `changeme`, `replace_with_token`. */
const PLACEHOLDER_WORD = new RegExp(`^(?:${[...lexiconWords('secret-placeholder')].join('|')})`, 'i');
/** A reference, a command substitution or a mask inside the value: `Bearer ${TOKEN}`, `$(pass show x)`, `{{ token }}`, `sk-xxxx`, `***`. */
const REFERENCE_OR_MASK = /\$[{(]|\{\{|x{4}|\*{3}/i;

/**
 * A value that is a placeholder or a reference to a secret, not the secret. The one test the secret
 * detector, evidence and judge redaction, and the MCP inline-secret rule share.
 */
export function isSecretPlaceholder(value: string): boolean {
  return SECRET_REFERENCE.test(value) || PLACEHOLDER_WORD.test(value) || REFERENCE_OR_MASK.test(value);
}

const GLOBAL_FORMATS = SECRET_FORMATS.map((f) => ({
  kind: f.kind,
  re: new RegExp(f.pattern.source, `${f.pattern.flags}g`),
  literals: literalPattern(f.triggers),
}));
/** A whole private-key block on one string (evidence can span the block's lines). */
const PRIVATE_KEY_BLOCK = new RegExp(`${PRIVATE_KEY_BEGIN.source}[\\s\\S]{0,8000}?(?:${PRIVATE_KEY_END.source}|$)`, 'g');
/** Literals of which every ASSIGNED_SECRET key holds one (password/passwd → `pass`, the `…key` names → `key`). */
const ASSIGNED_KEY_LITERALS = ['pass', 'pwd', 'secret', 'token', 'key', 'auth'];
const ASSIGNED_LITERALS = literalPattern(ASSIGNED_KEY_LITERALS);
/** Any literal of any pass: text without one (most evidence) is returned as it is. */
const ANY_LITERAL = literalPattern(['private key', ...SECRET_FORMATS.flatMap((f) => f.triggers), ...ASSIGNED_KEY_LITERALS]);

/**
 * Replaces every secret in `text` with `[REDACTED:<kind>]`; `onRedact` counts them. Placeholders
 * and references (`${TOKEN}`, `<your key>`, `process.env.X`) stay readable.
 */
export function redactSecretText(text: string, onRedact: () => void = () => undefined): string {
  // Each pass runs only on text holding a literal every match of it holds; the lower-cased copy
  // is renewed whenever a pass changed the text.
  let lower = text.toLowerCase();
  if (!ANY_LITERAL.test(lower)) return text;
  let out = text;
  if (lower.includes('private key')) {
    out = out.replace(PRIVATE_KEY_BLOCK, () => {
      onRedact();
      return '[REDACTED:private_key]';
    });
    if (out !== text) lower = out.toLowerCase();
  }
  for (const { kind, re, literals } of GLOBAL_FORMATS) {
    if (!literals.test(lower)) continue;
    const next = out.replace(re, (m: string) => {
      if (isSecretPlaceholder(m)) return m;
      onRedact();
      return `[REDACTED:${kind}]`;
    });
    if (next !== out) lower = next.toLowerCase();
    out = next;
  }
  if (!ASSIGNED_LITERALS.test(lower)) return out;
  return out.replace(ASSIGNED_SECRET, (m: string, key: string, sep: string, value: string) => {
    if (isSecretPlaceholder(value) || NON_SECRET_KEY.test(key) || NON_SECRET_VALUE.test(value)) return m;
    onRedact();
    return `${key}${sep}[REDACTED:assigned_secret]`;
  });
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const SECRET_FORMAT_REGEXES: readonly RegExp[] = [
  ...SECRET_FORMATS.map((f) => f.pattern),
  PRIVATE_KEY_END,
  PRIVATE_KEY_BLOCK,
  ASSIGNED_SECRET,
  NON_SECRET_KEY,
  NON_SECRET_VALUE,
  SECRET_REFERENCE,
  PLACEHOLDER_WORD,
  REFERENCE_OR_MASK,
  ASSIGNED_LITERALS,
  ANY_LITERAL,
  ...GLOBAL_FORMATS.map((f) => f.literals),
];
