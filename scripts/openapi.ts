/**
 * `npm run openapi:write` regenerates docs/openapi.json from the code; `npm run openapi:check`
 * fails (exit 1) when the committed snapshot differs from what the code generates.
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/app-config';
import { createHttpAdapter } from '../src/create-app';
import { buildOpenApiDocument } from '../src/openapi/openapi';

const SNAPSHOT = resolve(__dirname, '..', 'docs', 'openapi.json');

async function main(): Promise<void> {
  const mode = process.argv.includes('--write') ? 'write' : 'check';
  // The document comes from controller metadata; an in-memory database is enough to build the app.
  const config = loadConfig({ ...process.env, DATABASE_URL: 'pglite://memory', REDIS_URL: '', LOG_LEVEL: 'silent' }, []);
  const app = await NestFactory.create(AppModule.forRoot({ config }), createHttpAdapter(), { logger: false, bodyParser: false });
  const generated = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  await app.close();
  if (mode === 'write') {
    writeFileSync(SNAPSHOT, generated);
    process.stdout.write(`Wrote ${SNAPSHOT}\n`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(SNAPSHOT, 'utf8');
  } catch {
    /* missing snapshot is drift too */
  }
  if (committed !== generated) {
    process.stderr.write('OpenAPI drift: docs/openapi.json differs from the document the code generates. Run `npm run openapi:write` and commit it.\n');
    process.exit(1);
  }
  process.stdout.write('OpenAPI snapshot is up to date.\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
