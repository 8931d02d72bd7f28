#!/usr/bin/env node
'use strict';
/**
 * The pre-commit hook (.pre-commit-hooks.yaml, id bulwark-scan): pre-commit passes the hook's
 * `args` and then the staged files that match its `files` pattern. A file inside a skill folder
 * (one holding a SKILL.md) is widened to that folder, so a skill's instructions are judged with
 * its scripts. Defaults to `--local --fail-on high` unless the args choose their own gate.
 */
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { dirname, join, resolve, sep } = require('node:path');
const { cliCommand } = require('./cli-command');

/** The skill folder holding `file` (nearest SKILL.md at or above it, below `cwd`), or null. */
function skillFolderOf(file, cwd) {
  const root = resolve(cwd);
  let dir = dirname(resolve(cwd, file));
  while (dir.startsWith(root + sep)) {
    if (existsSync(join(dir, 'SKILL.md'))) return dir;
    dir = dirname(dir);
  }
  return null;
}

/** `bulwark scan` options that take a value as the next word (`--opt=value` is one word). */
const VALUE_OPTIONS = new Set([
  '--server',
  '--format',
  '-o',
  '--output',
  '--report',
  '--fail-on',
  '--fail-on-severity',
  '--config',
  '--baseline',
  '--write-baseline',
  '--concurrency',
  '--max-uploads',
]);

/** The hook's `args` (leading options and their values) apart from the file names pre-commit appends. */
function splitArgs(argv) {
  let i = 0;
  while (i < argv.length && argv[i].startsWith('-')) i += VALUE_OPTIONS.has(argv[i]) ? 2 : 1;
  return { options: argv.slice(0, i), files: argv.slice(i) };
}

function hookArgs(argv, cwd) {
  const { options, files } = splitArgs(argv);
  const targets = [];
  for (const f of files) {
    const skill = skillFolderOf(f, cwd);
    const t = skill
      ? skill
          .slice(resolve(cwd).length + 1)
          .split(sep)
          .join('/')
      : f;
    if (!targets.includes(t)) targets.push(t);
  }
  const gate = options.some((o) => o === '--fail-on' || o.startsWith('--fail-on=') || o === '--fail-on-severity' || o.startsWith('--fail-on-severity='));
  const remote = options.some((o) => o === '--server' || o.startsWith('--server='));
  return ['scan', ...(remote || options.includes('--local') ? [] : ['--local']), ...(gate ? [] : ['--fail-on', 'high']), ...options, '--', ...targets];
}

function main(argv = process.argv.slice(2), env = process.env, cwd = process.cwd()) {
  const args = hookArgs(argv, cwd);
  if (args[args.length - 1] === '--') return 0; // nothing staged that the hook covers
  const [cmd, ...pre] = cliCommand(env);
  const r = spawnSync(cmd, [...pre, ...args], { cwd, env, stdio: 'inherit' });
  if (r.error) {
    process.stderr.write(`bulwark pre-commit: could not start the CLI: ${r.error.message}\n`);
    return 2;
  }
  const code = r.status === null ? 2 : r.status;
  if (code !== 0)
    process.stderr.write(
      `bulwark: commit blocked (exit ${code}). Fix the findings, accept them in .bulwark.yaml or a baseline (docs/cli.md), or commit with --no-verify if you are sure.\n`,
    );
  return code;
}

if (require.main === module) process.exitCode = main();

module.exports = { hookArgs, main, skillFolderOf };
