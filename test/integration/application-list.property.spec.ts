import fc from 'fast-check';
import { APPLICATION_ORDER_FIELDS, type OrderTerm } from '../../src/applications/application-list-query';
import { ApplicationsService } from '../../src/applications/applications.service';
import type { ApplicationDto } from '../../src/applications/dto/application.dto';
import { APPLICATION_TYPES, BUSINESS_IMPACTS, TIERS } from '../../src/applications/application-enums';
import { RISK_LEVELS } from '../../src/inventory/inventory-enums';
import { InventoryImportService } from '../../src/inventory-import/inventory-import.service';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * Property (docs/inventory.md "List"): for random inventories, page sizes, orders, searches and filters, the
 * pages of a list are disjoint, ordered, and together equal the filtered set; total/pages agree.
 */
const RANK: Record<string, readonly string[]> = { tier: TIERS, business_impact: BUSINESS_IMPACTS, severity: RISK_LEVELS, application_type: APPLICATION_TYPES };
const SORTABLE = APPLICATION_ORDER_FIELDS.filter((f) => f !== 'created' && f !== 'updated');

function sortKey(app: ApplicationDto, field: string): number | string {
  if (RANK[field]) return RANK[field]!.indexOf((app as unknown as Record<string, string>)[field]!);
  if (field === 'name') return app.name.toLowerCase();
  return (app as unknown as Record<string, number>)[field]!;
}

/** The order the API promises: the terms, then id ascending. */
function compare(a: ApplicationDto, b: ApplicationDto, orders: OrderTerm[]): number {
  for (const o of orders) {
    const x = sortKey(a, o.field);
    const y = sortKey(b, o.field);
    const c = x < y ? -1 : x > y ? 1 : 0;
    if (c) return o.direction === 'desc' ? -c : c;
  }
  return a.id! - b.id!;
}

const appArb = fc.record({
  name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,11}$/),
  tier: fc.constantFrom(...TIERS),
  business_impact: fc.constantFrom(...BUSINESS_IMPACTS),
  services: fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
});

describe('list applications: paging property', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('pages are disjoint, ordered, and their union is the filtered set', async () => {
    const imports = t.app.get(InventoryImportService);
    const applications = t.app.get(ApplicationsService);
    await fc.assert(
      fc.asyncProperty(
        // Unique by the import's natural key (trimmed, case-insensitive), so every inventory is valid.
        fc.uniqueArray(appArb, { minLength: 0, maxLength: 30, selector: (a) => a.name.trim().toLowerCase() }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.record({ field: fc.constantFrom(...SORTABLE), direction: fc.constantFrom('asc' as const, 'desc' as const) }), { maxLength: 3 }),
        fc.option(fc.subarray([...TIERS], { minLength: 1 }), { nil: undefined }),
        fc.option(fc.constantFrom('a', 'E', '1', '-', '_'), { nil: undefined }),
        async (apps, limit, orderTerms, tiers, search) => {
          const tenant = await t.tenant();
          await imports.import(tenant.id, {
            services: [1, 2, 3, 4, 5, 6].map((id) => ({ id, name: `s${id}` })),
            finding_counts: [
              { service_id: 1, severity: 'CRITICAL', urgent: 1 },
              { service_id: 2, severity: 'MEDIUM', plan: 2 },
              { service_id: 3, severity: 'HIGH', defer: 3, urgent: 1 },
            ],
            resources: [1, 2, 3, 4, 5, 6].flatMap((sid) =>
              Array.from({ length: sid % 3 }, (_, i) => ({ platform_id: `r-${sid}-${i}`, resource_type: 'aws_s3_bucket', service_ids: [sid] })),
            ),
            applications: apps.map((a) => ({ name: a.name, tier: a.tier, business_impact: a.business_impact, service_ids: a.services })),
          });
          const orders = orderTerms.map((o) => `${o.direction === 'desc' ? '-' : ''}${o.field}`);
          const filter = tiers ? { tier: tiers } : [];
          const all = await applications.list(tenant.id, { page: 0, limit: 1000 }, []);
          const expected = all.items.filter(
            (a) =>
              (!tiers || tiers.includes(a.tier as (typeof TIERS)[number])) &&
              (!search || a.name.toLowerCase().includes(search.toLowerCase()) || (a.description ?? '').toLowerCase().includes(search.toLowerCase())),
          );

          const seen: ApplicationDto[] = [];
          const first = await applications.list(tenant.id, { page: 0, limit, orders, search }, filter);
          expect(first.total).toBe(expected.length);
          expect(first.pages).toBe(Math.ceil(expected.length / limit));
          for (let page = 0; page <= first.pages; page++) {
            const res = page === 0 ? first : await applications.list(tenant.id, { page, limit, orders, search }, filter);
            expect(res).toMatchObject({ total: first.total, pages: first.pages, page_size: limit, page_number: page });
            expect(res.items.length).toBe(page < first.pages ? Math.min(limit, first.total - page * limit) : 0);
            seen.push(...res.items);
          }
          const ids = seen.map((a) => a.id);
          expect(new Set(ids).size).toBe(ids.length); // disjoint
          expect([...ids].sort((a, b) => a! - b!)).toEqual(expected.map((a) => a.id).sort((a, b) => a! - b!)); // union = filtered set
          const effective: OrderTerm[] = orderTerms.length
            ? orderTerms.filter((o, i) => orderTerms.findIndex((p) => p.field === o.field) === i)
            : [{ field: 'name', direction: 'asc' }];
          for (let i = 1; i < seen.length; i++) expect(compare(seen[i - 1]!, seen[i]!, effective)).toBeLessThan(0); // ordered
        },
      ),
      { numRuns: 25 },
    );
  });
});
