import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// .ci/run runs the `unit` project on PGlite only, so a unit spec that used the database, Redis or the
// app would never meet PostgreSQL or Redis in CI. jest.config.js is plain JavaScript, so it is required.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../jest.config.js') as { projects: { displayName: string; testRegex: string | string[]; testPathIgnorePatterns: string[] }[] };

const ROOT = resolve(__dirname, '../..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);

/** What marks a spec as needing a backend: the app harness, the store fakes, PGlite, the URLs. */
const BACKEND_USE =
  /test\/support\/(create-test-app|test-config)|fakes\/rate-limit-stores|@electric-sql\/pglite|process\.env\.(DATABASE_URL|REDIS_URL)|\bAppModule\b|\busingPostgres\b/;

function specFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED_DIRS.has(name) ? [] : specFiles(path);
    return /\.(spec|e2e-spec)\.ts$/.test(name) ? [path] : [];
  });
}

function projectOf(path: string): string[] {
  return config.projects
    .filter((p) => [p.testRegex].flat().some((r) => new RegExp(r).test(path)))
    .filter((p) => !p.testPathIgnorePatterns.some((r) => new RegExp(r.replace('<rootDir>', ROOT)).test(path)))
    .map((p) => p.displayName);
}

/** The spec and the test-side helpers it imports (src/ is reached only through them or the spec). */
function backendUses(spec: string, seen = new Set<string>()): string[] {
  if (seen.has(spec)) return [];
  seen.add(spec);
  const text = readFileSync(spec, 'utf8');
  const own = BACKEND_USE.test(text) ? [`${relative(ROOT, spec)}: ${BACKEND_USE.exec(text)![0]}`] : [];
  const helpers = [...text.matchAll(/from '(\.[^']+)'/g)]
    .map((m) => resolve(dirname(spec), m[1]) + '.ts')
    .filter((path) => existsSync(path) && !relative(ROOT, path).startsWith('src/'));
  return [...own, ...helpers.flatMap((path) => backendUses(path, seen))];
}

describe('jest.config.js projects', () => {
  const specs = specFiles(ROOT);

  it('puts every spec in exactly one project', () => {
    expect(specs.length).toBeGreaterThan(100);
    expect(specs.filter((s) => projectOf(s).length !== 1).map((s) => `${relative(ROOT, s)}: ${projectOf(s).join(', ') || 'none'}`)).toEqual([]);
  });

  it('unit specs use no database, Redis or app, directly or through test helpers', () => {
    const unit = specs.filter((s) => projectOf(s).includes('unit'));
    expect(unit.length).toBeGreaterThan(50);
    expect(unit.flatMap((s) => backendUses(s))).toEqual([]);
  });

  it.each([
    'test/e2e/auth.e2e-spec.ts',
    'test/e2e/scale-out.e2e-spec.ts',
    'test/integration/embedded-database.spec.ts',
    'src/rate-limit/store/redis-rate-limit.store.spec.ts',
    'src/common/replica-header.middleware.spec.ts',
  ])('sees the backend use of %s (db)', (spec) => {
    expect(projectOf(join(ROOT, spec))).toEqual(['db']);
    expect(backendUses(join(ROOT, spec))).not.toEqual([]);
  });
});
