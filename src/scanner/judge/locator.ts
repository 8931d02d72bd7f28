/** `path:line` helpers shared by the prompt builder and evidence verification. */

export interface ParsedLocator {
  path: string;
  line: number;
}

/** Parses `path:12` (also `path:12-14` or `path:12:3`, keeping the first line); null when no line. */
export function parseLocator(locator: string): ParsedLocator | null {
  const m = /^(.*?):(\d+)(?:[-:]\d+)?\s*$/.exec(locator.trim());
  if (!m) return null;
  const line = Number(m[2]);
  if (!Number.isSafeInteger(line) || line < 1) return null;
  return { path: m[1], line };
}

/** Path comparison tolerant of a leading `./` or `/` the model may add. */
export function samePath(a: string, b: string): boolean {
  const norm = (p: string) => p.trim().replace(/^\.?\/+/, '');
  return norm(a) === norm(b);
}
