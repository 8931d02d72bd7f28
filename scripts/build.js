#!/usr/bin/env node
'use strict';
// `npm run build`: dist/ from src/ with the TypeScript compiler, plus the JSON and Markdown assets
// (lexicons, judge prompts) beside their modules. It replaces `nest build`, whose CLI needs Node 22
// (docs/decisions/0009-node-20-dependency-set.md). Plain JavaScript so it costs no compile.
const { copyFileSync, mkdirSync, readdirSync, rmSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = join(__dirname, '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const ASSET = /\.(json|md)$/;

function main() {
  // A clean output folder: files of deleted sources must not linger in dist/.
  rmSync(DIST, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  if (tsc.status !== 0) return tsc.status ?? 1;
  for (const entry of readdirSync(SRC, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !ASSET.test(entry.name)) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join(DIST, relative(SRC, from));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
  return 0;
}

process.exit(main());
