import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/app-config';
import { DemoInventoryLoader } from '../../src/inventory-import/demo-inventory.loader';
import { createTestApp, type TestApp } from '../support/create-test-app';

/**
 * `npm start -- --demo` on a tenant that already has data: stdout says the demo was not loaded and
 * how to load it anyway (`--demo-tenant`), and that way loads it into a tenant of its own, whose
 * admin key is printed once (the tenant would be unreachable without one).
 */
describe('demo inventory into a tenant of its own (--demo-tenant)', () => {
  let t: TestApp;
  // A fresh slug: on PostgreSQL every test file shares one database.
  const slug = `demo-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    t = await createTestApp({ config: { demo: true, demoTenant: slug } });
  });
  afterAll(() => t.close());

  it('--demo-tenant <slug> (or =<slug>, or BULWARK_DEMO_TENANT) implies --demo; a bad slug names the setting', () => {
    expect(loadConfig({}, ['--demo-tenant', 'demo'])).toMatchObject({ demo: true, demoTenant: 'demo' });
    expect(loadConfig({}, ['--demo-tenant=demo'])).toMatchObject({ demo: true, demoTenant: 'demo' });
    expect(loadConfig({ BULWARK_DEMO_TENANT: 'demo' }, [])).toMatchObject({ demo: true, demoTenant: 'demo' });
    expect(loadConfig({}, ['--demo'])).toMatchObject({ demo: true, demoTenant: 'default' });
    expect(() => loadConfig({}, ['--demo-tenant'])).toThrow(/--demo-tenant/);
    expect(() => loadConfig({ BULWARK_DEMO_TENANT: '../x' }, [])).toThrow(/BULWARK_DEMO_TENANT/);
  });

  it('loads the demo into the new tenant and prints that tenant an admin key that works', async () => {
    const loaded = t.bootstrapLines.find((l) => l.startsWith(`Loaded demo inventory into tenant '${slug}'`));
    expect(loaded).toBeDefined();
    const keyLine = t.bootstrapLines.find((l) => l.startsWith(`Admin API key for tenant '${slug}' (shown once): bwk_`));
    expect(keyLine).toBeDefined();
    const token = keyLine!.split(': ')[1]!;
    const list = await t.http().get('/api/applications?limit=100').set('Authorization', `Bearer ${token}`).expect(200);
    expect(list.body.total).toBe(40);
  });

  it('on a tenant that already has data: says so on stdout, with the way to load it anyway, and changes nothing', async () => {
    const before = t.bootstrapLines.length;
    await t.app.get(DemoInventoryLoader).onApplicationBootstrap();
    const said = t.bootstrapLines.slice(before).join('\n');
    expect(said).toContain(`Tenant '${slug}' already has an inventory, so the demo inventory was not loaded`);
    expect(said).toContain('npm start -- --demo-tenant demo');
    expect(said).not.toMatch(/API key/);
  });
});
