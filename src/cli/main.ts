#!/usr/bin/env node
import { runCliProcess, SCAN_AND_REMOTE_COMMANDS, type CommandTable } from './cli-app';

/**
 * The server install's commands: scan, sbom and whoami, plus `keys` and `tenants`, which work on
 * the database directly (TypeORM and the driver, loaded only when one of them runs).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const SERVER_COMMANDS: CommandTable = {
  ...SCAN_AND_REMOTE_COMMANDS,
  keys: {
    usage: 'keys create|list|revoke\n                      manage API keys directly in the database',
    load: () => (require('./commands/keys.command') as typeof import('./commands/keys.command')).runKeys,
  },
  tenants: {
    usage: 'tenants list|show|set\n                      show and set tenant rate limits directly in the database',
    load: () => (require('./commands/tenants.command') as typeof import('./commands/tenants.command')).runTenants,
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Entry point of the server install's `bulwark` command (bin/bulwark.js loads the compiled copy). */
export function main(): void {
  runCliProcess(SERVER_COMMANDS);
}

if (require.main === module) main();
