/**
 * Last line of defence for report evidence: whatever the rule engine or the judge put in a
 * finding, the report carries at most EVIDENCE_MAX_CHARS characters and no recognisable secret.
 * (Rules redact too; this pass makes the guarantee independent of every rule being right.)
 */

import { redactSecretText } from './secret-formats';

export const EVIDENCE_MAX_CHARS = 240;
export const TEXT_MAX_CHARS = 1000;

/** Text beyond this is never shown, so it is not scanned either (bounds redaction time). */
const REDACT_INPUT_MAX = 4096;

/** Bounded, redacted, single-line evidence. */
export function boundEvidence(text: string, max = EVIDENCE_MAX_CHARS): string {
  const redacted = redactSecretText(String(text ?? '').slice(0, REDACT_INPUT_MAX));
  const oneLine = redacted.replace(/\r\n?|\n/g, ' ⏎ ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** Invisible characters a finding may be about, shown as `<U+XXXX>` so the reader sees what matched. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDDEF]|[\uFE00-\uFE0F]/g;

/** A rule's matched text made readable: one line, whitespace runs collapsed, invisible characters named. */
export function readableEvidence(text: string): string {
  const head = text.length > REDACT_INPUT_MAX ? text.slice(0, REDACT_INPUT_MAX) : text;
  return head
    .replace(/\s+/g, ' ')
    .trim()
    .replace(INVISIBLE, (ch) => `<U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}>`);
}

/** Bounded free text (messages, rationales): redacted, length-capped, newlines kept. */
export function boundText(text: string, max = TEXT_MAX_CHARS): string {
  const redacted = redactSecretText(String(text ?? '').slice(0, REDACT_INPUT_MAX));
  return redacted.length > max ? `${redacted.slice(0, max - 1)}…` : redacted;
}
