/**
 * Last line of defence for report evidence: whatever the rule engine or the judge put in a
 * finding, the report carries at most EVIDENCE_MAX_CHARS characters and no recognisable secret.
 * (Rules redact too; this pass makes the guarantee independent of every rule being right.)
 */

export const EVIDENCE_MAX_CHARS = 240;
export const TEXT_MAX_CHARS = 1000;

const SECRET_PATTERNS: { label: string; re: RegExp }[] = [
  { label: 'private-key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g },
  { label: 'aws-access-key', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { label: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b/g },
  { label: 'gitlab-token', re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { label: 'anthropic-key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { label: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { label: 'stripe-key', re: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { label: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { label: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  { label: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { label: 'bulwark-key', re: /\bbwk_[A-Za-z0-9]{20,}\b/g },
  { label: 'npm-token', re: /\bnpm_[A-Za-z0-9]{30,}\b/g },
  { label: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { label: 'url-credentials', re: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]{1,64}:)[^\s@/]{3,}(?=@)/gi },
  { label: 'bearer-token', re: /(?<=\bBearer[ \t]{1,8})[A-Za-z0-9._~+/-]{16,}=*/g },
];

/** Values assigned to secret-looking keys: `password = "hunter22"` keeps the key, hides the value. */
// Bounded repetitions keep this linear: unbounded `[\w.-]*` on both sides of the keyword went
// quadratic (seconds on 20 KB of "a.a.a.").
const ASSIGNED_SECRET =
  /(\b[\w.-]{0,32}?(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[\w.-]{0,32}["']?\s{0,4}[:=]\s{0,4}["']?)([^\s"',;}{]{6,256})/gi;

/** Text beyond this is never shown, so it is not scanned either (bounds redaction time). */
const REDACT_INPUT_MAX = 4096;

export function redactSecrets(text: string): string {
  let out = text;
  for (const { label, re } of SECRET_PATTERNS) out = out.replace(re, `[REDACTED:${label}]`);
  out = out.replace(ASSIGNED_SECRET, (_m, key: string, value: string) =>
    // Environment references are not secrets, and already-redacted values stay readable.
    /^\$\{?[A-Z_]|^\[REDACTED|^<[^>]*>$|^process\.env|^os\.environ/.test(value) ? `${key}${value}` : `${key}[REDACTED:secret]`,
  );
  return out;
}

/** Bounded, redacted, single-line evidence. */
export function boundEvidence(text: string, max = EVIDENCE_MAX_CHARS): string {
  const redacted = redactSecrets(String(text ?? '').slice(0, REDACT_INPUT_MAX));
  const oneLine = redacted.replace(/\r\n?|\n/g, ' ⏎ ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** Bounded free text (messages, rationales): redacted, length-capped, newlines kept. */
export function boundText(text: string, max = TEXT_MAX_CHARS): string {
  const redacted = redactSecrets(String(text ?? '').slice(0, REDACT_INPUT_MAX));
  return redacted.length > max ? `${redacted.slice(0, max - 1)}…` : redacted;
}
