import { ValidationFailedError } from '../common/errors';
import { APPLICATION_DEFAULT_ORDER, APPLICATION_ORDER_FIELDS, parseListFilter, parseOrders } from './application-list-query';

const issuesOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationFailedError) return err.issues;
    throw err;
  }
  throw new Error('expected a ValidationFailedError');
};

describe('list query parsing', () => {
  it('orders: `orders` wins over `order`, `-` means desc, direction applies to the rest, duplicates dropped', () => {
    expect(parseOrders({}, APPLICATION_ORDER_FIELDS, APPLICATION_DEFAULT_ORDER)).toEqual([{ field: 'name', direction: 'asc' }]);
    expect(parseOrders({ direction: 'desc' }, APPLICATION_ORDER_FIELDS, APPLICATION_DEFAULT_ORDER)).toEqual([{ field: 'name', direction: 'desc' }]);
    expect(parseOrders({ order: 'tier', direction: 'desc' }, APPLICATION_ORDER_FIELDS, APPLICATION_DEFAULT_ORDER)).toEqual([
      { field: 'tier', direction: 'desc' },
    ]);
    expect(
      parseOrders({ order: 'tier', orders: ['-urgent', 'name', '+id', 'name'], direction: 'desc' }, APPLICATION_ORDER_FIELDS, APPLICATION_DEFAULT_ORDER),
    ).toEqual([
      { field: 'urgent', direction: 'desc' },
      { field: 'name', direction: 'desc' },
      { field: 'id', direction: 'asc' },
    ]);
    const issues = issuesOf(() => parseOrders({ orders: ['name', '-colour'] }, APPLICATION_ORDER_FIELDS, APPLICATION_DEFAULT_ORDER));
    expect(issues).toEqual([{ loc: ['query', 'orders', 1], msg: expect.stringContaining('allowed: id, name'), type: 'value_error.order_field' }]);
  });

  it('filters: empty forms, clauses, shorthand, and every rejection with its loc', () => {
    for (const empty of [undefined, [], {}]) expect(parseListFilter(empty)).toEqual([]);
    // A body that is present but not a filter (JSON null, a string, a number) is a 422, not "no filter".
    for (const wrong of [null, 'tier', 5]) expect(() => parseListFilter(wrong)).toThrow(ValidationFailedError);
    expect(parseListFilter([{ field: 'tier', value: 'TIER_1' }])).toEqual([{ field: 'tier', op: 'eq', value: 'TIER_1' }]);
    expect(parseListFilter({ tier: ['TIER_1'], urgent: 3 })).toEqual([
      { field: 'tier', op: 'in', value: ['TIER_1'] },
      { field: 'urgent', op: 'eq', value: 3 },
    ]);
    expect(issuesOf(() => parseListFilter([{ op: 'eq', value: 1 }]))[0]!.loc).toEqual(['body', 0, 'field']);
    expect(issuesOf(() => parseListFilter([{ field: 'name', op: 'lt', value: 'a' }]))[0]!.loc).toEqual(['body', 0, 'op']);
    expect(issuesOf(() => parseListFilter([{ field: 'plan', op: 'gt', value: -1 }]))[0]!.loc).toEqual(['body', 0, 'value']);
    expect(issuesOf(() => parseListFilter([{ field: 'service_id', op: 'eq', value: 2 ** 31 }]))[0]!.loc).toEqual(['body', 0, 'value']);
    expect(issuesOf(() => parseListFilter({ tier: ['TIER_1', 'X'] }))[0]!.loc).toEqual(['body', 'tier', 1]);
    expect(issuesOf(() => parseListFilter('tier'))[0]!.loc).toEqual(['body']);
    expect(issuesOf(() => parseListFilter(Array.from({ length: 51 }, () => ({ field: 'tier', value: 'TIER_1' }))))[0]!.loc).toEqual(['body']);
  });
});
