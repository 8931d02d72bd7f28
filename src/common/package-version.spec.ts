import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliVersion } from '../cli/cli-version';
import { packageVersion } from './package-version';

describe('packageVersion', () => {
  it("is package.json's version, the one the CLI reports too", () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(packageVersion()).toBe(version);
    expect(cliVersion()).toBe(version);
  });
});
