import type { ImportDocument, ImportPackage, ImportResource, ImportService } from '../../src/inventory-import/import-document';
import { InventoryImportService } from '../../src/inventory-import/inventory-import.service';
import type { TestApp, TestTenant } from '../support/create-test-app';

/** Builders for import documents, so tests state only the parts they care about. */
export function service(id: number, extra: Partial<ImportService> = {}): ImportService {
  return { id, name: `svc-${id}`, source_type: 'github', source_id: 1, ...extra };
}

export function resource(platformId: string, serviceIds: number[], extra: Partial<ImportResource> = {}): ImportResource {
  return {
    platform_id: platformId,
    resource_type: 'aws_s3_bucket',
    source_type: 'aws',
    name: platformId.split(':').pop(),
    environment: 'production',
    service_ids: serviceIds,
    ...extra,
  };
}

export function pkg(serviceId: number, purl: string, extra: Partial<ImportPackage> = {}): ImportPackage {
  const name = /\/([^/@]+)@/.exec(purl)?.[1] ?? 'pkg';
  return { service_id: serviceId, purl, name, version: purl.split('@')[1] ?? null, type: 'npm', ...extra };
}

/** Imports `doc` into the tenant directly through the service (no HTTP, no scope). */
export async function seedInventory(t: TestApp, tenant: TestTenant, doc: ImportDocument): Promise<void> {
  await t.app.get(InventoryImportService).import(tenant.id, doc);
}

/** An authenticated supertest agent factory for one tenant. */
export async function clientFor(t: TestApp, tenant: TestTenant, scopes?: Parameters<TestTenant['key']>[0]) {
  const token = await tenant.key(scopes);
  const auth = { Authorization: `Bearer ${token}` };
  return {
    token,
    get: (url: string) => t.http().get(url).set(auth),
    post: (url: string) => t.http().post(url).set(auth),
    put: (url: string) => t.http().put(url).set(auth),
    patch: (url: string) => t.http().patch(url).set(auth),
    delete: (url: string) => t.http().delete(url).set(auth),
  };
}
