'use strict';
/**
 * How the GitHub Action (scripts/action/run.js) and the pre-commit hook (scripts/action/pre-commit.js)
 * start the Bulwark CLI: BULWARK_CLI when set (a command, e.g. `node bin/bulwark.js`, or a JSON
 * array for paths with spaces), else the standalone package through npx at BULWARK_VERSION or,
 * by default, the version of this checkout's package.json, so a pinned Action tag runs the CLI of
 * the same release (docs/decisions/0017-reports-and-ci-integrations.md).
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** The npm name of the standalone CLI package (`npm run build:cli`, docs/decisions/0016-standalone-cli-and-policy-presets.md). */
const CLI_PACKAGE = '@bulwark/cli';

/** The repository root: scripts/action/ is two levels down. */
const REPO_ROOT = join(__dirname, '..', '..');

function splitCommand(raw) {
  const text = raw.trim();
  if (text.startsWith('[')) {
    const parts = JSON.parse(text);
    if (!Array.isArray(parts) || parts.length === 0 || !parts.every((p) => typeof p === 'string' && p !== '')) {
      throw new Error('BULWARK_CLI as JSON must be a non-empty array of strings');
    }
    return parts;
  }
  return text.split(/\s+/);
}

/** The command and its leading arguments, e.g. ['npx', '--yes', '@bulwark/cli@0.1.0']. */
function cliCommand(env, root = REPO_ROOT) {
  if (env.BULWARK_CLI && env.BULWARK_CLI.trim()) return splitCommand(env.BULWARK_CLI);
  const version = (env.BULWARK_VERSION && env.BULWARK_VERSION.trim()) || JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  if (!/^[\w.+-]+$/.test(version)) throw new Error(`BULWARK_VERSION must be an npm version or tag; got "${version}"`);
  return ['npx', '--yes', `${CLI_PACKAGE}@${version}`];
}

module.exports = { CLI_PACKAGE, REPO_ROOT, cliCommand, splitCommand };
