import type { Band } from '../../scanner/engine/scan-report.types';

/**
 * Terminal safety and colour. Scanned files are hostile by assumption: evidence, file names and
 * server messages may carry escape sequences or bidi overrides meant to rewrite what the terminal
 * shows, so everything untrusted goes through `safeText` before it is printed.
 */

// C0/C1 controls (ESC included), DEL, bidi embeddings/overrides/isolates, zero-width and BOM.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Untrusted text for one terminal line: controls escaped as \uXXXX, newlines and tabs as spaces, bounded. */
export function safeText(text: string, max = 200): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ').replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export interface Palette {
  bold(s: string): string;
  dim(s: string): string;
  band(band: Band | null, s: string): string;
  ok(s: string): string;
  bad(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

const COLOURS: Palette = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  ok: wrap(32, 39),
  bad: wrap(31, 39),
  band: (band, s) => {
    switch (band) {
      case 'critical':
        return wrap(1, 22)(wrap(31, 39)(s));
      case 'high':
        return wrap(31, 39)(s);
      case 'medium':
        return wrap(33, 39)(s);
      case 'low':
        return wrap(36, 39)(s);
      default:
        return wrap(32, 39)(s);
    }
  },
};

const PLAIN: Palette = { bold: (s) => s, dim: (s) => s, ok: (s) => s, bad: (s) => s, band: (_b, s) => s };

/** Colours on a TTY unless NO_COLOR is set; FORCE_COLOR (not "0") forces them on. */
export function choosePalette(isTty: boolean, env: Readonly<Record<string, string | undefined>>): Palette {
  const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (force) return COLOURS;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return PLAIN;
  return isTty ? COLOURS : PLAIN;
}

/** Left-aligned columns two spaces apart, header first, one line per row (the `keys` and `tenants` lists). */
export function columns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
