#!/usr/bin/env node
'use strict';
// The `bulwark` command: runs the compiled CLI (src/cli/main.ts → dist/cli/main.js).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('bulwark: the CLI is not built yet. Run `npm run build` (or `npm install`, which builds it) first.\n');
  process.exit(2);
}
require(entry).main();
