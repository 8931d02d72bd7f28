/**
 * Everything the CLI touches in the outside world, passed in by main.ts. Commands never read
 * process.* themselves, so tests run them in-process with captured output and a fake environment.
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
  /** The process environment (read only by cli-settings.ts and the commands' option parsing). */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homedir: string;
  /** Aborted on Ctrl-C: every wait and request stops at once. */
  signal: AbortSignal;
}

/**
 * Exit codes (docs/cli.md): 0 pass, 1 gated findings, 2 usage or transport errors, 3 agent files
 * found but not analysed (scan incomplete, without --allow-unscanned), 4 invalid suppression
 * config or baseline, 130 interrupted.
 */
export const EXIT_OK = 0;
export const EXIT_GATED = 1;
export const EXIT_ERROR = 2;
export const EXIT_UNSCANNED = 3;
export const EXIT_CONFIG = 4;
export const EXIT_INTERRUPTED = 130;

/** A failure the user can act on; its message is printed as is (no stack), exit code 2 by default. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_ERROR,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad flags or arguments: the message is followed by a hint to run `--help`. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_ERROR);
    this.name = 'UsageError';
  }
}

/** True for the error a cancelled wait or request rejects with. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as NodeJS.ErrnoException).code === 'ABORT_ERR');
}
