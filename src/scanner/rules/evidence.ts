/** Evidence is bounded and never carries a usable secret. */

export const MAX_EVIDENCE = 200;

/** Provider token shapes and generic `secret = value` assignments (value part redacted). */
const SECRET_VALUE_RES: RegExp[] = [
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,255}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,255}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,255}\b/g,
  /\bsk-(?:ant-|proj-|live-)?[A-Za-z0-9_-]{16,255}\b/g,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,255}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,40}\b/g,
  /\bglpat-[A-Za-z0-9_-]{16,64}\b/g,
  /\bnpm_[A-Za-z0-9]{30,64}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}/g,
  /-----BEGIN [A-Z ]{0,30}PRIVATE KEY-----[\s\S]{0,5000}?(?:-----END [A-Z ]{0,30}PRIVATE KEY-----|$)/g,
];
const ASSIGNMENT_RE =
  /\b([A-Za-z0-9_]{0,40}(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[A-Za-z0-9_]{0,40}["']?\s{0,3}[:=]\s{0,3}["']?)([^\s"',;]{6,400})/gi;

function mask(value: string): string {
  return `${value.slice(0, 4)}…[REDACTED]`;
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const re of SECRET_VALUE_RES) out = out.replace(re, (m) => mask(m));
  out = out.replace(ASSIGNMENT_RE, (_m, key: string, value: string) => (value.includes('[REDACTED]') ? `${key}${value}` : `${key}${mask(value)}`));
  return out;
}

/** Bounded, single-line, redacted, with invisible characters made visible. */
export function boundEvidence(text: string): string {
  let out = text.length > 2000 ? text.slice(0, 2000) : text;
  out = out.replace(/[\r\n]+/g, ' ').replace(/\s{2,}/g, ' ').trim();
  out = out.replace(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDDEF]|[\uFE00-\uFE0F]/g, (ch) => {
    const cp = ch.codePointAt(0) ?? 0;
    return `<U+${cp.toString(16).toUpperCase()}>`;
  });
  out = redactSecrets(out);
  return out.length > MAX_EVIDENCE ? `${out.slice(0, MAX_EVIDENCE - 1)}…` : out;
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const EVIDENCE_REGEXES: readonly RegExp[] = [...SECRET_VALUE_RES, ASSIGNMENT_RE];
