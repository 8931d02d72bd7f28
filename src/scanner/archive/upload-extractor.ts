import { crc32, inflateRawSync } from 'node:zlib';
import { BadRequestError, PayloadTooLargeError } from '../../common/errors';
import { foldName, normaliseUploadName, quoteName } from './entry-name';
import { hasOsMetadataName, osMetadataVerdict } from './os-metadata';
import { DEFAULT_SCAN_LIMITS, formatBytes, type ScanLimits } from './scan-limits';
import { findEmbeddedZip, METHOD_STORED, readZipDirectory, type EmbeddedZip, type ZipEntryRecord } from './zip-reader';

export type UploadEntryType = 'file' | 'directory' | 'os_metadata';

/** One member of an upload, in memory. Directories carry no bytes. */
export interface UploadEntry {
  relativePath: string;
  type: UploadEntryType;
  bytes: Buffer;
  /** The name is an OS-metadata name (`._x`, `.DS_Store`, …) but the bytes are not that format: a disguise. */
  metadataName?: true;
}

export interface ExtractedUpload {
  container: 'zip' | 'file';
  entries: UploadEntry[];
  /** Set when the zip sat behind this many bytes of something else (stub, polyglot); they are the first entry. */
  prefixBytes?: number;
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

/** A file's entry: OS metadata only when the bytes are what the name claims. */
function fileEntry(relativePath: string, bytes: Buffer): UploadEntry {
  const verdict = osMetadataVerdict(relativePath, bytes);
  if (verdict === 'metadata') return { relativePath, type: 'os_metadata', bytes };
  return verdict === 'disguised' ? { relativePath, type: 'file', bytes, metadataName: true } : { relativePath, type: 'file', bytes };
}

/** Files in entry order; over the limit, the 413 names the first file past it. */
function checkFileCount(fileNames: readonly string[], limits: ScanLimits): void {
  if (fileNames.length > limits.maxFiles) {
    tooLarge(
      `the zip archive holds ${fileNames.length} files; the limit is ${limits.maxFiles} files per upload (the first file over it is ${quoteName(fileNames[limits.maxFiles]!)})`,
    );
  }
}

/** The bytes in front of an embedded zip, as an entry named after the upload (unless a zip entry has that path). */
interface PrefixEntrySource {
  uploadName: string;
  bytes: Buffer;
}

function prefixEntryName(uploadName: string, records: ZipEntryRecord[]): string {
  const taken = new Set<string>();
  for (const r of records) {
    const parts = foldName(r.isDirectory ? r.name.slice(0, -1) : r.name).split('/');
    for (let i = 1; i <= parts.length; i++) taken.add(parts.slice(0, i).join('/'));
  }
  let name = uploadName;
  while (taken.has(foldName(name))) name = `${name}.prefix`;
  return name;
}

/**
 * Reads, inflates and types every entry. Metadata is told from files by its bytes, so the file
 * limit is checked twice: cheaply on names that cannot be metadata, then on the final types.
 */
function extractZip(archive: Buffer, limits: ScanLimits, firstEntryOffset = 0, prefix?: PrefixEntrySource): UploadEntry[] {
  const records = readZipDirectory(archive, limits, firstEntryOffset);
  const leading = prefix ? [{ name: prefixEntryName(prefix.uploadName, records), bytes: Buffer.from(prefix.bytes) }] : [];
  const candidateNames = [...leading.map((l) => l.name), ...records.filter((r) => !r.isDirectory).map((r) => r.name)];
  if (candidateNames.length === 0) throw new BadRequestError('Upload could not be extracted: the zip archive contains no files.');
  checkFileCount(
    candidateNames.filter((n) => !hasOsMetadataName(n)),
    limits,
  );

  // Early rejections from declared sizes (cheap, before any inflation). Inflation re-checks all of it.
  let declaredTotal = 0;
  for (const l of leading) {
    if (l.bytes.length > limits.maxFileBytes) {
      tooLarge(
        `the prefix before the zip archive (entry ${quoteName(l.name)}) is ${l.bytes.length} bytes; the limit is ${formatBytes(limits.maxFileBytes)} per file`,
      );
    }
    declaredTotal += l.bytes.length;
  }
  for (const r of records) {
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

  const entries = leading.map((l) => fileEntry(l.name, l.bytes));
  let used = entries.reduce((sum, e) => sum + e.bytes.length, 0);
  for (const r of records) {
    if (r.isDirectory) {
      entries.push({ relativePath: r.name.slice(0, -1), type: 'directory', bytes: Buffer.alloc(0) });
      continue;
    }
    const out = inflateEntry(archive, r, limits, used);
    used += out.length;
    entries.push(fileEntry(r.name, out));
  }

  const files = entries.filter((e) => e.type === 'file').map((e) => e.relativePath);
  if (files.length === 0) throw new BadRequestError('Upload could not be extracted: the zip archive contains no files.');
  checkFileCount(files, limits);
  return entries;
}

/** A zip behind a prefix: the same strict reader and limits, with the prefix as the first entry. */
function extractEmbeddedZip(bytes: Buffer, embedded: EmbeddedZip, uploadName: string, limits: ScanLimits): ExtractedUpload {
  const prefix = { uploadName, bytes: bytes.subarray(0, embedded.prefix) };
  const entries = embedded.absoluteOffsets
    ? extractZip(bytes, limits, embedded.prefix, prefix)
    : extractZip(bytes.subarray(embedded.prefix), limits, 0, prefix);
  return { container: 'zip', entries, prefixBytes: embedded.prefix };
}

/**
 * Turns an upload into entries, in memory: a zip (decided by magic bytes, or by a valid zip at the
 * end of the bytes) is read strictly; any other content is one file named after the upload.
 * Throws 400 / 413 domain errors.
 */
export function extractUpload(upload: { filename?: string | null; bytes: Uint8Array }, limits: ScanLimits = DEFAULT_SCAN_LIMITS): ExtractedUpload {
  const bytes = Buffer.isBuffer(upload.bytes) ? upload.bytes : Buffer.from(upload.bytes.buffer, upload.bytes.byteOffset, upload.bytes.byteLength);
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
  // `unzip` opens a zip behind any prefix (self-extractor stub, polyglot), so we must too.
  const embedded = findEmbeddedZip(bytes);
  if (embedded) return extractEmbeddedZip(bytes, embedded, name, limits);
  if (/\.zip$/i.test(name)) {
    throw new BadRequestError(`Upload could not be extracted: ${quoteName(name)} is named .zip but is not a zip archive.`);
  }
  if (bytes.length > limits.maxFileBytes) {
    tooLarge(`file ${quoteName(name)} is ${bytes.length} bytes; the limit is ${formatBytes(limits.maxFileBytes)} per file`);
  }
  return { container: 'file', entries: [fileEntry(name, bytes)] };
}
