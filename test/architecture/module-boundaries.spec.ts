import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// The boundary rules of `npm run lint` (.dependency-cruiser.cjs + scripts/check-boundaries.js) run on a
// small source tree laid out like src/: each seeded violation must fail the check, the clean tree pass.
const SCRIPT = join(__dirname, '..', '..', 'scripts', 'check-boundaries.js');

function check(files: Record<string, string>): { status: number | null; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'bulwark-boundaries-'));
  try {
    const all: Record<string, string> = { 'tsconfig.json': '{ "compilerOptions": { "module": "commonjs", "target": "es2022" } }', ...files };
    for (const [path, text] of Object.entries(all)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = spawnSync(process.execPath, [SCRIPT, 'src'], { cwd: root, encoding: 'utf8' });
    return { status: run.status, out: run.stdout + run.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const CLEAN = {
  'src/auth/persistence/tenant.entity.ts': 'export class TenantEntity { id = 1; }\n',
  'src/auth/tenants.service.ts': "import { TenantEntity } from './persistence/tenant.entity';\nexport const make = () => new TenantEntity();\n",
  'src/database/entities.ts': "import { TenantEntity } from '../auth/persistence/tenant.entity';\nexport const ENTITIES = [TenantEntity];\n",
  'src/mcp/mcp.ts': "import { make } from '../auth/tenants.service';\nexport const tenant = make();\n",
  'src/scanner/engine/engine.ts': 'export const scan = (s: string) => s.length;\n',
  'src/cli/main.ts': "import { scan } from '../scanner/engine/engine';\nexport const n = scan('x');\n",
};

describe('module boundaries (npm run lint)', () => {
  jest.setTimeout(120_000);

  it('passes a tree that keeps every rule', () => {
    const { status, out } = check(CLEAN);
    expect(out).toContain('0 violation(s)');
    expect(status).toBe(0);
  });

  // One tree seeded with a violation of each rule (one cruise: each costs seconds).
  const SEEDED: [string, Record<string, string>][] = [
    ['persistence-private', { 'src/mcp/mcp.ts': "import { TenantEntity } from '../auth/persistence/tenant.entity';\nexport const t = new TenantEntity();\n" }],
    [
      'engine-framework-free',
      { 'src/scanner/engine/engine.ts': "import { Injectable } from '@nestjs/common';\nexport const scan = (s: string) => (Injectable, s.length);\n" },
    ],
    ['engine-framework-free', { 'src/scanner/rules/rule.ts': "import { make } from '../../auth/tenants.service';\nexport const r = make();\n" }],
    ['server-not-cli', { 'src/sbom/sbom.service.ts': "import { n } from '../cli/main';\nexport const v = n;\n" }],
    [
      'no-circular',
      {
        'src/scanner/engine/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
        'src/scanner/engine/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      },
    ],
    [
      'module-cycle',
      {
        'src/auth/tenants.service.ts':
          "import { TenantEntity } from './persistence/tenant.entity';\nimport { limit } from '../rate-limit/policy';\nexport const make = () => new TenantEntity();\nexport const l = limit;\n",
        'src/rate-limit/policy.ts': "import { make } from '../auth/tenants.service';\nexport const limit = 600;\nexport const m = () => make();\n",
      },
    ],
  ];

  it('fails on a seeded violation of each rule, naming the files', () => {
    const { status, out } = check(Object.assign({}, CLEAN, ...SEEDED.map(([, files]) => files)));
    expect(status).toBe(1);
    for (const [rule] of SEEDED) expect(out).toContain(`error ${rule}:`);
    expect(out).toContain('error persistence-private: src/mcp/mcp.ts → src/auth/persistence/tenant.entity.ts');
    expect(out).toContain('error engine-framework-free: src/scanner/engine/engine.ts → @nestjs/common');
    expect(out).toContain('error engine-framework-free: src/scanner/rules/rule.ts → src/auth/tenants.service.ts');
    expect(out).toContain('error server-not-cli: src/sbom/sbom.service.ts → src/cli/main.ts');
    expect(out).toContain('error module-cycle: auth ↔ rate-limit');
  });

  it('does not count a cycle closed only by `import type`', () => {
    const { status, out } = check({
      ...CLEAN,
      'src/scanner/engine/a.ts': "import type { B } from './b';\nexport interface A { b?: B }\nexport const a = 1;\n",
      'src/scanner/engine/b.ts': "import { a } from './a';\nexport interface B { n: number }\nexport const b = a;\n",
    });
    expect(out).toContain('0 violation(s)');
    expect(status).toBe(0);
  });
});
