// SQL building helpers shared by the modules' repositories (applications, graph, inventory import).

/** Collects positional parameters while a query is assembled: `p.add(v)` returns `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `%term%` for ILIKE with the pattern characters of the term escaped (backslash is ILIKE's escape). */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** pg returns bigint (count, sum) as strings; every such value here fits a JS number. */
export function toInt(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

const SEP = '\u0001';
const NUL = '\u0002';

/**
 * A column of values for a bulk `INSERT ... SELECT FROM unnest(...)`, sent as ONE text parameter
 * split server-side. PGlite parses array literals slowly (about 3× the cost of string_to_array on
 * the same data), which dominated large imports. Values containing the separator characters fall
 * back to an ordinary array parameter.
 */
export function packedColumn(p: SqlParams, values: readonly (string | number | boolean | null)[], cast: 'text' | 'int' | 'bool'): string {
  const strings = values.map((v) => (v === null ? null : String(v)));
  // '' alone splits to an empty array, and the separators cannot be escaped: use a plain array then.
  const plain = strings.length <= 1 || strings.some((s) => s !== null && (s.includes(SEP) || s.includes(NUL)));
  if (plain) return `${p.add(strings)}::${cast}[]`;
  const packed = p.add(strings.map((s) => (s === null ? NUL : s)).join(SEP));
  return `string_to_array(${packed}, chr(1), chr(2))::${cast}[]`;
}

/** `unnest(c1, c2, ...) AS t(n1, n2, ...)` over packed columns. */
export function unnestColumns(
  p: SqlParams,
  columns: Record<string, { values: readonly (string | number | boolean | null)[]; cast: 'text' | 'int' | 'bool' }>,
): string {
  const names = Object.keys(columns);
  return `unnest(${names.map((n) => packedColumn(p, columns[n]!.values, columns[n]!.cast)).join(', ')}) AS t(${names.map((n) => `"${n}"`).join(', ')})`;
}

/**
 * Rows affected by an UPDATE/DELETE run through `manager.query` (TypeORM's postgres driver returns
 * `[rows, rowCount]` for those commands, plain rows for the rest).
 */
export function affectedRows(result: unknown): number {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[1];
  return Array.isArray(result) ? result.length : 0;
}

/** `ORDER BY` terms over whitelisted `columns` (field name → SQL), then `tieBreaker` for a stable page order. */
export function orderBySql(orders: readonly { field: string; direction: 'asc' | 'desc' }[], columns: Record<string, string>, tieBreaker: string): string {
  return [...orders.map((o) => `${columns[o.field]} ${o.direction === 'desc' ? 'DESC' : 'ASC'}`), `${tieBreaker} ASC`].join(', ');
}

/** SQL CASE giving the rank (1-based) of `column` within `values`; 0 for unknown values. */
export function rankSql(column: string, values: readonly string[]): string {
  return `(CASE ${column} ${values.map((v, i) => `WHEN '${v}' THEN ${i + 1}`).join(' ')} ELSE 0 END)`;
}
