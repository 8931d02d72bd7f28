import { atLeast, atMost, figure, type PartResult } from './bench-result';
import { formatMarkdown, formatText, formatValue, rowsOf, tally } from './report-table';
import { PARTS, PART_GROUPS, selectParts } from '../run';

const part = (over: Partial<PartResult>): PartResult => ({
  bench: 'p',
  status: 'ok',
  when: '2026-01-01T00:00:00.000Z',
  node: 'v20',
  cpus: 2,
  load_average_1m: { start: 1, end: 1 },
  duration_s: 1,
  figures: [],
  details: {},
  ...over,
});

describe('figure', () => {
  it('judges ≥ and ≤ targets, and leaves untargeted or unmeasured figures unjudged', () => {
    expect(figure('a', 'a', 41, '%', atLeast(40)).pass).toBe(true);
    expect(figure('a', 'a', 39.9, '%', atLeast(40)).pass).toBe(false);
    expect(figure('b', 'b', 25, 'ms', atMost(25)).pass).toBe(true);
    expect(figure('b', 'b', 25.1, 'ms', atMost(25)).pass).toBe(false);
    expect(figure('c', 'c', 12, 'req/s').pass).toBeNull();
    expect(figure('d', 'd', NaN, 'ms', atMost(1))).toMatchObject({ value: null, pass: null });
  });
});

describe('report table', () => {
  const parts = [
    part({ bench: 'api', figures: [figure('x', 'GET p99', 31.4, 'ms', atMost(25)), figure('y', 'ratio', 52, '%', atLeast(40))] }),
    part({ bench: 'pg', figures: [{ id: 'z', label: 'PG p99', value: null, unit: 'ms', target: atMost(25), pass: null, note: 'skipped (no PostgreSQL)' }] }),
    part({ bench: 'peers', status: 'failed', reason: 'npm install failed' }),
  ];

  it('shows every figure with its target and pass/MISS/skipped/FAILED', () => {
    const rows = rowsOf(parts);
    expect(rows.map((r) => [r.part, r.value, r.target, r.result])).toEqual([
      ['api', '31.4 ms', '≤ 25 ms', 'MISS'],
      ['api', '52 %', '≥ 40 %', 'pass'],
      ['pg', '—', '≤ 25 ms', 'skipped'],
      ['peers', '', '', 'FAILED'],
    ]);
    expect(rows[2]!.figure).toContain('skipped (no PostgreSQL)');
    expect(tally(rows)).toEqual({ pass: 1, miss: 1, skipped: 1, failed: 1 });
  });

  it('formats aligned text and Markdown with the same rows', () => {
    const rows = rowsOf(parts);
    const text = formatText(rows).split('\n');
    expect(text[0]).toMatch(/^part\s+figure\s+value\s+target\s+result$/);
    expect(text).toHaveLength(2 + rows.length);
    const md = formatMarkdown(rows);
    expect(md).toContain('| api | GET p99 | 31.4 ms | ≤ 25 ms | **MISS** |');
  });

  it('rounds values by magnitude', () => {
    expect(formatValue(1234.56, 'req/s')).toBe('1,235 req/s');
    expect(formatValue(12.345, 'ms')).toBe('12.3 ms');
    expect(formatValue(1.2345, 'MB/s')).toBe('1.23 MB/s');
  });
});

describe('selectParts', () => {
  it('names only known parts in its groups', () => {
    for (const names of Object.values(PART_GROUPS)) for (const n of names) expect(PARTS.map((p) => p.name)).toContain(n);
  });

  it('runs everything by default, named parts on request, and refuses unknown names', () => {
    expect(selectParts([])).toHaveLength(PARTS.length);
    expect(selectParts(['api']).map((p) => p.name)).toEqual(['api']);
    expect(() => selectParts(['nope'])).toThrow(/unknown part/);
  });

  it("expands a group into its parts, in the runner's order", () => {
    expect(selectParts(['throughput']).map((p) => p.name)).toEqual(['scanner-static', 'scanner-worst-case', 'scan-endpoint', 'peers']);
    expect(selectParts(['peers', 'throughput']).map((p) => p.name)).toEqual(['scanner-static', 'scanner-worst-case', 'scan-endpoint', 'peers']);
  });
});
