import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Compiled in by scripts/build-cli.ts (esbuild `define`) in the standalone CLI bundle, whose
 * package.json is not two folders up; undefined everywhere else.
 */
declare const BULWARK_CLI_VERSION: string | undefined;

let cached: string | null = null;

/**
 * The product version, from package.json (two folders up from both src/common and dist/common). One
 * definition for the server (SBOM tool, MCP server info) and the CLI (`bulwark --version`, User-Agent).
 */
export function packageVersion(): string {
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
