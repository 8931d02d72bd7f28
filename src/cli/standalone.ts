#!/usr/bin/env node
import { runCliProcess, SCAN_AND_REMOTE_COMMANDS, type CommandTable } from './cli-app';
import { CliError } from './cli-io';

/** A command of the server's install only: says where to run it instead of failing on a missing module. */
const serverOnly = (name: string, what: string) => ({
  usage: `${name.padEnd(20)}(server install only) ${what}`,
  load: () => () =>
    Promise.reject(
      new CliError(
        `bulwark ${name} works on the server's database directly: run it where the server is installed (docs/cli.md). This standalone CLI scans and talks to a server over HTTP.`,
      ),
    ),
});

/**
 * Entry point of the standalone CLI package (scripts/build-cli.ts bundles this file into one
 * script; docs/decisions/0016-standalone-cli-and-policy-presets.md). It carries no database code:
 * `keys` and `tenants` stay with the server.
 */
export const STANDALONE_COMMANDS: CommandTable = {
  ...SCAN_AND_REMOTE_COMMANDS,
  keys: serverOnly('keys', 'manage API keys'),
  tenants: serverOnly('tenants', 'tenant rate limits'),
};

if (require.main === module) runCliProcess(STANDALONE_COMMANDS);
