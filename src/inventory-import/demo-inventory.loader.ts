import { readFile } from 'node:fs/promises';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { BOOTSTRAP_OUTPUT, DEFAULT_TENANT_SLUG, type BootstrapOutput } from '../auth/bootstrap-admin-key';
import { ALL_SCOPES } from '../auth/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { generateDemoInventory } from './demo-inventory.generator';
import { InventoryImportService } from './inventory-import.service';

/**
 * `--demo` / BULWARK_DEMO loads the generated demo inventory, SEED_FILE a JSON import document, into
 * the `default` tenant (or `--demo-tenant`'s) when its inventory is empty. The tenant is found or
 * created here, so the order against the bootstrap key (also onApplicationBootstrap) does not matter.
 * What happened is said on stdout, where the person who asked for the demo is looking.
 */
@Injectable()
export class DemoInventoryLoader implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoInventory');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly imports: InventoryImportService,
    private readonly apiKeys: ApiKeysService,
    @Inject(BOOTSTRAP_OUTPUT) private readonly output: BootstrapOutput,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const source = this.config.seedFile ? `SEED_FILE ${this.config.seedFile}` : this.config.demo ? 'demo inventory' : null;
    if (!source) return;
    const tenant = this.config.demoTenant;
    const started = Date.now();
    const document: unknown = this.config.seedFile ? JSON.parse(await readFile(this.config.seedFile, 'utf8')) : generateDemoInventory();
    const loaded = await this.imports.importIfEmpty(tenant, document);
    if (!loaded) {
      const other = tenant === 'demo' ? 'demo-2' : 'demo';
      this.logger.log(`Tenant '${tenant}' already has an inventory; ${source} not loaded`);
      this.output(
        `Tenant '${tenant}' already has an inventory, so the ${source} was not loaded (it only loads into an empty tenant).\n` +
          `To load it anyway, into a tenant of its own: npm start -- --demo-tenant ${other}  (or BULWARK_DEMO_TENANT=${other})`,
      );
      return;
    }
    const summary = `Loaded ${source} into tenant '${tenant}' in ${Date.now() - started} ms: ${JSON.stringify(loaded.result.counts)}`;
    this.logger.log(summary);
    this.output(summary);
    // The default tenant gets the bootstrap key; a tenant made for the demo would be unreachable without one.
    if (tenant !== DEFAULT_TENANT_SLUG && (await this.apiKeys.list(loaded.tenantId)).length === 0) {
      const { token } = await this.apiKeys.create({
        tenantId: loaded.tenantId,
        name: 'demo-admin',
        scopes: [...ALL_SCOPES],
        expiresAt: null,
        rateLimitPerMinute: null,
      });
      this.output(`Admin API key for tenant '${tenant}' (shown once): ${token}`);
    }
  }
}
