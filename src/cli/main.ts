#!/usr/bin/env node
import { homedir } from 'node:os';
import { runCli } from './cli-app';
import { EXIT_INTERRUPTED } from './cli-io';

/**
 * Entry point of the `bulwark` command (bin/bulwark.js loads the compiled copy). Wires the process
 * to runCli: output streams, environment, and Ctrl-C, which aborts every wait and request and
 * exits at once with 130, even while the local engine is busy.
 */
export function main(): void {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort();
    process.stderr.write('\nInterrupted.\n');
    process.exit(EXIT_INTERRUPTED);
  });
  runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
    homedir: homedir(),
    signal: controller.signal,
  })
    .then((code) => {
      // exitCode (not exit()) lets piped stdout drain before the process ends.
      process.exitCode = code;
    })
    .catch((err: unknown) => {
      process.stderr.write(`Unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    });
}

if (require.main === module) main();
