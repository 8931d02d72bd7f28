/**
 * What the upload hides from analysis is itself a finding (docs/decisions/0002-unanalysed-content.md): files that could not or
 * would not be analysed, files under an OS-metadata name whose bytes are something else, a zip
 * behind a prefix, bytes that are not clean text. Severity follows what the skipped content could
 * do: a skipped file another file refers to, or one that looks executable, never leaves the upload
 * at `allow` (docs/decisions/0002-unanalysed-content.md).
 */
import { baseName } from '../archive/entry-name';
import type { UploadEntry } from '../archive/upload-extractor';
import { boundEvidence } from './evidence';
import { isExecutableContent, nameClaimsText, nameLooksExecutable } from './kind-detector';
import { severityRank, type AnalysisFile, type Severity, type SkipReason, type StaticFinding } from './scan-report.types';
import { isControlCode } from './text-decoder';

export interface SkippedEntry {
  entry: UploadEntry;
  reason: SkipReason;
}

type FindingSpec = Pick<StaticFinding, 'rule_id' | 'severity' | 'asset_type' | 'category'> & { what: string };

/** The base finding per skip reason; harmless skips (directory, empty, verified OS metadata) have none. */
const SKIP_FINDING: Partial<Record<SkipReason, FindingSpec>> = {
  nested_archive: { rule_id: 'bundle.nested-archive', severity: 'medium', asset_type: 'hidden_text', category: 'obfuscation', what: 'a nested archive' },
  bytecode: { rule_id: 'bundle.bytecode', severity: 'medium', asset_type: 'script', category: 'obfuscation', what: 'compiled bytecode' },
  binary: { rule_id: 'bundle.opaque-binary', severity: 'low', asset_type: 'script', category: 'obfuscation', what: 'a binary file' },
  undecodable: {
    rule_id: 'bundle.undecodable-file',
    severity: 'low',
    asset_type: 'hidden_text',
    category: 'obfuscation',
    what: 'a file that is not decodable text',
  },
};
const REFERENCED_METADATA: FindingSpec = {
  rule_id: 'bundle.referenced-metadata',
  severity: 'medium',
  asset_type: 'hidden_text',
  category: 'obfuscation',
  what: 'an OS metadata file',
};

const atLeast = (s: Severity, floor: Severity): Severity => (severityRank(s) >= severityRank(floor) ? s : floor);

const NAME_CHAR = /[\w.-]/;

/** `name` occurs in `text` as a whole name (not inside a longer word or path segment). */
function mentions(text: string, name: string): boolean {
  for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + 1)) {
    const before = i === 0 ? '' : text[i - 1]!;
    const after = text[i + name.length] ?? '';
    if (!NAME_CHAR.test(before) && !NAME_CHAR.test(after.replace(/^\.$/, ''))) return true;
  }
  return false;
}

/** The analysed file that names the skipped one (its path, or its base name), or null. */
function referencedBy(path: string, files: readonly AnalysisFile[]): string | null {
  const base = baseName(path);
  for (const f of files) {
    if (f.relativePath !== path && (mentions(f.text, path) || (base.length >= 3 && mentions(f.text, base)))) return f.relativePath;
  }
  return null;
}

/**
 * One finding per skipped file that carries risk, keyed by that file's path and located at
 * `locatorPath` (the primary file, or the skipped file itself when nothing was analysed). Verified
 * OS metadata carries risk only when another file refers to it.
 */
export function skippedFileFindings(
  skipped: readonly SkippedEntry[],
  analysed: readonly AnalysisFile[],
  locatorPath: (s: SkippedEntry) => string,
): Map<string, StaticFinding> {
  const out = new Map<string, StaticFinding>();
  for (const s of skipped) {
    const path = s.entry.relativePath;
    const referrer = s.reason === 'directory' || s.reason === 'empty' ? null : referencedBy(path, analysed);
    const spec = s.reason === 'os_metadata' ? (referrer ? REFERENCED_METADATA : undefined) : SKIP_FINDING[s.reason];
    if (!spec) continue;
    // A native executable, or a binary under a name that says text or code, is a disguise.
    const disguised = isExecutableContent(s.entry.bytes) || (s.reason === 'binary' && nameClaimsText(path));
    const executable = disguised || nameLooksExecutable(path);
    let severity = spec.severity;
    if (referrer || executable) severity = atLeast(severity, 'medium');
    if (disguised) severity = atLeast(severity, 'high');
    const why = [referrer ? `referred to by ${referrer}` : '', executable ? 'executable-looking' : ''].filter(Boolean).join(', ');
    out.set(path, {
      rule_id: spec.rule_id,
      asset_type: spec.asset_type,
      severity,
      confidence: 'high',
      locator: `${locatorPath(s)}:1`,
      evidence: boundEvidence(`${path} (${s.entry.bytes.length} bytes, not analysed: ${s.reason}${why ? `; ${why}` : ''})`),
      category: spec.category,
      message: `The upload ships ${spec.what} whose content could not be analysed${why ? ` (${why})` : ''}.`,
      hard_block: false,
    });
  }
  return out;
}

/** A file under an OS-metadata name whose bytes are not that format: analysed, and reported. */
export function disguisedMetadataFinding(file: AnalysisFile, bytes: Uint8Array): StaticFinding {
  const scriptLike = isExecutableContent(bytes) || nameLooksExecutable(file.relativePath);
  return {
    rule_id: 'bundle.disguised-metadata-name',
    asset_type: scriptLike ? 'script' : 'hidden_text',
    severity: scriptLike ? 'high' : 'medium',
    confidence: 'high',
    locator: `${file.relativePath}:1`,
    evidence: boundEvidence(`${file.relativePath}: named like OS metadata, but its bytes are not that format`),
    category: 'obfuscation',
    message: 'A file hides under an operating-system metadata name that tools and reviewers skip.',
    hard_block: false,
  };
}

/** The upload is a zip behind other bytes: a self-extractor or a polyglot that unzip still opens. */
export function prefixedArchiveFinding(locatorPath: string, prefixBytes: number): StaticFinding {
  return {
    rule_id: 'bundle.prefixed-archive',
    asset_type: 'hidden_text',
    severity: 'medium',
    confidence: 'high',
    locator: `${locatorPath}:1`,
    evidence: boundEvidence(`a zip archive begins after ${prefixBytes} bytes of other content`),
    category: 'obfuscation',
    message: 'The upload is a zip archive hidden behind other content (a self-extractor or polyglot); its entries were analysed.',
    hard_block: false,
  };
}

/** Bytes that are not clean text: invalid sequences, and control characters editors do not show. */
export function encodingFindings(file: AnalysisFile, invalidSequences: number, controlChars: number): StaticFinding[] {
  const out: StaticFinding[] = [];
  const lineOf = (idx: number): number => (idx < 0 ? 1 : file.text.slice(0, idx).split('\n').length);
  if (invalidSequences > 0) {
    out.push({
      rule_id: 'encoding.invalid-sequences',
      asset_type: 'hidden_text',
      severity: 'low',
      confidence: 'medium',
      locator: `${file.relativePath}:${lineOf(file.text.indexOf('\uFFFD'))}`,
      evidence: boundEvidence(`${invalidSequences} invalid byte sequence(s) replaced with U+FFFD`),
      category: 'obfuscation',
      message: 'The file contains byte sequences that are not valid text in its encoding.',
      hard_block: false,
    });
  }
  if (controlChars > 0) {
    let first = 0;
    while (first < file.text.length && !isControlCode(file.text.charCodeAt(first))) first++;
    // A file that is mostly control bytes but named as text was analysed as text on purpose.
    const heavy = controlChars / Math.max(1, file.text.length) > 0.3;
    out.push({
      rule_id: 'encoding.control-characters',
      asset_type: 'hidden_text',
      severity: heavy ? 'medium' : 'low',
      confidence: 'medium',
      locator: `${file.relativePath}:${lineOf(first)}`,
      evidence: boundEvidence(`${controlChars} control character(s) such as NUL that editors do not show`),
      category: 'obfuscation',
      message: 'The file contains control characters (NUL and the like) that hide text from reviewers; they were removed for analysis.',
      hard_block: false,
    });
  }
  return out;
}
