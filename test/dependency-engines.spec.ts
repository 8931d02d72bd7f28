import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

/**
 * The declared engine and the installed dependency set agree
 * (docs/decisions/0009-node-20-dependency-set.md): every package in package-lock.json whose
 * `engines.node` is stated admits the oldest Node that package.json allows, and the Node the
 * Dockerfile ships. Otherwise `npm ci` warns EBADENGINE and the package may not run there.
 */
const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: unknown }> };
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** `engines.node` of a lock entry; lock files also hold the old array form, which npm ignores. */
const nodeRange = (engines: unknown): string | null =>
  engines && typeof engines === 'object' && !Array.isArray(engines) && typeof (engines as { node?: unknown }).node === 'string'
    ? (engines as { node: string }).node
    : null;

describe('dependency engines', () => {
  const floor = semver.minVersion(pkg.engines.node);
  const dockerNode = /^FROM node:(\d+\.\d+)/m.exec(dockerfile)?.[1];

  it('package.json declares a Node floor on Node 20, and the Dockerfile ships a Node it admits', () => {
    expect(floor?.major).toBe(20);
    expect(dockerNode).toBeDefined();
    expect(semver.satisfies(`${dockerNode}.0`, pkg.engines.node)).toBe(true);
  });

  it('every locked package admits the declared floor and the Dockerfile Node', () => {
    const versions = [floor!.version, `${dockerNode}.0`];
    const stated = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .map(([path, entry]) => ({ path, version: entry.version, range: nodeRange(entry.engines) }))
      .filter((p): p is { path: string; version: string | undefined; range: string } => p.range !== null);
    expect(stated.length).toBeGreaterThan(50); // the walk reads the lock's real shape
    const refusing = stated.filter((p) => versions.some((v) => !semver.satisfies(v, p.range))).map((p) => `${p.path}@${p.version} needs node ${p.range}`);
    expect(refusing).toEqual([]);
  });
});
