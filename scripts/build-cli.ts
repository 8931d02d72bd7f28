/**
 * `npm run build:cli`: the standalone CLI package (docs/decisions/0016-standalone-cli-and-policy-presets.md).
 * One CommonJS file bundled by esbuild from src/cli/standalone.ts, with the run-time assets it reads
 * from disk beside it (tree-sitter runtime and grammars, judge prompts) and the licences of the
 * bundled packages, in packages/cli/dist/. `npm pack` in packages/cli then makes the tarball.
 *   npm run build:cli                  build into packages/cli
 *   npm run build:cli -- --out <dir>   build the whole package (package.json, README, dist/) into <dir>
 */
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { CODE_LANGUAGES } from '../src/scanner/code/tree-sitter';

const ROOT = join(__dirname, '..');
export const PACKAGE_SOURCE = join(ROOT, 'packages', 'cli');
/** The folder beside the bundle that holds the .wasm files (BULWARK_BUNDLED_GRAMMARS in src/scanner/code/tree-sitter.ts). */
const GRAMMAR_FOLDER = 'tree-sitter';
/** What the server's packages may not be in the bundle: the scan path must not need them (the CLI talks HTTP). */
const SERVER_ONLY =
  /(?:^|\/)node_modules\/(?:@nestjs|typeorm|pg|pg-[\w-]+|@electric-sql|express|ioredis|class-validator|class-transformer|reflect-metadata|rxjs|piscina|@cyclonedx)\//;

export interface CliBuild {
  /** The package folder (package.json, README.md, dist/). */
  dir: string;
  bundle: string;
  bundleBytes: number;
  version: string;
  /** Packages bundled from node_modules. */
  packages: string[];
}

type PackageJson = { name?: string; version?: string; engines?: Record<string, string>; bin?: Record<string, string>; license?: string };
const readJson = (path: string): PackageJson => JSON.parse(readFileSync(path, 'utf8')) as PackageJson;

/** The package a bundled file belongs to (its innermost node_modules/<name>), or null for project sources. */
function packageOf(input: string): string | null {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(input);
  return m ? m[1] : null;
}

function licenceText(pkgDir: string): string | null {
  const file = readdirSync(pkgDir).find((f) => /^(?:licen[cs]e|copying)(?:\.md|\.txt)?$/i.test(f));
  return file ? readFileSync(join(pkgDir, file), 'utf8').trim() : null;
}

export async function buildCliPackage(out: string = PACKAGE_SOURCE): Promise<CliBuild> {
  const root = readJson(join(ROOT, 'package.json'));
  const manifest = readJson(join(PACKAGE_SOURCE, 'package.json'));
  // The package carries the project's version; a bump must touch both files (this stops a stale one).
  if (manifest.version !== root.version)
    throw new Error(`packages/cli/package.json has version ${manifest.version}, the project ${root.version}: make them equal`);
  if (manifest.engines?.node !== root.engines?.node)
    throw new Error(`packages/cli/package.json engines.node ${manifest.engines?.node} differs from the project's ${root.engines?.node}`);
  const dir = resolve(out);
  const dist = join(dir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  if (dir !== PACKAGE_SOURCE) for (const f of ['package.json', 'README.md']) copyFileSync(join(PACKAGE_SOURCE, f), join(dir, f));
  const bundle = join(dir, manifest.bin?.bulwark ?? 'dist/bulwark.js');

  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'src', 'cli', 'standalone.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    metafile: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { BULWARK_CLI_VERSION: JSON.stringify(root.version), BULWARK_BUNDLED_GRAMMARS: JSON.stringify(GRAMMAR_FOLDER) },
    // tree-sitter.ts resolves the grammar folder from node_modules only outside the bundle.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  const inputs = Object.keys(result.metafile.inputs);
  const serverOnly = inputs.filter((i) => SERVER_ONLY.test(i) || /^src\/(?:database|auth|applications|sbom|mcp)\//.test(i));
  if (serverOnly.length) throw new Error(`the CLI bundle pulled in server code: ${serverOnly.slice(0, 5).join(', ')}`);

  // Run-time assets read from disk: the tree-sitter runtime and the grammars the code layer loads, and the judge prompts.
  const tsDir = dirname(require.resolve('@vscode/tree-sitter-wasm'));
  mkdirSync(join(dist, GRAMMAR_FOLDER));
  for (const f of ['tree-sitter.wasm', ...CODE_LANGUAGES.map((l) => `tree-sitter-${l}.wasm`)]) copyFileSync(join(tsDir, f), join(dist, GRAMMAR_FOLDER, f));
  cpSync(join(ROOT, 'src', 'scanner', 'judge', 'prompts'), join(dist, 'prompts'), { recursive: true });

  // The bundled packages' licences travel with their code.
  const packages = [...new Set(inputs.map(packageOf).filter((p): p is string => p !== null))].sort();
  const notices = packages.map((name) => {
    const pkgDir = join(ROOT, 'node_modules', name);
    const meta = readJson(join(pkgDir, 'package.json'));
    return `${name}@${meta.version} (${meta.license ?? 'see below'})\n\n${licenceText(pkgDir) ?? 'No licence file in the package.'}`;
  });
  writeFileSync(
    join(dist, 'THIRD_PARTY_LICENSES.txt'),
    `Packages bundled into bulwark.js and the .wasm files in ${GRAMMAR_FOLDER}/:\n\n${notices.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`,
  );
  return { dir, bundle, bundleBytes: statSync(bundle).size, version: root.version ?? '0.0.0', packages };
}

if (require.main === module) {
  const i = process.argv.indexOf('--out');
  buildCliPackage(i > 0 ? process.argv[i + 1] : undefined).then(
    (b) => {
      const at = relative(process.cwd(), b.dir) || '.';
      process.stdout.write(
        `built ${relative(process.cwd(), b.bundle)} (${(b.bundleBytes / 1024).toFixed(0)} KiB, v${b.version}; bundled: ${b.packages.join(', ')})\nnext: cd ${at} && npm pack\n`,
      );
    },
    (err: unknown) => {
      process.stderr.write(`build:cli failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
