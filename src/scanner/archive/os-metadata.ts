import { GZIP_MAGIC, hasSignature, OLE_MAGIC } from './byte-signatures';

/**
 * macOS / Windows droppings are skipped only when their bytes are what their name claims: the
 * name is attacker-controlled, so a name alone never removes content from analysis. One rule for
 * zip entries, single-file uploads and the CLI's folder walk.
 */

/** `metadata`: skip it. `disguised`: a metadata name over other bytes (analyse, and report it). */
export type OsMetadataVerdict = 'metadata' | 'disguised' | 'not_metadata';

type ClaimedFormat = 'apple_double' | 'ds_store' | 'thumbs_db' | 'desktop_ini' | 'volume_store';

/** Folders macOS keeps on volumes; their files are binary stores or gzip logs. */
const VOLUME_FOLDERS = new Set(['.spotlight-v100', '.trashes', '.fseventsd']);

/** Names compare without case: on case-insensitive file systems `THUMBS.DB` is that same file. */
function claimedFormat(path: string): ClaimedFormat | null {
  const segments = path
    .toLowerCase()
    .split('/')
    .filter((s) => s !== '');
  const base = segments[segments.length - 1] ?? '';
  if (base.startsWith('._') || segments.slice(0, -1).includes('__macosx')) return 'apple_double';
  if (base === '.ds_store') return 'ds_store';
  if (base === 'thumbs.db') return 'thumbs_db';
  if (base === 'desktop.ini') return 'desktop_ini';
  if (segments.slice(0, -1).some((s) => VOLUME_FOLDERS.has(s))) return 'volume_store';
  return null;
}

/**
 * A folder only an OS writes (`__MACOSX`, `.Spotlight-V100`, `.Trashes`, `.fseventsd`, or one inside
 * them). Safe to decide by name: a directory entry carries no bytes; the files in it are still
 * judged by their bytes (osMetadataVerdict).
 */
export function isOsMetadataFolder(path: string): boolean {
  return path
    .toLowerCase()
    .split('/')
    .some((s) => s === '__macosx' || VOLUME_FOLDERS.has(s));
}

/** True when the name claims an OS metadata format (the bytes still decide; see osMetadataVerdict). */
export function hasOsMetadataName(path: string): boolean {
  return claimedFormat(path) !== null;
}

const APPLE_DOUBLE_MAGIC = 0x00051607;
const APPLE_DOUBLE_VERSION = 0x00020000;
const APPLE_DOUBLE_HEADER = 26;
const APPLE_DOUBLE_DESCRIPTOR = 12;

/** Magic, version, 16 filler bytes (macOS writes "Mac OS X"), n descriptors whose entries lie in the file. */
function isAppleDouble(b: Buffer): boolean {
  if (b.length < APPLE_DOUBLE_HEADER) return false;
  if (b.readUInt32BE(0) !== APPLE_DOUBLE_MAGIC || b.readUInt32BE(4) !== APPLE_DOUBLE_VERSION) return false;
  const count = b.readUInt16BE(24);
  const headerEnd = APPLE_DOUBLE_HEADER + count * APPLE_DOUBLE_DESCRIPTOR;
  if (headerEnd > b.length) return false;
  for (let p = APPLE_DOUBLE_HEADER; p < headerEnd; p += APPLE_DOUBLE_DESCRIPTOR) {
    const offset = b.readUInt32BE(p + 4);
    const length = b.readUInt32BE(p + 8);
    if (offset + length > b.length) return false;
  }
  return true;
}

const DS_STORE_MAGIC = [0x00, 0x00, 0x00, 0x01, 0x42, 0x75, 0x64, 0x31]; // "\0\0\0\1Bud1"

const DESKTOP_INI_MAX_BYTES = 4 * 1024;
const EXPLORER_SECTIONS = new Set(['.shellclassinfo', 'viewstate', 'localizedfilenames', 'deleteoncopy']);
const GUID_SECTION = /^\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/i;
/**
 * Keys and values must be single inert tokens: a space would let `sh desktop.ini` run the next
 * word as a command, and `` ` $ | ; & < > ( ) ' " `` are shell syntax. Real files whose values
 * hold spaces (InfoTip, "Program Files" paths) are therefore analysed, which costs nothing.
 */
const INERT_KEY_VALUE = /^[\w.-]+=[^\s`$|;&<>()'"]*$/;
// Controls other than tab; CR and LF are line breaks and never reach a line.
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function decodeIni(b: Buffer): string | null {
  try {
    if (hasSignature(b, [0xff, 0xfe])) return new TextDecoder('utf-16le', { fatal: true }).decode(b.subarray(2));
    return new TextDecoder('utf-8', { fatal: true }).decode(b); // strips a UTF-8 BOM
  } catch {
    return null;
  }
}

/**
 * A Windows Explorer `desktop.ini`: at most 4 KB, UTF-8/ASCII or UTF-16LE with BOM, and every
 * non-blank line is a `;` comment, an Explorer section (`.ShellClassInfo`, `ViewState`,
 * `LocalizedFileNames`, `DeleteOnCopy`, `{GUID}`) or an inert `Key=Value` (see INERT_KEY_VALUE).
 */
function isExplorerIni(b: Buffer): boolean {
  if (b.length > DESKTOP_INI_MAX_BYTES) return false;
  const text = decodeIni(b);
  if (text === null) return false;
  return text.split(/\r\n|\r|\n/).every((raw) => {
    const line = raw.trim();
    if (line === '') return true;
    if (CONTROL_CHARS.test(line)) return false;
    if (line.startsWith(';')) return true;
    if (line.startsWith('[') && line.endsWith(']')) {
      const section = line.slice(1, -1);
      return EXPLORER_SECTIONS.has(section.toLowerCase()) || GUID_SECTION.test(section);
    }
    return INERT_KEY_VALUE.test(line);
  });
}

/** Spotlight stores and fsevents logs are binary or gzip; text in those folders is analysed. */
const isBinaryStore = (b: Buffer): boolean => hasSignature(b, GZIP_MAGIC) || b.includes(0);

const FORMAT_CHECKS: Record<ClaimedFormat, (b: Buffer) => boolean> = {
  apple_double: isAppleDouble,
  ds_store: (b) => hasSignature(b, DS_STORE_MAGIC),
  thumbs_db: (b) => hasSignature(b, OLE_MAGIC),
  desktop_ini: isExplorerIni,
  volume_store: isBinaryStore,
};

/**
 * Is this file OS metadata? `path` is `/`-separated (a zip entry or upload name, or a path
 * relative to a walked folder); `bytes` are the whole file. Linear in the bytes.
 */
export function osMetadataVerdict(path: string, bytes: Buffer): OsMetadataVerdict {
  const format = claimedFormat(path);
  if (format === null) return 'not_metadata';
  return FORMAT_CHECKS[format](bytes) ? 'metadata' : 'disguised';
}
