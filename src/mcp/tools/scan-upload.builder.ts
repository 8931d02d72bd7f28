import { PayloadTooLargeError, ValidationFailedError } from '../../common/errors';
import { quoteName } from '../../scanner/archive/entry-name';
import { DEFAULT_SCAN_LIMITS } from '../../scanner/archive/scan-limits';
import type { ScanUpload } from '../../scanner/scanner.service';
import { storedZip } from './stored-zip';

export interface InlineAgentFile {
  path: string;
  content: string;
}

export interface ScanToolInput {
  files?: InlineAgentFile[];
  zip_base64?: string;
  filename?: string;
}

/** Name of the upload when several inline files are bundled (appears only in limit messages). */
export const INLINE_BUNDLE_NAME = 'upload.zip';
const DEFAULT_ZIP_NAME = 'upload.zip';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const invalid = (loc: (string | number)[], msg: string, type: string): ValidationFailedError =>
  new ValidationFailedError([{ loc: ['arguments', ...loc], msg, type }]);

/**
 * Turns the arguments of `scan_agent_files` into exactly the upload the REST endpoint would get
 * (docs/scanner-pipeline.md "Upload"): one inline file is uploaded under its path, several are zipped
 * under their paths, a base64 zip is uploaded as is. Limits are then enforced by the same scanner
 * code as for REST, so both surfaces answer the same report and the same 413 wording.
 */
export function buildScanUpload(input: ScanToolInput, maxFiles = DEFAULT_SCAN_LIMITS.maxFiles): ScanUpload {
  const hasFiles = input.files !== undefined;
  const hasZip = input.zip_base64 !== undefined;
  if (hasFiles === hasZip) {
    throw invalid([], 'send exactly one of `files` (inline files) or `zip_base64` (a base64-encoded .zip)', 'value_error.exactly_one');
  }
  if (hasZip) {
    const text = input.zip_base64!.replace(/\s+/g, '');
    if (!BASE64.test(text)) throw invalid(['zip_base64'], 'not valid base64', 'value_error.base64');
    return { filename: input.filename ?? DEFAULT_ZIP_NAME, bytes: Buffer.from(text, 'base64') };
  }
  const files = input.files!;
  if (files.length === 0) throw invalid(['files'], 'at least one file is required', 'value_error.missing');
  if (files.length > maxFiles) {
    throw new PayloadTooLargeError(
      `Upload exceeds a limit: ${files.length} files were sent; the limit is ${maxFiles} files per upload (the first file over it is ${quoteName(files[maxFiles]!.path)}).`,
    );
  }
  const seen = new Set<string>();
  files.forEach((f, i) => {
    if (seen.has(f.path)) throw invalid(['files', i, 'path'], `duplicate path ${JSON.stringify(f.path)}`, 'value_error.duplicate');
    seen.add(f.path);
  });
  if (files.length === 1) return { filename: files[0]!.path, bytes: Buffer.from(files[0]!.content, 'utf8') };
  return { filename: INLINE_BUNDLE_NAME, bytes: storedZip(files.map((f) => ({ name: f.path, bytes: Buffer.from(f.content, 'utf8') }))) };
}
