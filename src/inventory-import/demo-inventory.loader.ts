import { readFile } from 'node:fs/promises';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DEFAULT_TENANT_SLUG } from '../auth/bootstrap-admin-key';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { generateDemoInventory } from './demo-inventory.generator';
import { InventoryImportService } from './inventory-import.service';

/**
 * `--demo` / BULWARK_DEMO loads the generated demo inventory, SEED_FILE a JSON import document, into
 * the `default` tenant when its inventory is empty. The tenant is found or created here, so the order
 * against the bootstrap key (also onApplicationBootstrap) does not matter.
 */
@Injectable()
export class DemoInventoryLoader implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoInventory');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly imports: InventoryImportService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const source = this.config.seedFile ? `SEED_FILE ${this.config.seedFile}` : this.config.demo ? 'demo inventory' : null;
    if (!source) return;
    const started = Date.now();
    const document: unknown = this.config.seedFile ? JSON.parse(await readFile(this.config.seedFile, 'utf8')) : generateDemoInventory();
    const loaded = await this.imports.importIfEmpty(DEFAULT_TENANT_SLUG, document);
    if (!loaded) this.logger.log(`Tenant '${DEFAULT_TENANT_SLUG}' already has an inventory; ${source} not loaded`);
    else this.logger.log(`Loaded ${source} into tenant '${DEFAULT_TENANT_SLUG}' in ${Date.now() - started} ms: ${JSON.stringify(loaded.result.counts)}`);
  }
}
