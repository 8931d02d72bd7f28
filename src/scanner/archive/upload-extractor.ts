import { crc32, inflateRawSync } from 'node:zlib';
import { BadRequestError, PayloadTooLargeError } from '../../common/errors';
import { isOsMetadataPath, normaliseUploadName, quoteName } from './entry-name';
import { DEFAULT_SCAN_LIMITS, formatBytes, type ScanLimits } from './scan-limits';
import { METHOD_STORED, readZipDirectory, type ZipEntryRecord } from './zip-reader';

export type UploadEntryType = 'file' | 'directory' | 'os_metadata';

/** One member of an upload, in memory. Directories carry no bytes. */
export interface UploadEntry {
  relativePath: string;
  type: UploadEntryType;
  bytes: Buffer;
}

export interface ExtractedUpload {
  container: 'zip' | 'file';
  entries: UploadEntry[];
}

/** Top-level formats we recognise but do not open: a clear 400 beats scanning compressed bytes. */
const OTHER_ARCHIVES: { name: string; test: (b: Buffer) => boolean }[] = [
  { name: 'gzip', test: (b) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b },
  { name: 'bzip2', test: (b) => b.length >= 3 && b.toString('latin1', 0, 3) === 'BZh' },
  { name: 'xz', test: (b) => b.length >= 6 && b.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) },
  { name: '7z', test: (b) => b.length >= 6 && b.subarray(0, 6).equals(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) },
  { name: 'rar', test: (b) => b.length >= 4 && b.toString('latin1', 0, 4) === 'Rar!' },
  { name: 'zstd', test: (b) => b.length >= 4 && b.readUInt32LE(0) === 0xfd2fb528 },
  { name: 'tar', test: (b) => b.length >= 262 && b.toString('latin1', 257, 262) === 'ustar' },
];

/** Zip by content, never by name alone: local header, empty-archive EOCD, or spanned marker. */
export function looksLikeZip(bytes: Buffer): boolean {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return false;
  const sig = bytes.readUInt32LE(0);
  return sig === 0x04034b50 || sig === 0x06054b50 || sig === 0x08074b50;
}

function tooLarge(detail: string): never {
  throw new PayloadTooLargeError(`Upload exceeds a limit: ${detail}.`);
}

function corrupt(label: string, why: string): never {
  throw new BadRequestError(`Upload could not be extracted: entry ${label} ${why}.`);
}

/**
 * Inflates one entry with hard output caps. Declared sizes only decide early rejections; the
 * caps come from the limits, and the real output must then match the declaration and the CRC.
 */
function inflateEntry(buf: Buffer, r: ZipEntryRecord, limits: ScanLimits, usedTotal: number): Buffer {
  const label = quoteName(r.name);
  const data = buf.subarray(r.dataOffset, r.dataOffset + r.compressedSize);
  const remaining = limits.maxTotalBytes - usedTotal;
  const ratioCap = Math.max(limits.ratioFloorBytes, r.compressedSize * limits.maxCompressionRatio);
  const cap = Math.min(limits.maxFileBytes, remaining, ratioCap);

  let out: Buffer;
  if (r.method === METHOD_STORED) {
    out = Buffer.from(data); // own copy: the upload buffer can be released independently
  } else {
    try {
      const res = inflateRawSync(data, { maxOutputLength: Math.max(cap, 1), info: true }) as unknown as {
        buffer: Buffer;
        engine: { bytesWritten: number };
      };
      if (res.engine.bytesWritten !== data.length) corrupt(label, 'has data after the end of its compressed stream');
      out = res.buffer;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        if (cap === limits.maxFileBytes) tooLarge(`entry ${label} inflates to more than ${formatBytes(limits.maxFileBytes)} (limit per file)`);
        if (cap === remaining) tooLarge(`entry ${label} brings the uncompressed total over ${formatBytes(limits.maxTotalBytes)} (limit per upload)`);
        tooLarge(`entry ${label} has a compression ratio above ${limits.maxCompressionRatio}:1 (limit per entry)`);
      }
      if (err instanceof BadRequestError) throw err;
      corrupt(label, 'has corrupt or truncated compressed data');
    }
  }
  if (out.length !== r.uncompressedSize) corrupt(label, `inflates to ${out.length} bytes but declares ${r.uncompressedSize}`);
  if (crc32(out) >>> 0 !== r.crc32) corrupt(label, 'fails its CRC-32 check (corrupt data)');
  return out;
}

function extractZip(bytes: Buffer, limits: ScanLimits): UploadEntry[] {
  const records = readZipDirectory(bytes, limits);
  const typed = records.map((r) => ({
    r,
    type: (isOsMetadataPath(r.name) ? 'os_metadata' : r.isDirectory ? 'directory' : 'file') as UploadEntryType,
  }));

  const files = typed.filter((t) => t.type === 'file');
  if (files.length === 0) throw new BadRequestError('Upload could not be extracted: the zip archive contains no files.');
  if (files.length > limits.maxFiles) {
    tooLarge(`the zip archive holds ${files.length} files; the limit is ${limits.maxFiles} files per upload`);
  }

  // Early rejections from declared sizes (cheap, before any inflation). Inflation re-checks all of it.
  let declaredTotal = 0;
  for (const { r } of typed) {
    const label = quoteName(r.name);
    if (r.uncompressedSize > limits.maxFileBytes) {
      tooLarge(`entry ${label} is ${r.uncompressedSize} bytes uncompressed; the limit is ${formatBytes(limits.maxFileBytes)} per file`);
    }
    if (r.uncompressedSize > limits.ratioFloorBytes && r.uncompressedSize > r.compressedSize * limits.maxCompressionRatio) {
      tooLarge(`entry ${label} has a compression ratio above ${limits.maxCompressionRatio}:1 (limit per entry)`);
    }
    declaredTotal += r.uncompressedSize;
    if (declaredTotal > limits.maxTotalBytes) {
      tooLarge(`entry ${label} brings the uncompressed total over ${formatBytes(limits.maxTotalBytes)} (limit per upload)`);
    }
  }

  let used = 0;
  return typed.map(({ r, type }) => {
    const path = r.isDirectory ? r.name.slice(0, -1) : r.name;
    if (r.isDirectory) return { relativePath: path, type, bytes: Buffer.alloc(0) };
    const out = inflateEntry(bytes, r, limits, used);
    used += out.length;
    return { relativePath: path, type, bytes: out };
  });
}

/**
 * Turns an upload into entries, in memory: a zip (decided by magic bytes) is read strictly; any
 * other content is one file named after the upload. Throws 400 / 413 domain errors.
 */
export function extractUpload(
  upload: { filename?: string | null; bytes: Uint8Array },
  limits: ScanLimits = DEFAULT_SCAN_LIMITS,
): ExtractedUpload {
  const bytes = Buffer.isBuffer(upload.bytes)
    ? upload.bytes
    : Buffer.from(upload.bytes.buffer, upload.bytes.byteOffset, upload.bytes.byteLength);
  if (bytes.length === 0) throw new BadRequestError('Upload is empty.');
  const name = normaliseUploadName(upload.filename);
  if (bytes.length > limits.maxUploadBytes) {
    tooLarge(`upload ${quoteName(name)} is ${bytes.length} bytes; the limit is ${formatBytes(limits.maxUploadBytes)} per upload`);
  }

  if (looksLikeZip(bytes)) return { container: 'zip', entries: extractZip(bytes, limits) };

  const other = OTHER_ARCHIVES.find((a) => a.test(bytes));
  if (other) {
    throw new BadRequestError(`Upload could not be extracted: ${other.name} archives are not supported; upload one file or a .zip bundle.`);
  }
  if (/\.zip$/i.test(name)) {
    throw new BadRequestError(`Upload could not be extracted: ${quoteName(name)} is named .zip but is not a zip archive.`);
  }
  if (bytes.length > limits.maxFileBytes) {
    tooLarge(`file ${quoteName(name)} is ${bytes.length} bytes; the limit is ${formatBytes(limits.maxFileBytes)} per file`);
  }
  return { container: 'file', entries: [{ relativePath: name, type: isOsMetadataPath(name) ? 'os_metadata' : 'file', bytes }] };
}
