import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hasOsMetadataName, osMetadataVerdict } from '../../scanner/archive/os-metadata';
import { DEFAULT_SCAN_LIMITS } from '../../scanner/archive/scan-limits';
import { detectTextKind } from '../../scanner/engine/kind-detector';
import type { FileKind } from '../../scanner/engine/scan-report.types';
import { UsageError } from '../cli-io';
import type { NotSentFile } from './upload-planner';

/**
 * Finds what `bulwark scan <path…>` should send. A file argument is sent as given (a .zip as one
 * upload). A folder argument is walked: every folder holding a SKILL.md is a skill (all its files
 * travel together), and elsewhere only agent files are picked, recognised by name with the same
 * kind detector the server uses (SKILL.md, AGENTS.md, CLAUDE.md, GEMINI.md, .cursorrules,
 * .cursor/rules/*.mdc, copilot-instructions.md, .claude/commands|agents/*.md, MCP configs,
 * agent settings, tool manifests, …).
 */

/** Vendored, generated or VCS folders: never agent files of this project, often huge. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
  '.turbo',
]);

/** Kinds picked up outside skill folders, and sent first inside them (upload-planner.ts). */
export const AGENT_KINDS: ReadonlySet<FileKind> = new Set(['agent_file', 'mcp_config', 'agent_settings', 'tool_manifest']);

/** Stop walking a tree after this many entries (a scan of `/` is a mistake, not a use case). */
export const MAX_WALK_ENTRIES = 200_000;
const MAX_DEPTH = 40;

export interface LocalFile {
  /** Absolute path on disk. */
  absPath: string;
  /** The path shown in reports and sent as the upload name: relative to the working folder, `/`-separated. */
  displayPath: string;
}

export type ScanTarget =
  | { type: 'file'; file: LocalFile }
  | { type: 'archive'; file: LocalFile }
  | { type: 'skill'; dir: string; displayDir: string; skillMd: LocalFile; files: LocalFile[] };

export interface Discovery {
  targets: ScanTarget[];
  /** Files seen but not considered (symlinks in skill folders…), with the reason. */
  notSent: NotSentFile[];
  /** Folder arguments under which nothing was found. */
  emptyRoots: string[];
  truncated: boolean;
}

const toPosix = (p: string): string => p.split(sep).join('/');

/**
 * Display path: relative to the working folder when inside it; otherwise relative to the parent
 * of the argument, so `../other/skills/x/SKILL.md` shows as `skills/x/SKILL.md`.
 */
function displayPathOf(abs: string, cwd: string, argRoot: string): string {
  const rel = relative(cwd, abs);
  if (rel === '') return basename(abs);
  const outside = rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return toPosix(outside ? relative(dirname(argRoot), abs) : rel);
}

/** Name-based: is this path an agent file the server would classify as one? */
export function isAgentFilePath(path: string): boolean {
  return AGENT_KINDS.has(detectTextKind(path, ''));
}

export const isSkillFile = (name: string): boolean => name.toLowerCase() === 'skill.md';

interface WalkedFile {
  abs: string;
  symlink: boolean;
}

/**
 * OS litter is never worth a file slot, but only when its bytes are what its name claims (the
 * server's rule): a script named `._setup.sh` or `desktop.ini` is sent and analysed. Files over
 * the per-file limit are sent too; the server answers for them.
 */
async function isOsMetadataFile(abs: string, root: string): Promise<boolean> {
  const path = toPosix(relative(root, abs));
  if (!hasOsMetadataName(path)) return false;
  try {
    if ((await lstat(abs)).size > DEFAULT_SCAN_LIMITS.maxFileBytes) return false;
    return osMetadataVerdict(path, await readFile(abs)) === 'metadata';
  } catch {
    return false; // unreadable: keep it, so the read error is reported where files are read
  }
}

async function walk(root: string, budget: { left: number }): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  const stack: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  while (stack.length) {
    const { dir, depth } = stack.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: nothing to scan there
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (--budget.left < 0) return out;
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (!IGNORED_DIRS.has(e.name) && depth < MAX_DEPTH) stack.push({ dir: abs, depth: depth + 1 });
      } else if (e.isFile()) {
        if (!(await isOsMetadataFile(abs, root))) out.push({ abs, symlink: false });
      } else if (e.isSymbolicLink()) {
        out.push({ abs, symlink: true });
      }
    }
  }
  return out;
}

const isZipName = (p: string): boolean => /\.zip$/i.test(p);

export async function discoverTargets(paths: string[], cwd: string): Promise<Discovery> {
  const result: Discovery = { targets: [], notSent: [], emptyRoots: [], truncated: false };
  const budget = { left: MAX_WALK_ENTRIES };
  const seen = new Set<string>();
  /** notSent index → absolute path of each symlink, to tell links to scanned files apart. */
  const links = new Map<number, string>();
  for (const arg of paths) {
    const abs = resolve(cwd, arg);
    let st;
    try {
      st = await lstat(abs);
    } catch {
      throw new UsageError(`No such file or folder: ${arg}`);
    }
    if (st.isSymbolicLink()) {
      result.notSent.push({ path: arg, reason: 'symbolic link; not followed', code: 'symlink' });
      links.set(result.notSent.length - 1, abs);
      continue;
    }
    if (st.isFile()) {
      if (seen.has(abs)) continue;
      seen.add(abs);
      const file = { absPath: abs, displayPath: displayPathOf(abs, cwd, abs) };
      result.targets.push(isZipName(abs) ? { type: 'archive', file } : { type: 'file', file });
      continue;
    }
    if (!st.isDirectory()) throw new UsageError(`Not a regular file or folder: ${arg}`);
    const before = result.targets.length;
    const files = await walk(abs, budget);
    if (budget.left < 0) result.truncated = true;
    collectFromTree(abs, files, cwd, result, seen, links);
    if (result.targets.length === before) result.emptyRoots.push(arg);
  }
  await markLinksToScannedFiles(result, links);
  return result;
}

/**
 * A symlink is never followed, but one whose target is itself scanned in this run (CLAUDE.md →
 * AGENTS.md, common in real repositories) leaves nothing unanalysed: it is listed, not gated.
 */
async function markLinksToScannedFiles(result: Discovery, links: Map<number, string>): Promise<void> {
  if (links.size === 0) return;
  const real = async (p: string): Promise<string | null> => {
    try {
      return await realpath(p);
    } catch {
      return null;
    }
  };
  const scanned = new Set<string>();
  const targets = result.targets.flatMap((t) => (t.type === 'skill' ? [t.skillMd, ...t.files] : [t.file]));
  for (const { absPath: abs } of targets) {
    const r = await real(abs);
    if (r) scanned.add(r);
  }
  for (const [i, abs] of links) {
    const target = await real(abs);
    if (target && scanned.has(target)) {
      const entry = result.notSent[i];
      entry.code = 'symlink_scanned';
      entry.reason = 'symbolic link to a file scanned in this run; not followed';
    }
  }
}

function collectFromTree(root: string, files: WalkedFile[], cwd: string, result: Discovery, seen: Set<string>, links: Map<number, string>): void {
  const skillDirs = new Set(files.filter((f) => !f.symlink && isSkillFile(basename(f.abs))).map((f) => dirname(f.abs)));
  /** The deepest skill folder containing `abs`, if any (nested skills own their files). */
  const skillOf = (abs: string): string | null => {
    for (let d = dirname(abs); d.length >= root.length; d = dirname(d)) {
      if (skillDirs.has(d)) return d;
      if (d === dirname(d)) break;
    }
    return null;
  };
  const skills = new Map<string, LocalFile[]>();
  for (const d of skillDirs) skills.set(d, []);
  for (const f of files) {
    if (seen.has(f.abs)) continue;
    const display = displayPathOf(f.abs, cwd, root);
    const skill = skillOf(f.abs);
    if (f.symlink) {
      if (skill || isAgentFilePath(display)) {
        result.notSent.push({ path: display, reason: 'symbolic link; not followed', code: 'symlink' });
        links.set(result.notSent.length - 1, f.abs);
      }
      continue;
    }
    seen.add(f.abs);
    const local = { absPath: f.abs, displayPath: display };
    if (skill) skills.get(skill)!.push(local);
    else if (isAgentFilePath(display)) result.targets.push({ type: 'file', file: local });
  }
  for (const [dir, members] of [...skills].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const skillMd = members.find((m) => isSkillFile(basename(m.absPath)) && dirname(m.absPath) === dir)!;
    result.targets.push({
      type: 'skill',
      dir,
      displayDir: displayPathOf(dir, cwd, root),
      skillMd,
      files: members.filter((m) => m !== skillMd),
    });
  }
}
