/**
 * Formatting of the runner's summary: a plain-text table for the terminal and the same rows as
 * Markdown for docs/performance.md. Pure functions (unit-tested in report-table.spec.ts).
 */
import type { Figure, PartResult, Target } from './bench-result';

export interface Row {
  part: string;
  figure: string;
  value: string;
  target: string;
  result: string;
}

export function formatValue(value: number | null, unit: string): string {
  if (value === null) return '—';
  const abs = Math.abs(value);
  const digits = abs >= 100 || Number.isInteger(value) ? 0 : abs >= 10 ? 1 : 2;
  const text = value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit ? `${text} ${unit}` : text;
}

export function formatTarget(target: Target | undefined, unit: string): string {
  if (!target) return '';
  return `${target.op === '<=' ? '≤' : '≥'} ${formatValue(target.value, unit)}`;
}

export function resultOf(f: Figure): string {
  if (f.value === null) return f.note?.startsWith('skipped') ? 'skipped' : f.target ? 'not measured' : '—';
  if (f.pass === true) return 'pass';
  if (f.pass === false) return 'MISS';
  return '';
}

export function rowsOf(parts: readonly PartResult[]): Row[] {
  const rows: Row[] = [];
  for (const p of parts) {
    if (p.status !== 'ok' && p.figures.length === 0) {
      rows.push({
        part: p.bench,
        figure: p.status === 'skipped' ? `skipped: ${p.reason ?? ''}` : `FAILED: ${p.reason ?? ''}`,
        value: '',
        target: '',
        result: p.status === 'skipped' ? 'skipped' : 'FAILED',
      });
      continue;
    }
    for (const f of p.figures) {
      const note = f.value === null ? (f.note ?? '') : f.note ? ` (${f.note})` : '';
      rows.push({
        part: p.bench,
        figure: f.value === null ? `${f.label}${note ? ` — ${note}` : ''}` : `${f.label}${note}`,
        value: formatValue(f.value, f.unit),
        target: formatTarget(f.target, f.unit),
        result: resultOf(f),
      });
    }
    if (p.status === 'failed') rows.push({ part: p.bench, figure: `FAILED: ${p.reason ?? ''}`, value: '', target: '', result: 'FAILED' });
  }
  return rows;
}

const HEADERS: Row = { part: 'part', figure: 'figure', value: 'value', target: 'target', result: 'result' };
const COLUMNS = ['part', 'figure', 'value', 'target', 'result'] as const;

export function formatText(rows: readonly Row[], maxFigureWidth = 78): string {
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  const all = [HEADERS, ...rows].map((r) => ({ ...r, figure: clip(r.figure, maxFigureWidth) }));
  const width = Object.fromEntries(COLUMNS.map((c) => [c, Math.max(...all.map((r) => r[c].length))])) as Record<(typeof COLUMNS)[number], number>;
  const line = (r: Row) =>
    COLUMNS.map((c) => (c === 'value' || c === 'target' ? r[c].padStart(width[c]) : r[c].padEnd(width[c])))
      .join('  ')
      .trimEnd();
  const rule = COLUMNS.map((c) => '-'.repeat(width[c])).join('  ');
  return [line(all[0]!), rule, ...all.slice(1).map(line)].join('\n');
}

export function formatMarkdown(rows: readonly Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| part | figure | value | target | result |',
    '|---|---|---:|---:|---|',
    ...rows.map((r) => `| ${esc(r.part)} | ${esc(r.figure)} | ${esc(r.value)} | ${esc(r.target)} | ${r.result === 'MISS' ? '**MISS**' : esc(r.result)} |`),
  ].join('\n');
}

export function tally(rows: readonly Row[]): { pass: number; miss: number; skipped: number; failed: number } {
  return {
    pass: rows.filter((r) => r.result === 'pass').length,
    miss: rows.filter((r) => r.result === 'MISS').length,
    skipped: rows.filter((r) => r.result === 'skipped').length,
    failed: rows.filter((r) => r.result === 'FAILED').length,
  };
}
