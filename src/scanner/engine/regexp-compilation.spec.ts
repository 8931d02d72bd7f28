import { spawnSync } from 'node:child_process';

/**
 * V8 reports each regexp compilation under --trace-regexp-tier-up ("bytecode size" for the
 * interpreter, "native code size" for machine code). Fifty fresh patterns, each run once on a short
 * string, show which one a process gets.
 */
function nativeCompilations(callFirst: boolean): number {
  const script = [
    callFirst ? `require(${JSON.stringify(require.resolve('./regexp-compilation'))}).compileRegexpsAtFirstUse();` : '',
    "for (let i = 0; i < 50; i++) new RegExp('q' + i + 'z+').test('qq' + i + 'zz');",
  ].join('\n');
  const run = spawnSync(process.execPath, ['--trace-regexp-tier-up', '-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: __dirname,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter((l) => l.includes('native code size')).length;
}

describe('compileRegexpsAtFirstUse', () => {
  it('has a pattern run once on a short string compiled to machine code, not to bytecode', () => {
    expect(nativeCompilations(false)).toBeLessThan(50);
    expect(nativeCompilations(true)).toBeGreaterThanOrEqual(50);
  });
});
