import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let cached: string | null = null;

/**
 * The product version, from package.json (two folders up from both src/common and dist/common). One
 * definition for the server (SBOM tool, MCP server info) and the CLI (`bulwark --version`, User-Agent).
 */
export function packageVersion(): string {
  if (cached === null) {
    try {
      cached = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}
