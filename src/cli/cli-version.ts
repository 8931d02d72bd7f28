import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let cached: string | null = null;

/** The package version (package.json sits two folders up from both src/cli and dist/cli). */
export function cliVersion(): string {
  if (cached === null) {
    try {
      cached = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}

export const userAgent = (): string => `bulwark-cli/${cliVersion()} node/${process.versions.node}`;
