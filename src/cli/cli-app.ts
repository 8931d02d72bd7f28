import { CliError, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, isAbortError, UsageError, type CliIo } from './cli-io';
import { cliVersion } from './cli-version';

export const MAIN_HELP = `Usage: bulwark <command> [options]

Commands:
  scan [--local] [--server URL] [--format text|json|sarif] [--fail-on <band>] <path…>
                      scan agent files, skill folders, zips or a whole repository
  keys create|list|revoke
                      manage API keys directly in the database
  tenants list|show|set
                      show and set tenant rate limits directly in the database
  sbom <application_id> [--environment …] [--coderoot …] -o <file>
                      generate an application's CycloneDX 1.6 SBOM
  whoami              show the tenant, key and budgets of the configured credential

Run \`bulwark <command> --help\` for details. Docs: docs/cli.md
`;

type Command = (argv: string[], io: CliIo) => Promise<number>;

// Loaded on demand: `keys` and `tenants` pull in TypeORM and the database driver, `scan --local` the engine;
// neither should slow down the others.
/* eslint-disable @typescript-eslint/no-require-imports */
const COMMANDS: Record<string, () => Command> = {
  scan: () => (require('./commands/scan.command') as typeof import('./commands/scan.command')).runScan,
  keys: () => (require('./commands/keys.command') as typeof import('./commands/keys.command')).runKeys,
  tenants: () => (require('./commands/tenants.command') as typeof import('./commands/tenants.command')).runTenants,
  sbom: () => (require('./commands/sbom.command') as typeof import('./commands/sbom.command')).runSbom,
  whoami: () => (require('./commands/whoami.command') as typeof import('./commands/whoami.command')).runWhoami,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(MAIN_HELP);
    return command ? EXIT_OK : EXIT_ERROR;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    io.stdout(`${cliVersion()}\n`);
    return EXIT_OK;
  }
  const load = COMMANDS[command];
  if (!load) {
    io.stderr(`Unknown command "${command.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)}".\n\n${MAIN_HELP}`);
    return EXIT_ERROR;
  }
  try {
    return await load()(rest, io);
  } catch (err) {
    if (isAbortError(err) || io.signal.aborted) {
      io.stderr('Interrupted.\n');
      return EXIT_INTERRUPTED;
    }
    if (err instanceof UsageError) {
      io.stderr(`${err.message}\nRun \`bulwark ${command} --help\` for usage.\n`);
      return err.exitCode;
    }
    if (err instanceof CliError) {
      io.stderr(`${err.message}\n`);
      return err.exitCode;
    }
    // Unexpected: name it without a stack (set BULWARK_DEBUG=1 for one).
    io.stderr(`Unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (io.env.BULWARK_DEBUG && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
    return EXIT_ERROR;
  }
}
