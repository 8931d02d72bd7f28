/**
 * Writes docs/import-schema.json from src/inventory-import/import-schema.ts (the schema the import
 * validates with). `--check` exits 1 when the committed copy is stale.
 *
 *   npx ts-node --transpile-only scripts/write-import-schema.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMPORT_SCHEMA } from '../src/inventory-import/import-schema';

const target = join(__dirname, '..', 'docs', 'import-schema.json');
const text = `${JSON.stringify(IMPORT_SCHEMA, null, 2)}\n`;
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== text) {
    process.stderr.write('docs/import-schema.json is stale: run npx ts-node --transpile-only scripts/write-import-schema.ts\n');
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
