import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CONFIG } from '../cli-io';
import { ConfigError, loadScanConfig, parseScanConfig } from './scan-config';

describe('.bulwark.yaml', () => {
  it('parses rule disables, severity overrides (optionally scoped to paths) and path ignores', () => {
    const c = parseScanConfig(
      [
        'version: 1',
        'rules:',
        '  BW-URL-001: {disable: true, reason: our docs use documentation addresses}',
        '  BW-DEC-001:',
        '    severity: low',
        '    paths: [docs/**]',
        '    reason: reviewed wording',
        'ignore:',
        '  - path: test/fixtures/',
        '    reason: attack samples for our own tests',
      ].join('\n'),
      '.bulwark.yaml',
    );
    expect(c.rules.map((r) => [r.ruleId, r.disable, r.severity, r.paths?.map((g) => g.source) ?? null])).toEqual([
      ['BW-URL-001', true, null, null],
      ['BW-DEC-001', false, 'low', ['docs/**']],
    ]);
    expect(c.ignore.map((i) => [i.glob.source, i.reason])).toEqual([['test/fixtures/', 'attack samples for our own tests']]);
  });

  it.each([
    ['rules:\n  BW-URL-001: {disable: true}\n', /rules\.BW-URL-001: "reason" is required/],
    ['rules:\n  BW-URL-001: {disable: true, reason: "  "}\n', /"reason" is required/],
    ['ignore:\n  - path: vendor/\n', /ignore\[0\]: "reason" is required/],
    ['rules:\n  BW-URL-001: {disabled: true, reason: x}\n', /unknown key "disabled"/],
    ['rules:\n  BW-URL-001: {severity: severe, reason: x}\n', /"severity" must be one of/],
    ['rules:\n  BW-URL-001: {reason: x}\n', /nothing to do/],
    ['ignores: []\n', /unknown key "ignores"/],
    ['ignore:\n  - path: ../outside\n    reason: x\n', /inside the working folder/],
    ['rules: [\n', /not valid YAML/],
    ['version: 2\n', /version must be 1/],
  ])('%j is a config error with its own exit code', (text, message) => {
    let err: unknown;
    try {
      parseScanConfig(text, '.bulwark.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(EXIT_CONFIG);
    expect((err as Error).message).toMatch(/^Config error in \.bulwark\.yaml: /);
    expect((err as Error).message).toMatch(message);
  });

  it('is read from the working folder or --config only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bulwark-config-'));
    try {
      expect(loadScanConfig(dir, undefined)).toBeNull();
      writeFileSync(join(dir, '.bulwark.yml'), 'ignore:\n  - {path: a/, reason: r}\n');
      expect(loadScanConfig(dir, undefined)?.source).toBe('.bulwark.yml');
      writeFileSync(join(dir, 'ci.yaml'), 'rules: {}\n');
      expect(loadScanConfig(dir, 'ci.yaml')?.source).toBe('ci.yaml');
      expect(() => loadScanConfig(dir, 'missing.yaml')).toThrow(/Config error in missing\.yaml: no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
