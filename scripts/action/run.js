#!/usr/bin/env node
'use strict';
/**
 * The GitHub Action's scan step (action.yml), runnable on its own:
 *   INPUT_PATH=. INPUT_FAIL_ON=high BULWARK_CLI="node bin/bulwark.js" node scripts/action/run.js
 * Runs one `bulwark scan` that prints the text report to the log and writes SARIF and a Markdown
 * summary (`--report`), appends the summary to $GITHUB_STEP_SUMMARY, and sets the outputs
 * `exit-code` and `sarif-file` in $GITHUB_OUTPUT. Exits with the scan's exit code, or 0 when
 * BULWARK_DEFER_EXIT=true (the Action uploads SARIF first and fails in its last step).
 */
const { spawnSync } = require('node:child_process');
const { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { cliCommand } = require('./cli-command');

const input = (env, name, def = '') => {
  const v = env[`INPUT_${name}`];
  return v === undefined || v.trim() === '' ? def : v.trim();
};
const truthy = (v) => /^(true|yes|1|on)$/i.test(v);

/** The scan's arguments from the Action's inputs (INPUT_* environment variables). */
function scanArgs(env, sarifFile, summaryFile) {
  const args = ['scan'];
  // No server given: the engine runs in the job (no key needed).
  if (!(env.BULWARK_SERVER && env.BULWARK_SERVER.trim())) args.push('--local');
  args.push('--fail-on', input(env, 'FAIL_ON', 'high'), '--fail-on-severity', input(env, 'FAIL_ON_SEVERITY', 'none'));
  args.push('--policy', input(env, 'POLICY', 'balanced'));
  const config = input(env, 'CONFIG');
  if (config) args.push('--config', config);
  const baseline = input(env, 'BASELINE');
  if (baseline) args.push('--baseline', baseline);
  if (truthy(input(env, 'ALLOW_UNSCANNED', 'false'))) args.push('--allow-unscanned');
  const maxUploads = input(env, 'MAX_UPLOADS');
  if (maxUploads) args.push('--max-uploads', maxUploads);
  if (sarifFile) args.push('--report', `sarif=${sarifFile}`);
  args.push('--report', `markdown=${summaryFile}`, '--progress');
  // One path per line (or separated by spaces); `--` so a path never reads as an option.
  args.push('--', ...input(env, 'PATH', '.').split(/\s+/).filter(Boolean));
  return args;
}

/** Appends `name=value` to $GITHUB_OUTPUT when the runner provides it. */
function setOutput(env, name, value) {
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${name}=${String(value).replace(/[\r\n]/g, ' ')}\n`);
}

function main(env = process.env, cwd = process.cwd()) {
  // Links in the reports point at docs/rules.md of the Action's own tag when the runner names it.
  const childEnv = { ...env };
  if (!childEnv.BULWARK_DOCS_URL && env.GITHUB_ACTION_REPOSITORY && env.GITHUB_ACTION_REF) {
    childEnv.BULWARK_DOCS_URL = `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_ACTION_REPOSITORY}/blob/${env.GITHUB_ACTION_REF}/docs/rules.md`;
  }
  const sarifInput = input(env, 'SARIF_FILE', 'bulwark.sarif');
  const sarifFile = sarifInput === 'none' ? null : sarifInput;
  const work = mkdtempSync(join(tmpdir(), 'bulwark-action-'));
  const summaryFile = join(work, 'summary.md');
  let code;
  try {
    const [cmd, ...pre] = cliCommand(env);
    const args = [...pre, ...scanArgs(env, sarifFile, summaryFile)];
    process.stderr.write(`bulwark action: ${[cmd, ...args].join(' ')}\n`);
    const r = spawnSync(cmd, args, { cwd, env: childEnv, stdio: 'inherit' });
    if (r.error) {
      process.stderr.write(`bulwark action: could not start the CLI: ${r.error.message}\n`);
      code = 2;
    } else {
      code = r.status === null ? 2 : r.status;
    }
    const summary = existsSync(summaryFile)
      ? readFileSync(summaryFile, 'utf8')
      : `## Bulwark agent-file scan: FAILED: no report (exit ${code})\n\nThe scan stopped before writing its report (exit 2: usage or transport error, 4: invalid .bulwark.yaml or baseline); see the job log.\n`;
    if (env.GITHUB_STEP_SUMMARY && truthy(input(env, 'SUMMARY', 'true'))) appendFileSync(env.GITHUB_STEP_SUMMARY, `${summary}\n`);
    setOutput(env, 'exit-code', code);
    setOutput(env, 'sarif-file', sarifFile && existsSync(resolve(cwd, sarifFile)) ? sarifFile : '');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return truthy(env.BULWARK_DEFER_EXIT || '') ? 0 : code;
}

if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (err) {
    process.stderr.write(`bulwark action: ${err.message}\n`);
    process.exitCode = 2;
  }
}

module.exports = { main, scanArgs };
