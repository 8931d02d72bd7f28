/** Magic numbers that identify a file format by its first bytes; one place for the archive reader and the kind detector. */

/** `sig` appears in `bytes` at offset `at`. */
export const hasSignature = (bytes: Uint8Array, sig: readonly number[], at = 0): boolean =>
  bytes.length >= at + sig.length && sig.every((v, i) => bytes[at + i] === v);

export const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

export const GZIP_MAGIC: readonly number[] = [0x1f, 0x8b];
/** OLE compound file (Thumbs.db, legacy Office documents). */
export const OLE_MAGIC: readonly number[] = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
