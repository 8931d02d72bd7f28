#!/usr/bin/env node
'use strict';
// `npm start`'s prestart: builds only when the inputs of the build changed since the last one
// (docs/decisions/0006-start-builds-only-when-changed.md). Plain JavaScript so it costs no compile.
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');
const { spawnSync } = require('node:child_process');

/** Files and folders whose content decides what `npm run build` (scripts/build.js) writes to dist/. */
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js', 'package.json', 'package-lock.json'];
const STAMP = join('dist', '.build-stamp');
const ENTRY = join('dist', 'main.js');

function listFiles(root, input) {
  const full = join(root, input);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [input];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** One hash over the names and contents of every input (content, not mtime: checkouts reset mtimes). */
function sourceHash(root) {
  const files = INPUTS.flatMap((input) => listFiles(root, input));
  const hash = createHash('sha256');
  for (const file of files.map((f) => f.split(sep).join('/')).sort()) {
    const content = readFileSync(join(root, file));
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/** Why a build is needed, or null when dist/ was built from exactly the current inputs. */
function buildReason(root) {
  if (!existsSync(join(root, ENTRY))) return 'no build yet';
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return 'the last build left no stamp';
  return readFileSync(stamp, 'utf8').trim() === sourceHash(root) ? null : 'sources changed since the last build';
}

function writeStamp(root) {
  writeFileSync(join(root, STAMP), `${sourceHash(root)}\n`);
}

function main(argv) {
  const root = join(__dirname, '..');
  if (argv.includes('--stamp')) {
    writeStamp(root);
    return 0;
  }
  const reason = buildReason(root);
  if (reason === null) {
    process.stdout.write('Build is up to date with the sources; not rebuilding (`npm run build` forces one).\n');
    return 0;
  }
  process.stdout.write(`Building: ${reason}.\n`);
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return r.status ?? 1;
}

module.exports = { sourceHash, buildReason, writeStamp, INPUTS };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
