import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from './node-runtime';

const ROOT = join(__dirname, '..', '..');

/**
 * Regexes V8 compiled to machine code in a process started with `flags`, out of fifty fresh
 * patterns each run once on a short string (V8's --trace-regexp-tier-up names each compilation
 * "bytecode size" or "native code size").
 */
function nativeCompilations(flags: readonly string[]): number {
  const script = "for (let i = 0; i < 50; i++) new RegExp('q' + i + 'z+').test('qq' + i + 'zz');";
  const run = spawnSync(process.execPath, [...flags, '--trace-regexp-tier-up', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter((l) => l.includes('native code size')).length;
}

describe('the V8 options the service runs with', () => {
  it('compile a regex to machine code at its first use (this Node still has the option)', () => {
    expect(nativeCompilations([])).toBeLessThan(50);
    expect(nativeCompilations(SERVICE_NODE_FLAGS)).toBeGreaterThanOrEqual(50);
  });

  it('are given by `npm start` and by the container', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`node ${SERVICE_NODE_FLAGS.join(' ')} dist/main.js`);
    const cmd = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('CMD '))
      .pop();
    expect(JSON.parse(cmd!.slice('CMD '.length))).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/main.js']);
  });
});
