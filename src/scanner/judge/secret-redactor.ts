/**
 * Redacts secrets before file content leaves the process for a judge provider. Line structure is
 * preserved (a multi-line private key keeps its line count) so `Lnn:` numbers still match the file.
 * The formats are the engine's one catalogue (src/scanner/engine/secret-formats.ts). Favouring
 * recall: redacting a non-secret only hides a token from the judge; sending a live credential to a
 * third party cannot be undone.
 */
import { PRIVATE_KEY_BEGIN, PRIVATE_KEY_END, redactSecretText } from '../engine/secret-formats';

export interface RedactionResult {
  lines: string[];
  /** Number of redactions made (for coverage notes; never the values). */
  count: number;
}

/** Redacts secrets line by line; `lines` has exactly as many entries as the input. */
export function redactSecretLines(lines: readonly string[]): RedactionResult {
  let count = 0;
  const counted = () => {
    count++;
  };
  let inKey = false;
  const out = lines.map((line) => {
    if (inKey) {
      if (PRIVATE_KEY_END.test(line)) {
        inKey = false;
        return line;
      }
      count++;
      return '[REDACTED:private_key]';
    }
    const begin = PRIVATE_KEY_BEGIN.exec(line);
    // A key block that does not end on its own line hides every line until its END marker.
    if (begin && !PRIVATE_KEY_END.test(line.slice(begin.index + begin[0].length))) inKey = true;
    return redactSecretText(line, counted);
  });
  return { lines: out, count };
}
