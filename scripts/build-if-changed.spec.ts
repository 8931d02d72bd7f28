import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Plain JavaScript (it runs before anything is compiled), so it is required rather than imported.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildReason, writeStamp } = require('./build-if-changed.js') as {
  buildReason: (root: string) => string | null;
  writeStamp: (root: string) => void;
};

describe('prestart: build only when the sources changed', () => {
  let root: string;
  const write = (path: string, text: string): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const built = (): void => {
    write('dist/main.js', '// built');
    writeStamp(root);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'bulwark-build-'));
    write('src/main.ts', 'export const a = 1;');
    write('src/deep/x.ts', 'export const x = 1;');
    write('tsconfig.json', '{}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when there is no build or no stamp', () => {
    expect(buildReason(root)).toBe('no build yet');
    write('dist/main.js', '// built');
    expect(buildReason(root)).toBe('the last build left no stamp');
  });

  it('skips the build when nothing changed since the stamp', () => {
    built();
    expect(buildReason(root)).toBeNull();
  });

  it.each([
    ['a source edited', () => write('src/deep/x.ts', 'export const x = 2;')],
    ['a source added', () => write('src/deep/y.ts', 'export const y = 1;')],
    ['a source deleted', () => rmSync(join(root, 'src/deep/x.ts'))],
    ['a source renamed', () => (rmSync(join(root, 'src/deep/x.ts')), write('src/deep/z.ts', 'export const x = 1;'))],
    ['the compiler config edited', () => write('tsconfig.json', '{"compilerOptions":{}}')],
    ['the lockfile appearing', () => write('package-lock.json', '{}')],
  ])('rebuilds after %s', (_what, change) => {
    built();
    change();
    expect(buildReason(root)).toBe('sources changed since the last build');
  });

  it('is what `npm start` runs first, and `npm run build` leaves the stamp', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prestart).toBe('node scripts/build-if-changed.js');
    expect(pkg.scripts.build).toMatch(/&& node scripts\/build-if-changed\.js --stamp$/);
  });
});
