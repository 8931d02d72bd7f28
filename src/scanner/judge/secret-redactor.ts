/**
 * Redacts secrets before file content leaves the process for a judge provider. Line structure is
 * preserved (a multi-line private key keeps its line count) so `Lnn:` numbers still match the file.
 * Favouring recall: redacting a non-secret only hides a token from the judge; sending a live
 * credential to a third party cannot be undone.
 */

interface SecretPattern {
  kind: string;
  re: RegExp;
  /** Index of the capture group holding the secret; 0 = the whole match. */
  group: number;
  /** Capture group of the key name, for key-value patterns. */
  keyGroup?: number;
}

/** Keys that name where a secret lives or is sent, not the secret: keep them visible to the judge. */
const NON_SECRET_KEY = /(?:url|uri|path|file|endpoint|host|header|type|name|env|var|length|count|limit|max_tokens|tokens)$/i;
/** Values that name a location rather than being a credential (an exfiltration URL must stay visible). */
const NON_SECRET_VALUE = /^(?:https?:\/\/|\/|~|\.\.?\/|\d+$|true$|false$|null$|none$)/i;

const PATTERNS: SecretPattern[] = [
  { kind: 'bulwark_api_key', re: /\bbwk_[A-Za-z0-9]{16,}\b/g, group: 0 },
  { kind: 'anthropic_key', re: /\bsk-ant-[A-Za-z0-9_-]{16,}/g, group: 0 },
  { kind: 'openai_key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, group: 0 },
  { kind: 'github_token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b/g, group: 0 },
  { kind: 'gitlab_token', re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g, group: 0 },
  { kind: 'slack_token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, group: 0 },
  { kind: 'slack_webhook', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g, group: 0 },
  { kind: 'stripe_key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, group: 0 },
  { kind: 'google_api_key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g, group: 0 },
  { kind: 'aws_access_key_id', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g, group: 0 },
  { kind: 'npm_token', re: /\bnpm_[A-Za-z0-9]{36}\b/g, group: 0 },
  { kind: 'huggingface_token', re: /\bhf_[A-Za-z0-9]{30,}\b/g, group: 0 },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, group: 0 },
  { kind: 'bearer_token', re: /\b[Bb]earer\s+([A-Za-z0-9._~+/=-]{16,})/g, group: 1 },
  { kind: 'url_password', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]{3,})@/gi, group: 1 },
  {
    // key = value / key: value / "key": "value" where the key names a secret.
    kind: 'assigned_secret',
    re: /\b([A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[A-Za-z0-9_.-]*)["']?\s*[:=]\s*["']?([^\s"'`,;]{8,})/gi,
    group: 2,
    keyGroup: 1,
  },
];

/** Values that are clearly placeholders or references, not secrets. */
const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\{\{.*|<[^>]*>|\{\{.*\}\}|%[A-Za-z_]+%|x{6,}|\*{6,}|\.{3,}|your[_-].*|changeme|placeholder|example.*|process\.env\..*|os\.environ.*|env\(.*|getenv.*|\[REDACTED.*)$/i;

const PRIVATE_KEY_BEGIN = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----/;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;

export interface RedactionResult {
  lines: string[];
  /** Number of redactions made (for coverage notes; never the values). */
  count: number;
}

/** Redacts secrets line by line; `lines` has exactly as many entries as the input. */
export function redactSecrets(lines: readonly string[]): RedactionResult {
  let count = 0;
  let inKey = false;
  const out = lines.map((line) => {
    if (inKey) {
      if (PRIVATE_KEY_END.test(line)) inKey = false;
      else {
        count++;
        return '[REDACTED:private_key]';
      }
      return line;
    }
    const begin = PRIVATE_KEY_BEGIN.exec(line);
    if (begin) {
      count++;
      if (!PRIVATE_KEY_END.test(line.slice(begin.index + begin[0].length))) inKey = true;
      return line.replace(/(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/, '$1[REDACTED:private_key]$2');
    }
    let result = line;
    for (const p of PATTERNS) {
      result = result.replace(p.re, (...args: unknown[]) => {
        const match = args[0] as string;
        const secret = p.group === 0 ? match : (args[p.group] as string | undefined);
        if (!secret || PLACEHOLDER.test(secret) || secret.includes('[REDACTED')) return match;
        if (p.keyGroup !== undefined) {
          const key = args[p.keyGroup] as string;
          if (NON_SECRET_KEY.test(key) || NON_SECRET_VALUE.test(secret)) return match;
        }
        count++;
        return p.group === 0 ? `[REDACTED:${p.kind}]` : match.replace(secret, `[REDACTED:${p.kind}]`);
      });
    }
    return result;
  });
  return { lines: out, count };
}
