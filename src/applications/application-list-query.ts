import { ValidationFailedError, type ValidationIssue } from '../common/errors';
import { APPLICATION_TYPES, BUSINESS_IMPACTS, OWNER_TYPES, TIERS } from './application-enums';
import { RISK_LEVELS } from '../inventory/inventory-enums';
import { MAX_INT4 } from '../common/int4';

/**
 * Pure parsing of the list operations' sort and filter inputs (docs/inventory.md "List") into a typed spec;
 * every rejection is a 422 with the exact `loc`. The repository turns the spec into SQL.
 */

export type Direction = 'asc' | 'desc';
export interface OrderTerm {
  field: string;
  direction: Direction;
}

export const APPLICATION_ORDER_FIELDS = [
  'id',
  'name',
  'tier',
  'business_impact',
  'severity',
  'application_type',
  'created',
  'updated',
  'service_count',
  'resource_count',
  'urgent',
  'plan',
  'defer',
] as const;
export type ApplicationOrderField = (typeof APPLICATION_ORDER_FIELDS)[number];
export const APPLICATION_DEFAULT_ORDER: OrderTerm[] = [{ field: 'name', direction: 'asc' }];

export const FILTER_OPS = ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
const RANGE_OPS: readonly FilterOp[] = ['gt', 'gte', 'lt', 'lte'];

type FieldKind = { kind: 'enum'; values: readonly string[] } | { kind: 'string' } | { kind: 'id' } | { kind: 'count' };
export const FILTER_FIELDS: Record<string, FieldKind> = {
  tier: { kind: 'enum', values: TIERS },
  business_impact: { kind: 'enum', values: BUSINESS_IMPACTS },
  severity: { kind: 'enum', values: RISK_LEVELS },
  application_type: { kind: 'enum', values: APPLICATION_TYPES },
  name: { kind: 'string' },
  service_id: { kind: 'id' },
  owner_login: { kind: 'string' },
  owner_type: { kind: 'enum', values: OWNER_TYPES },
  urgent: { kind: 'count' },
  plan: { kind: 'count' },
  defer: { kind: 'count' },
  service_count: { kind: 'count' },
  resource_count: { kind: 'count' },
};
export type FilterField = keyof typeof FILTER_FIELDS;
export type FilterScalar = string | number;
export interface FilterClause {
  field: FilterField;
  op: FilterOp;
  value: FilterScalar | FilterScalar[];
}
const MAX_CLAUSES = 50;
const MAX_IN_VALUES = 1000;

export interface PageQuery {
  page?: number;
  limit?: number;
  order?: string | null;
  orders?: string[] | null;
  direction?: string | null;
  search?: string | null;
}

export interface ListSpec {
  page: number;
  limit: number;
  orders: OrderTerm[];
  search: string | null;
  filters: FilterClause[];
}

/**
 * `orders` (several, `field` / `-field` / `+field`) wins over `order` (one field); `direction` is the
 * direction of `order` and of unprefixed `orders` entries (default asc). Unknown field → 422 naming
 * the allowed ones.
 */
export function parseOrders(query: PageQuery, allowed: readonly string[], defaults: OrderTerm[]): OrderTerm[] {
  const direction: Direction = query.direction === 'desc' ? 'desc' : 'asc';
  const issues: ValidationIssue[] = [];
  const unknown = (loc: ValidationIssue['loc'], field: string) =>
    issues.push({ loc, msg: `unknown order field '${field}'; allowed: ${allowed.join(', ')}`, type: 'value_error.order_field' });
  let terms: OrderTerm[] = [];
  if (query.orders && query.orders.length) {
    query.orders.forEach((raw, i) => {
      const explicit = raw.startsWith('-') ? 'desc' : raw.startsWith('+') ? 'asc' : null;
      const field = explicit ? raw.slice(1) : raw;
      if (!allowed.includes(field)) unknown(['query', 'orders', i], raw);
      else if (!terms.some((t) => t.field === field)) terms.push({ field, direction: explicit ?? direction });
    });
  } else if (query.order) {
    if (!allowed.includes(query.order)) unknown(['query', 'order'], query.order);
    else terms = [{ field: query.order, direction }];
  }
  if (issues.length) throw new ValidationFailedError(issues);
  if (!terms.length) terms = defaults.map((d) => (query.direction ? { ...d, direction } : d));
  return terms;
}

function describeKind(kind: FieldKind): string {
  switch (kind.kind) {
    case 'enum':
      return `one of ${kind.values.join(', ')}`;
    case 'string':
      return 'a string';
    case 'id':
      return `an integer from 0 to ${MAX_INT4}`;
    case 'count':
      return `an integer from 0 to ${MAX_INT4}`;
  }
}

function scalarOk(kind: FieldKind, v: unknown): v is FilterScalar {
  switch (kind.kind) {
    case 'enum':
      return typeof v === 'string' && kind.values.includes(v);
    case 'string':
      return typeof v === 'string' && v.length <= 255;
    case 'id':
    case 'count':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_INT4;
  }
}

function checkClause(field: string, op: unknown, value: unknown, loc: ValidationIssue['loc'], issues: ValidationIssue[]): FilterClause | null {
  const kind = FILTER_FIELDS[field];
  if (!kind) {
    issues.push({
      loc: [...loc, 'field'],
      msg: `unknown filter field '${String(field)}'; allowed: ${Object.keys(FILTER_FIELDS).join(', ')}`,
      type: 'value_error.filter_field',
    });
    return null;
  }
  if (typeof op !== 'string' || !(FILTER_OPS as readonly string[]).includes(op)) {
    issues.push({ loc: [...loc, 'op'], msg: `unknown operator; allowed: ${FILTER_OPS.join(', ')}`, type: 'value_error.filter_op' });
    return null;
  }
  if (RANGE_OPS.includes(op as FilterOp) && kind.kind !== 'count') {
    issues.push({
      loc: [...loc, 'op'],
      msg: `operator '${op}' applies only to urgent, plan, defer, service_count and resource_count`,
      type: 'value_error.filter_op',
    });
    return null;
  }
  if (op === 'in' || op === 'nin') {
    if (!Array.isArray(value) || value.length > MAX_IN_VALUES) {
      issues.push({
        loc: [...loc, 'value'],
        msg: `operator '${op}' needs an array of at most ${MAX_IN_VALUES} values, each ${describeKind(kind)}`,
        type: 'type_error.list',
      });
      return null;
    }
    const bad = value.findIndex((v) => !scalarOk(kind, v));
    if (bad >= 0) {
      issues.push({ loc: [...loc, 'value', bad], msg: `must be ${describeKind(kind)}`, type: 'value_error.filter_value' });
      return null;
    }
    return { field, op, value: value as FilterScalar[] };
  }
  if (!scalarOk(kind, value)) {
    issues.push({ loc: [...loc, 'value'], msg: `must be ${describeKind(kind)}`, type: 'value_error.filter_value' });
    return null;
  }
  return { field, op: op as FilterOp, value };
}

/**
 * The optional list body: absent, `[]` or `{}` = no filter; an array of
 * `{field, op, value}` clauses (ANDed); or the shorthand object `{"tier": ["TIER_1"], "severity": "HIGH"}`
 * (array value = `in`, scalar = `eq`).
 */
export function parseListFilter(body: unknown): FilterClause[] {
  if (body === undefined) return [];
  const issues: ValidationIssue[] = [];
  const clauses: FilterClause[] = [];
  if (Array.isArray(body)) {
    if (body.length > MAX_CLAUSES)
      throw new ValidationFailedError([{ loc: ['body'], msg: `at most ${MAX_CLAUSES} filter clauses`, type: 'value_error.list.max_items' }]);
    body.forEach((item, i) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        issues.push({ loc: ['body', i], msg: 'must be an object {field, op, value}', type: 'type_error.object' });
        return;
      }
      const { field, op, value } = item as Record<string, unknown>;
      if (typeof field !== 'string') {
        issues.push({ loc: ['body', i, 'field'], msg: 'field required (a string)', type: 'value_error.missing' });
        return;
      }
      const clause = checkClause(field, op ?? 'eq', value, ['body', i], issues);
      if (clause) clauses.push(clause);
    });
  } else if (typeof body === 'object' && body !== null) {
    const entries = Object.entries(body as Record<string, unknown>);
    if (entries.length > MAX_CLAUSES)
      throw new ValidationFailedError([{ loc: ['body'], msg: `at most ${MAX_CLAUSES} filter fields`, type: 'value_error.max_items' }]);
    for (const [field, value] of entries) {
      const issuesBefore = issues.length;
      const clause = checkClause(field, Array.isArray(value) ? 'in' : 'eq', value, ['body', field], issues);
      // Shorthand has no `field`/`op` keys: point the issue at the field itself.
      for (let k = issuesBefore; k < issues.length; k++) {
        const loc = issues[k]!.loc;
        if (loc[2] === 'field' || loc[2] === 'value') issues[k]!.loc = ['body', field, ...loc.slice(3)];
      }
      if (clause) clauses.push(clause);
    }
  } else {
    throw new ValidationFailedError([{ loc: ['body'], msg: 'must be an array of filter clauses or a filter object', type: 'type_error.list' }]);
  }
  if (issues.length) throw new ValidationFailedError(issues);
  return clauses;
}
