/**
 * Pinning bench processes to CPUs with taskset (util-linux), so a server and its load generator do
 * not take turns on the same core. Linux only; elsewhere the parts run unpinned and say so.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';

const TASKSET = '/usr/bin/taskset';

/** taskset is here and there are at least two CPUs to keep apart. */
export const CAN_PIN_CPUS = process.platform === 'linux' && cpus().length >= 2 && existsSync(TASKSET);

/** Pins every thread of a running process to `cpuList` (e.g. "0"). */
export function pinProcess(pid: number, cpuList: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(TASKSET, ['--all-tasks', '--pid', '--cpu-list', cpuList, String(pid)], (err) => (err ? reject(err) : resolve()));
  });
}

/** The file and arguments that run `file args…` pinned to `cpuList` (unchanged when it is undefined). */
export function pinnedCommand(file: string, args: readonly string[], cpuList: string | undefined): [string, string[]] {
  return cpuList === undefined ? [file, [...args]] : [TASKSET, ['--cpu-list', cpuList, file, ...args]];
}
