import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Compiled in by scripts/build-cli.ts (esbuild `define`) in the standalone bundle, whose
 * package.json is not two folders up; undefined everywhere else.
 */
declare const BULWARK_CLI_VERSION: string | undefined;

let cached: string | null = null;

/** The package version (package.json sits two folders up from both src/cli and dist/cli). */
export function cliVersion(): string {
  if (cached === null) {
    if (typeof BULWARK_CLI_VERSION === 'string') return (cached = BULWARK_CLI_VERSION);
    try {
      cached = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}

export const userAgent = (): string => `bulwark-cli/${cliVersion()} node/${process.versions.node}`;
