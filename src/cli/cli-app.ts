import { homedir } from 'node:os';
import { CliError, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, isAbortError, UsageError, type CliIo } from './cli-io';
import { cliVersion } from './cli-version';

export type Command = (argv: string[], io: CliIo) => Promise<number>;

/** One command of a CLI build: its line in the main help and how to load it. */
export interface CommandEntry {
  usage: string;
  load: () => Command;
}

/** The commands one build of the CLI has (main.ts: the server's install; standalone.ts: the npm package). */
export type CommandTable = Record<string, CommandEntry>;

// Loaded on demand, so `scan` does not pay for the others. None of these touches the database:
// the standalone bundle (scripts/build-cli.ts) takes exactly this table, plus notes for the rest.
/* eslint-disable @typescript-eslint/no-require-imports */
export const SCAN_AND_REMOTE_COMMANDS: CommandTable = {
  scan: {
    usage:
      'scan [--local] [--server URL] [--format text|json|sarif|markdown] [--policy <p>] [--fail-on <band>] <path…>\n                      scan agent files, skill folders, zips or a whole repository',
    load: () => (require('./commands/scan.command') as typeof import('./commands/scan.command')).runScan,
  },
  sbom: {
    usage: "sbom <application_id> [--environment …] [--coderoot …] -o <file>\n                      generate an application's CycloneDX 1.6 SBOM",
    load: () => (require('./commands/sbom.command') as typeof import('./commands/sbom.command')).runSbom,
  },
  whoami: {
    usage: 'whoami              show the tenant, key and budgets of the configured credential',
    load: () => (require('./commands/whoami.command') as typeof import('./commands/whoami.command')).runWhoami,
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The main help of a build: its commands in a fixed order (scan first). */
export function mainHelp(commands: CommandTable): string {
  const order = ['scan', 'keys', 'tenants', 'sbom', 'whoami'];
  const names = Object.keys(commands).sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  return `Usage: bulwark <command> [options]

Commands:
${names.map((n) => `  ${commands[n].usage}`).join('\n')}

Run \`bulwark <command> --help\` for details. Docs: docs/cli.md
`;
}

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function runCli(argv: string[], io: CliIo, commands: CommandTable): Promise<number> {
  const help = mainHelp(commands);
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(help);
    return command ? EXIT_OK : EXIT_ERROR;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    io.stdout(`${cliVersion()}\n`);
    return EXIT_OK;
  }
  const entry = Object.prototype.hasOwnProperty.call(commands, command) ? commands[command] : undefined;
  if (!entry) {
    io.stderr(`Unknown command "${command.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)}".\n\n${help}`);
    return EXIT_ERROR;
  }
  try {
    return await entry.load()(rest, io);
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

/**
 * Wires the process to runCli: output streams, environment, and Ctrl-C, which aborts every wait
 * and request and exits at once with 130, even while the local engine is busy.
 */
export function runCliProcess(commands: CommandTable): void {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort();
    process.stderr.write('\nInterrupted.\n');
    process.exit(EXIT_INTERRUPTED);
  });
  runCli(
    process.argv.slice(2),
    {
      stdout: (t) => process.stdout.write(t),
      stderr: (t) => process.stderr.write(t),
      stdoutIsTty: process.stdout.isTTY === true,
      stderrIsTty: process.stderr.isTTY === true,
      env: process.env,
      cwd: process.cwd(),
      homedir: homedir(),
      signal: controller.signal,
    },
    commands,
  )
    .then((code) => {
      // exitCode (not exit()) lets piped stdout drain before the process ends.
      process.exitCode = code;
    })
    .catch((err: unknown) => {
      process.stderr.write(`Unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    });
}
