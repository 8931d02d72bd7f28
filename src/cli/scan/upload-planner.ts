import { readFile } from 'node:fs/promises';
import AdmZip from 'adm-zip';
import { unsafeZipNameReason } from '../../scanner/archive/entry-name';
import { DEFAULT_SCAN_LIMITS, formatBytes, type ScanLimits } from '../../scanner/archive/scan-limits';
import { classifyOpaque, detectTextKind } from '../../scanner/engine/kind-detector';
import { AGENT_KINDS, type Discovery, type LocalFile, type ScanTarget } from './agent-file-discovery';

/**
 * Turns discovered targets into uploads that respect the server's upload limits (≤ 3 files,
 * 250 KB each, 750 KB uncompressed, 1 MB uploaded), and lists every file left out with the reason.
 * A skill travels as zips of its SKILL.md plus up to two more files each, so every script is
 * judged next to the instructions that invoke it; a lone file is sent as itself, under its
 * relative path (the path tells the server what kind of file it is).
 */

export interface PlannedUpload {
  /** Multipart file name: the relative path of a single file, or `<skill>.zip`. */
  filename: string;
  bytes: Buffer;
  /** Display paths of the files inside (for an archive argument: the archive itself). */
  files: string[];
  container: 'file' | 'zip' | 'archive';
}

/** Why a file was not sent; `empty` and `media` have nothing the scanner could analyse. */
export type NotSentCode = 'upload_cap' | 'too_large' | 'unreadable' | 'unsafe_path' | 'symlink' | 'symlink_scanned' | 'empty' | 'media';

export interface NotSentFile {
  path: string;
  reason: string;
  code: NotSentCode;
}

export interface UploadPlan {
  uploads: PlannedUpload[];
  notSent: NotSentFile[];
}

export interface PlanOptions {
  limits?: ScanLimits;
  /** Stop adding uploads past this many (protects the key's budget on a huge tree). */
  maxUploads?: number;
}

/**
 * Far above real repositories (the largest rules collections tried need ~300 uploads; a monorepo
 * with 100 skills of 20 files each ~1,000), and still a stop for a scan of the wrong folder.
 * Hitting it fails the run (exit 3) unless --allow-unscanned: a cap never passes silently.
 */
export const DEFAULT_MAX_UPLOADS = 5000;

/** Media the scanner cannot read and that carries no instructions: never worth a file slot. */
const MEDIA_EXT = /\.(png|jpe?g|gif|webp|bmp|ico|icns|tiff?|psd|heic|avif|mp3|wav|ogg|flac|m4a|mp4|mov|avi|mkv|webm|woff2?|ttf|otf|eot|pdf)$/i;

interface Candidate {
  file: LocalFile;
  bytes: Buffer;
  rank: number;
}

/** Send order inside a skill: agent files and scripts first, then other text, then opaque files. */
function rankOf(path: string, bytes: Buffer): number {
  if (classifyOpaque(path, bytes)) return 3;
  const kind = detectTextKind(path, bytes.subarray(0, 4096).toString('utf8'));
  if (kind === 'script' || AGENT_KINDS.has(kind)) return 1;
  return 2;
}

async function load(file: LocalFile, limits: ScanLimits, notSent: NotSentFile[]): Promise<Buffer | null> {
  const nameProblem = unsafeZipNameReason(file.displayPath);
  if (nameProblem) {
    notSent.push({ path: file.displayPath, reason: `unsafe path (${nameProblem}); rename it to scan it`, code: 'unsafe_path' });
    return null;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file.absPath);
  } catch (err) {
    notSent.push({ path: file.displayPath, reason: `could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, code: 'unreadable' });
    return null;
  }
  if (bytes.length === 0) {
    notSent.push({ path: file.displayPath, reason: 'empty file', code: 'empty' });
    return null;
  }
  if (bytes.length > limits.maxFileBytes) {
    notSent.push({
      path: file.displayPath,
      reason: `${formatSize(bytes.length)}, over the ${formatBytes(limits.maxFileBytes)} per-file limit`,
      code: 'too_large',
    });
    return null;
  }
  return bytes;
}

const formatSize = (n: number): string => (n >= 1024 ? `${(n / 1024).toFixed(n >= 10 * 1024 ? 0 : 1)} KB` : `${n} bytes`);

/**
 * A bundle zipped by the CLI stores its entries uncompressed: the scanner refuses entries whose
 * compression ratio is above its zip-bomb limit, and a user's own repetitive file (a fixture, a
 * data table) would otherwise be refused for compressing well. The totals stay within the upload
 * limits, which bound uncompressed bytes anyway.
 */
function zipOf(entries: { name: string; bytes: Buffer }[]): Buffer {
  const zip = new AdmZip();
  for (const e of entries) {
    zip.addFile(e.name, e.bytes);
    zip.getEntry(e.name)!.header.method = 0; // stored
  }
  return zip.toBuffer();
}

async function planSkill(target: Extract<ScanTarget, { type: 'skill' }>, limits: ScanLimits, notSent: NotSentFile[]): Promise<PlannedUpload[]> {
  const primaryBytes = await load(target.skillMd, limits, notSent);
  const candidates: Candidate[] = [];
  for (const f of target.files) {
    if (MEDIA_EXT.test(f.displayPath)) {
      notSent.push({ path: f.displayPath, reason: 'image, media or font file; not analysed by the scanner', code: 'media' });
      continue;
    }
    const bytes = await load(f, limits, notSent);
    if (bytes) candidates.push({ file: f, bytes, rank: rankOf(f.displayPath, bytes) });
  }
  candidates.sort((a, b) => a.rank - b.rank || (a.file.displayPath < b.file.displayPath ? -1 : 1));

  const primary = primaryBytes ? [{ name: target.skillMd.displayPath, bytes: primaryBytes }] : [];
  const perUpload = limits.maxFiles - primary.length;
  const name = `${target.displayDir.split('/').pop() || 'skill'}.zip`;
  if (candidates.length === 0) {
    return primary.length ? [{ filename: target.skillMd.displayPath, bytes: primary[0].bytes, files: [primary[0].name], container: 'file' }] : [];
  }
  const uploads: PlannedUpload[] = [];
  for (let i = 0; i < candidates.length; i += perUpload) {
    const group = [...primary, ...candidates.slice(i, i + perUpload).map((c) => ({ name: c.file.displayPath, bytes: c.bytes }))];
    const total = group.reduce((n, g) => n + g.bytes.length, 0);
    if (total > limits.maxTotalBytes) {
      // Only reachable with custom limits (3 × 250 KB = 750 KB): send the files one by one instead.
      for (const g of group) uploads.push({ filename: g.name, bytes: g.bytes, files: [g.name], container: 'file' });
      continue;
    }
    const bytes = zipOf(group);
    uploads.push({ filename: name, bytes, files: group.map((g) => g.name), container: 'zip' });
  }
  return uploads;
}

export async function planUploads(discovery: Discovery, options: PlanOptions = {}): Promise<UploadPlan> {
  const limits = options.limits ?? DEFAULT_SCAN_LIMITS;
  const maxUploads = options.maxUploads ?? DEFAULT_MAX_UPLOADS;
  const notSent: NotSentFile[] = [...discovery.notSent];
  const uploads: PlannedUpload[] = [];
  for (const target of discovery.targets) {
    let planned: PlannedUpload[] = [];
    if (target.type === 'skill') {
      planned = await planSkill(target, limits, notSent);
    } else if (target.type === 'archive') {
      const bytes = await readArchive(target.file, limits, notSent);
      if (bytes) planned = [{ filename: target.file.displayPath.split('/').pop()!, bytes, files: [target.file.displayPath], container: 'archive' }];
    } else {
      const bytes = await load(target.file, limits, notSent);
      if (bytes) planned = [{ filename: target.file.displayPath, bytes, files: [target.file.displayPath], container: 'file' }];
    }
    for (const u of planned) {
      if (uploads.length >= maxUploads) {
        for (const f of u.files) notSent.push({ path: f, reason: `upload cap of ${maxUploads} reached (--max-uploads)`, code: 'upload_cap' });
      } else {
        uploads.push(u);
      }
    }
  }
  return { uploads, notSent };
}

async function readArchive(file: LocalFile, limits: ScanLimits, notSent: NotSentFile[]): Promise<Buffer | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file.absPath);
  } catch (err) {
    notSent.push({ path: file.displayPath, reason: `could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, code: 'unreadable' });
    return null;
  }
  if (bytes.length > limits.maxUploadBytes) {
    notSent.push({
      path: file.displayPath,
      reason: `${formatSize(bytes.length)}, over the ${formatBytes(limits.maxUploadBytes)} upload limit`,
      code: 'too_large',
    });
    return null;
  }
  return bytes;
}
