import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/**
 * An embedded PGlite folder may be open in one process only: PGlite keeps the database in that
 * process's memory and writes it back on its own schedule, so a second process (`bulwark keys`
 * beside `npm start`) writes rows the first never sees and may later overwrite. Each opener takes
 * `<folder>.lock` (pid and command); another live holder means refuse.
 */
export interface LockHolder {
  pid: number;
  command: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`The embedded database ${dataDir} is in use by another process (pid ${holder.pid}: ${holder.command}).`);
    this.name = 'DataDirInUseError';
  }
}

export const lockPathOf = (dataDir: string): string => `${dataDir}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, command: String(parsed.command ?? '?') } : null;
  } catch {
    return null;
  }
}

/**
 * Takes the folder's lock for this process and returns its release, or throws DataDirInUseError
 * when a live other process holds it. A lock left by a process that is gone is taken over. The
 * same process may open the folder again (its own DataSources close in order; tests reopen).
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const path = lockPathOf(dataDir);
  const me: LockHolder = { pid: process.pid, command: process.argv.slice(1).join(' ').slice(0, 200) || 'node' };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return () => {
        if (readHolder(path)?.pid === process.pid) unlinkSync(path);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(path);
    if (holder && holder.pid === process.pid) return () => undefined;
    if (holder && alive(holder.pid)) throw new DataDirInUseError(dataDir, holder);
    // Stale (holder gone) or half-written: remove and try again; a racing opener gets one winner via 'wx'.
    try {
      unlinkSync(path);
    } catch {
      // Another opener removed it first.
    }
  }
  throw new Error(`Cannot take the lock ${path}`);
}
