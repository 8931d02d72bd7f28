/**
 * Writes the demo inventory (the document `npm start -- --demo` loads) to a JSON file, e.g. to edit
 * it and load it with SEED_FILE=<file>, or to import it into another tenant:
 *
 *   npx ts-node --transpile-only scripts/generate-demo-inventory.ts [--seed 20261122] [--out demo-inventory.json]
 *   curl -X POST -H "Authorization: Bearer $BWK_ADMIN" -H 'Content-Type: application/json' \
 *        --data @demo-inventory.json http://localhost:3000/api/internal/inventory/import
 *
 * Deterministic: the same seed gives the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { generateDemoInventory } from '../src/inventory-import/demo-inventory.generator';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const seed = Number(arg('seed') ?? 20261122);
const out = arg('out') ?? 'demo-inventory.json';
const doc = generateDemoInventory(seed);
writeFileSync(out, `${JSON.stringify(doc)}\n`);
const sizes = Object.entries(doc)
  .filter(([, v]) => Array.isArray(v))
  .map(([k, v]) => `${k}=${(v as unknown[]).length}`)
  .join(' ');
process.stdout.write(`wrote ${out} (seed ${seed}): ${sizes}\n`);
