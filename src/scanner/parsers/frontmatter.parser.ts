/**
 * YAML frontmatter with hard limits: size, alias count (billion-laughs), nesting depth. A failure
 * yields `null` (the raw text is still scanned), never an exception.
 */
import { parseDocument } from 'yaml';

export const FRONTMATTER_MAX_BYTES = 64 * 1024;
const MAX_DEPTH = 20;

export interface Frontmatter {
  /** 1-based line of the opening `---`. */
  startLine: number;
  /** 1-based line of the closing `---`. */
  endLine: number;
  data: Record<string, unknown> | null;
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_DEPTH) return depth;
  if (Array.isArray(value)) return Math.max(depth, ...value.slice(0, 1000).map((v) => depthOf(v, depth + 1)));
  if (value && typeof value === 'object') {
    return Math.max(
      depth,
      ...Object.values(value)
        .slice(0, 1000)
        .map((v) => depthOf(v, depth + 1)),
    );
  }
  return depth;
}

export function parseFrontmatter(lines: readonly string[]): Frontmatter | null {
  if (lines.length < 2 || lines[0].trim() !== '---') return null;
  let end = -1;
  let size = 0;
  for (let i = 1; i < lines.length; i++) {
    size += lines[i].length + 1;
    if (size > FRONTMATTER_MAX_BYTES) return { startLine: 1, endLine: i + 1, data: null };
    const t = lines[i].trim();
    if (t === '---' || t === '...') {
      end = i;
      break;
    }
  }
  if (end === -1) return null;
  const body = lines.slice(1, end).join('\n');
  let data: Record<string, unknown> | null = null;
  try {
    const doc = parseDocument(body, { uniqueKeys: false, prettyErrors: false, strict: false });
    if (doc.errors.length === 0) {
      const js: unknown = doc.toJS({ maxAliasCount: 50 });
      if (js && typeof js === 'object' && !Array.isArray(js) && depthOf(js) <= MAX_DEPTH) {
        data = js as Record<string, unknown>;
      }
    }
  } catch {
    data = null;
  }
  return { startLine: 1, endLine: end + 1, data };
}
