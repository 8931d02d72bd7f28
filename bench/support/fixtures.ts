/** Deterministic inventory documents for the bench parts (no randomness: runs stay comparable). */
import type { ImportDocument } from '../../src/inventory-import/import-document';

/** `apps` applications over 2,000 services with resources, owners and finding counts. */
export function largeInventory(apps: number): ImportDocument {
  const words = ['payments', 'search', 'identity', 'catalog', 'orders', 'billing', 'shipping', 'analytics', 'support', 'media'];
  const services = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, name: `svc-${i + 1}` }));
  return {
    services,
    resources: services.flatMap((s) =>
      [0, 1].map((k) => ({ platform_id: `arn:aws:s3:::svc-${s.id}-${k}`, resource_type: 'aws_s3_bucket', service_ids: [s.id] })),
    ),
    finding_counts: services
      .filter((s) => s.id % 3 === 0)
      .map((s) => ({ service_id: s.id, severity: ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'][s.id % 4]!, urgent: s.id % 5, plan: s.id % 7, defer: s.id % 11 })),
    applications: Array.from({ length: apps }, (_, i) => ({
      name: `app-${String(i).padStart(5, '0')}`,
      description: `${words[i % words.length]} ${words[(i * 7) % words.length]} service group ${i}`,
      tier: (['TIER_1', 'TIER_2', 'TIER_3', 'TIER_4'] as const)[i % 4],
      business_impact: (['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const)[(i * 3) % 4],
      service_ids: [(i % 2000) + 1, ((i * 7) % 2000) + 1, ((i * 13) % 2000) + 1].filter((v, k, a) => a.indexOf(v) === k),
      owners: i % 2 ? { owner: [{ login: `user${i % 97}`, name: `User ${i % 97}` }] } : {},
    })),
  };
}

/** The list request of the `api` part's (c) (docs/performance.md): page of 100, `search`, a tier filter; 500 of 10,000 match. */
export const LIST_QUERY = { search: 'pay', filter: { tier: ['TIER_1', 'TIER_2'] } };

/**
 * `count` resources over count/50 services (50 each, three types), with one relation per
 * resource to its neighbour: the shape of a large cloud account import.
 */
export function resourceInventory(count: number): ImportDocument {
  const perService = 50;
  const serviceCount = Math.ceil(count / perService);
  const types = ['aws_s3_bucket', 'aws_lambda_function', 'aws_dynamodb_table'];
  const services = Array.from({ length: serviceCount }, (_, i) => ({ id: 100_000 + i, name: `bulk-svc-${i}`, source_type: 'aws' }));
  const resources = Array.from({ length: count }, (_, i) => ({
    platform_id: `arn:aws:bulk:::r-${i}`,
    resource_type: types[i % types.length]!,
    name: `resource-${i}`,
    region: ['us-east-1', 'eu-west-1'][i % 2]!,
    service_ids: [100_000 + Math.floor(i / perService)],
  }));
  const relations = resources
    .slice(1)
    .map((r, i) => ({ source: `resource:${resources[i]!.platform_id}`, target: `resource:${r.platform_id}`, relation: 'uses' }));
  return { services, resources, relations };
}
