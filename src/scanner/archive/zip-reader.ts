import { BadRequestError, PayloadTooLargeError } from '../../common/errors';
import { foldName, quoteName, unsafeZipNameReason } from './entry-name';
import type { ScanLimits } from './scan-limits';

/**
 * A strict, in-memory zip reader. It reads the central directory first, cross-checks every local
 * header against it and proves that no two entries share bytes, all before a single byte is
 * inflated. Anything odd is a 400 with a reason: a scanner must not guess what an archive means.
 * (adm-zip is deliberately not used: it trusts declared sizes and tolerates overlaps.)
 */

const SIG_LOCAL = 0x04034b50;
const SIG_LOCAL_BYTES = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD_BYTES = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_DESCRIPTOR = 0x08074b50;

const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_UTF8 = 0x0800;
const FLAG_MASKED_HEADERS = 0x2000;

export const METHOD_STORED = 0;
export const METHOD_DEFLATE = 8;
const METHOD_AES = 99;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const HOST_UNIX = 3;
const DOS_DIRECTORY = 0x10;

export interface ZipEntryRecord {
  /** Decoded, validated name; directories end with `/`. */
  name: string;
  isDirectory: boolean;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Offset of the compressed bytes inside the archive. */
  dataOffset: number;
}

function fail(detail: string): never {
  throw new BadRequestError(`Upload could not be extracted: ${detail}.`);
}

/** Offset of the end record whose comment ends exactly at the end of the buffer, or -1. */
function locateEocd(buf: Buffer): number {
  if (buf.length < EOCD_SIZE) return -1;
  const lowest = Math.max(0, buf.length - EOCD_SIZE - MAX_COMMENT);
  // The comment length must land exactly on the end of the buffer: trailing bytes are not allowed.
  // A native backwards search: every non-zip upload is probed for an embedded archive.
  for (let i = buf.lastIndexOf(SIG_EOCD_BYTES, buf.length - EOCD_SIZE); i >= lowest; i = i > 0 ? buf.lastIndexOf(SIG_EOCD_BYTES, i - 1) : -1) {
    if (i + EOCD_SIZE + buf.readUInt16LE(i + 20) === buf.length) return i;
  }
  return -1;
}

function findEocd(buf: Buffer): number {
  if (buf.length < EOCD_SIZE) fail('the zip archive is truncated (no end of central directory)');
  const eocd = locateEocd(buf);
  return eocd >= 0 ? eocd : fail('the zip archive is truncated or corrupt (no valid end of central directory record)');
}

const hasZip64Locator = (buf: Buffer, eocd: number): boolean => eocd >= 20 && buf.readUInt32LE(eocd - 20) === SIG_ZIP64_LOCATOR;

/** Where a zip sits inside a buffer that does not start with it (self-extractor stub, polyglot). */
export interface EmbeddedZip {
  /** Bytes before the archive's first local header. */
  prefix: number;
  /** true when offsets count from the buffer start (`zip -A`), false when from the archive start (`cat stub a.zip`). */
  absoluteOffsets: boolean;
}

/**
 * Finds a zip at the end of `buf` the way `unzip` and Python's zipfile do: a strict end record
 * and, right before it, exactly the central records it declares. Only that structure is checked;
 * everything else is left to readZipDirectory so an embedded zip gets the same 400/413 answers.
 * Returns null for a file whose tail merely contains the signature. Linear: the end-record scan is
 * bounded and the walk stays inside the declared central directory.
 */
export function findEmbeddedZip(buf: Buffer): EmbeddedZip | null {
  const eocd = locateEocd(buf);
  if (eocd < 0) return null;
  // ZIP64 end record (56 bytes) + locator (20 bytes) right before the end record: a zip we refuse.
  if (hasZip64Locator(buf, eocd) && eocd >= 76 && buf.readUInt32LE(eocd - 76) === SIG_ZIP64_EOCD) {
    fail('ZIP64 archives are not supported (uploads are at most 1 MB)');
  }
  const totalEntries = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  const cdStart = eocd - cdSize;
  if (totalEntries === 0 || cdStart < 0) return null;

  let firstLocal = Infinity;
  let p = cdStart;
  for (let i = 0; i < totalEntries; i++) {
    if (p + CENTRAL_SIZE > eocd || buf.readUInt32LE(p) !== SIG_CENTRAL) return null;
    firstLocal = Math.min(firstLocal, buf.readUInt32LE(p + 42));
    p += CENTRAL_SIZE + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  if (p !== eocd) return null;

  // A real central directory whose offsets fit neither layout: refuse rather than guess.
  if (cdOffset > cdStart) fail('the central directory size or offset is inconsistent with the archive');
  const embedded = cdOffset < cdStart ? { prefix: cdStart - cdOffset, absoluteOffsets: false } : { prefix: firstLocal, absoluteOffsets: true };
  // A streaming extractor reads from the front and would unpack an entry hidden in the prefix.
  if (buf.subarray(0, embedded.prefix).includes(SIG_LOCAL_BYTES)) {
    fail(`the ${embedded.prefix}-byte prefix before the zip archive holds a local header signature (a hidden entry)`);
  }
  return embedded;
}

function decodeName(bytes: Buffer, flags: number): string {
  const ascii = bytes.every((b) => b < 0x80);
  if (ascii) return bytes.toString('latin1');
  // Many tools write UTF-8 without setting the flag; anything else (CP437 bytes) is refused
  // rather than guessed, so two readers can never disagree on a name.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail(flags & FLAG_UTF8 ? 'an entry name is flagged UTF-8 but is not valid UTF-8' : 'an entry name is neither ASCII nor UTF-8');
  }
}

interface Zip64Values {
  uncompressedSize: number;
  compressedSize: number;
  localOffset: number;
}

/** Walks an extra field; rejects malformed layouts and AES (0x9901) encryption. */
function readExtra(extra: Buffer, label: string, need: { usize: boolean; csize: boolean; offset: boolean }, current: Zip64Values): Zip64Values {
  const out = { ...current };
  let p = 0;
  while (p < extra.length) {
    if (p + 4 > extra.length) fail(`entry ${label} has a malformed extra field`);
    const id = extra.readUInt16LE(p);
    const size = extra.readUInt16LE(p + 2);
    const start = p + 4;
    if (start + size > extra.length) fail(`entry ${label} has a malformed extra field`);
    if (id === 0x9901) fail(`entry ${label} is encrypted (AES); encrypted archives cannot be scanned`);
    if (id === 0x0001) {
      let q = start;
      const take = (): number => {
        if (q + 8 > start + size) fail(`entry ${label} has a malformed ZIP64 extra field`);
        const v = extra.readBigUInt64LE(q);
        q += 8;
        if (v > BigInt(Number.MAX_SAFE_INTEGER)) fail(`entry ${label} declares an impossible size`);
        return Number(v);
      };
      if (need.usize) out.uncompressedSize = take();
      if (need.csize) out.compressedSize = take();
      if (need.offset) out.localOffset = take();
    }
    p = start + size;
  }
  return out;
}

interface CentralRecord extends ZipEntryRecord {
  nameBytes: Buffer;
  flags: number;
  localOffset: number;
  label: string;
}

function readCentralDirectory(buf: Buffer, eocd: number, limits: ScanLimits): { records: CentralRecord[]; cdOffset: number } {
  const diskNumber = buf.readUInt16LE(eocd + 4);
  const cdDisk = buf.readUInt16LE(eocd + 6);
  const entriesOnDisk = buf.readUInt16LE(eocd + 8);
  const totalEntries = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);

  if (hasZip64Locator(buf, eocd)) fail('ZIP64 archives are not supported (uploads are at most 1 MB)');
  if (diskNumber !== 0 || cdDisk !== 0) fail('multi-volume (spanned) zip archives are not supported');
  if (entriesOnDisk !== totalEntries) fail('the entry counts in the end of central directory record disagree');
  if (totalEntries > limits.maxEntries) {
    throw new PayloadTooLargeError(`Upload exceeds a limit: the zip archive lists ${totalEntries} entries; the limit is ${limits.maxEntries} entries.`);
  }
  // No prepended data, no gap, no overlap between the central directory and its end record.
  if (cdOffset + cdSize !== eocd) fail('the central directory size or offset is inconsistent with the archive');

  const records: CentralRecord[] = [];
  let p = cdOffset;
  for (let i = 0; i < totalEntries; i++) {
    if (p + CENTRAL_SIZE > eocd || buf.readUInt32LE(p) !== SIG_CENTRAL) {
      fail('the central directory holds fewer entries than its end record declares');
    }
    const madeBy = buf.readUInt16LE(p + 4);
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc32 = buf.readUInt32LE(p + 16);
    let compressedSize = buf.readUInt32LE(p + 20);
    let uncompressedSize = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const diskStart = buf.readUInt16LE(p + 34);
    const externalAttr = buf.readUInt32LE(p + 38);
    let localOffset = buf.readUInt32LE(p + 42);
    const end = p + CENTRAL_SIZE + nameLen + extraLen + commentLen;
    if (end > eocd) fail('a central directory record runs past the end of the central directory');
    if (nameLen > limits.maxNameBytes) fail(`an entry name is longer than ${limits.maxNameBytes} bytes`);

    const nameBytes = buf.subarray(p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLen);
    const name = decodeName(nameBytes, flags).normalize('NFC');
    const label = quoteName(name);
    const extra = buf.subarray(p + CENTRAL_SIZE + nameLen, p + CENTRAL_SIZE + nameLen + extraLen);
    ({ uncompressedSize, compressedSize, localOffset } = readExtra(
      extra,
      label,
      { usize: uncompressedSize === 0xffffffff, csize: compressedSize === 0xffffffff, offset: localOffset === 0xffffffff },
      { uncompressedSize, compressedSize, localOffset },
    ));

    if (diskStart !== 0) fail(`entry ${label} lives on another volume of a spanned archive`);
    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_HEADERS) || method === METHOD_AES) {
      fail(`entry ${label} is encrypted; encrypted archives cannot be scanned`);
    }
    const reason = unsafeZipNameReason(name);
    if (reason) fail(`entry ${label} ${reason}`);

    const host = madeBy >> 8;
    const mode = host === HOST_UNIX ? externalAttr >>> 16 : 0;
    const type = mode & S_IFMT;
    if (type === S_IFLNK) fail(`entry ${label} is a symbolic link`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) fail(`entry ${label} is a device, pipe or socket, not a regular file`);
    const isDirectory = name.endsWith('/') || type === S_IFDIR || (host !== HOST_UNIX && (externalAttr & DOS_DIRECTORY) !== 0);
    if (isDirectory && !name.endsWith('/')) fail(`entry ${label} is marked as a directory but its name does not end with "/"`);
    if (isDirectory && (uncompressedSize !== 0 || compressedSize > 2)) fail(`directory entry ${label} carries data`);
    if (method !== METHOD_STORED && method !== METHOD_DEFLATE) {
      fail(`entry ${label} uses compression method ${method}; only stored and deflate are supported`);
    }
    if (method === METHOD_STORED && compressedSize !== uncompressedSize) {
      fail(`stored entry ${label} declares different compressed and uncompressed sizes`);
    }

    records.push({
      name,
      label,
      nameBytes,
      flags,
      isDirectory,
      method,
      crc32,
      compressedSize,
      uncompressedSize,
      localOffset,
      dataOffset: -1,
    });
    p = end;
  }
  if (p !== eocd) fail('the central directory holds more data than its end record declares');
  return { records, cdOffset };
}

/** Checks the local header (and data descriptor) of each entry and returns its byte span. */
function verifyLocal(buf: Buffer, r: CentralRecord, cdOffset: number): { start: number; end: number } {
  const p = r.localOffset;
  if (p + LOCAL_SIZE > cdOffset || buf.readUInt32LE(p) !== SIG_LOCAL) {
    fail(`entry ${r.label} points to a missing or corrupt local header`);
  }
  const flags = buf.readUInt16LE(p + 6);
  const method = buf.readUInt16LE(p + 8);
  const crc = buf.readUInt32LE(p + 14);
  let csize = buf.readUInt32LE(p + 18);
  let usize = buf.readUInt32LE(p + 22);
  const nameLen = buf.readUInt16LE(p + 26);
  const extraLen = buf.readUInt16LE(p + 28);
  const dataOffset = p + LOCAL_SIZE + nameLen + extraLen;
  if (dataOffset > cdOffset) fail(`entry ${r.label} has a local header that runs into the central directory`);
  if (!buf.subarray(p + LOCAL_SIZE, p + LOCAL_SIZE + nameLen).equals(r.nameBytes)) {
    fail(`entry ${r.label} has a local header whose name differs from the central directory`);
  }
  const extra = buf.subarray(p + LOCAL_SIZE + nameLen, dataOffset);
  ({ uncompressedSize: usize, compressedSize: csize } = readExtra(
    extra,
    r.label,
    { usize: usize === 0xffffffff, csize: csize === 0xffffffff, offset: false },
    { uncompressedSize: usize, compressedSize: csize, localOffset: 0 },
  ));
  if (method !== r.method) fail(`entry ${r.label} has a local header whose compression method differs from the central directory`);
  if ((flags & FLAG_ENCRYPTED) !== (r.flags & FLAG_ENCRYPTED)) fail(`entry ${r.label} is encrypted; encrypted archives cannot be scanned`);
  const descriptor = (flags & FLAG_DESCRIPTOR) !== 0;
  if (descriptor !== ((r.flags & FLAG_DESCRIPTOR) !== 0)) {
    fail(`entry ${r.label} disagrees with the central directory about its data descriptor`);
  }
  const matches = crc === r.crc32 && csize === r.compressedSize && usize === r.uncompressedSize;
  // With a data descriptor the local fields may be zero (streamed writers); if set, they must agree.
  const zeroed = crc === 0 && csize === 0 && usize === 0;
  if (!matches && !(descriptor && zeroed)) {
    fail(`entry ${r.label} has a local header whose sizes or checksum differ from the central directory`);
  }

  const dataEnd = dataOffset + r.compressedSize;
  if (dataEnd > cdOffset) fail(`entry ${r.label} declares more data than the archive holds (truncated)`);
  let end = dataEnd;
  if (descriptor) {
    const hasSig = dataEnd + 4 <= cdOffset && buf.readUInt32LE(dataEnd) === SIG_DESCRIPTOR;
    const q = hasSig ? dataEnd + 4 : dataEnd;
    if (q + 12 > cdOffset) fail(`entry ${r.label} is missing its data descriptor`);
    const dCrc = buf.readUInt32LE(q);
    const dCsize = buf.readUInt32LE(q + 4);
    const dUsize = buf.readUInt32LE(q + 8);
    if (dCrc !== r.crc32 || dCsize !== r.compressedSize || dUsize !== r.uncompressedSize) {
      fail(`entry ${r.label} has a data descriptor that disagrees with the central directory`);
    }
    end = q + 12;
  }
  r.dataOffset = dataOffset;
  return { start: p, end };
}

/**
 * Parses and validates the structure of a zip held in memory. Throws BadRequestError (400) with a
 * reason for anything unsafe or inconsistent, PayloadTooLargeError (413) for too many records.
 * Nothing is inflated here. `firstEntryOffset` is where entries must begin: 0 for a plain zip, the
 * prefix length for one whose offsets count from the start of a longer buffer (`zip -A`).
 */
export function readZipDirectory(buf: Buffer, limits: ScanLimits, firstEntryOffset = 0): ZipEntryRecord[] {
  const eocd = findEocd(buf);
  const { records, cdOffset } = readCentralDirectory(buf, eocd, limits);

  // Local headers, descriptors and byte spans: entries must not share bytes (defeats the
  // overlapping-entry "non-recursive" zip bomb and parser-differential tricks).
  const spans = records.map((r) => ({ r, ...verifyLocal(buf, r, cdOffset) })).sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i].start < spans[i - 1].end) {
      fail(`entries ${spans[i - 1].r.label} and ${spans[i].r.label} overlap`);
    }
  }
  // Entries must tile the bytes before the central directory: a gap could hide a local header
  // that a streaming extractor would unpack but this reader would never scan.
  let cursor = firstEntryOffset;
  for (const s of spans) {
    if (s.start !== cursor) break;
    cursor = s.end;
  }
  if (cursor !== cdOffset) fail(`the archive holds ${cdOffset - cursor} bytes that belong to no entry`);

  // Duplicates after NFC + case folding, and a name used both as a file and as a directory.
  const seen = new Map<string, string>();
  const fileKeys = new Set<string>();
  for (const r of records) {
    const key = foldName(r.isDirectory ? r.name.slice(0, -1) : r.name);
    const prior = seen.get(key);
    if (prior !== undefined) fail(`entries ${prior} and ${r.label} have the same name (ignoring case and Unicode form)`);
    seen.set(key, r.label);
    if (!r.isDirectory) fileKeys.add(key);
  }
  for (const r of records) {
    const parts = foldName(r.name).split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (fileKeys.has(parent)) fail(`entry ${r.label} lives under a path that is also a file`);
    }
  }

  return records.map(({ name, isDirectory, method, crc32, compressedSize, uncompressedSize, dataOffset }) => ({
    name,
    isDirectory,
    method,
    crc32,
    compressedSize,
    uncompressedSize,
    dataOffset,
  }));
}
