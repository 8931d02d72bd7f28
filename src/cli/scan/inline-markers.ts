import AdmZip from 'adm-zip';
import { DEFAULT_SCAN_LIMITS } from '../../scanner/archive/scan-limits';
import type { PlannedUpload } from './upload-planner';

/**
 * Inline suppression markers inside scanned files ("bulwark-disable", "bulwark:ignore", "nosec",
 * "scanner: skip" …). A scanned file is attacker-controlled, so such a marker never suppresses
 * anything (decision 0012); the CLI lists it instead, in every output format, as a note
 * (not a finding: a scanner rule for it is detection work and is measured on the corpora).
 */

export interface InlineMarker {
  path: string;
  line: number;
  /** The marker as written (bounded). */
  text: string;
}

// Bounded quantifiers only; one pass per line.
const MARKER =
  /\b(?:(?:bulwark|scanner|security[ _-]?scan(?:ner)?|skill[ _-]?scanner|semgrep|snyk)[ \t]{0,2}[:_-]?[ \t]{0,2}(?:ignore|disable|skip|allow|off|suppress)[\w-]{0,20}|nosec)\b/i;
const MAX_LINE = 4000;
const MAX_PER_FILE = 20;

export function findMarkers(path: string, bytes: Buffer): InlineMarker[] {
  if (bytes.includes(0)) return [];
  const out: InlineMarker[] = [];
  const lines = bytes.toString('utf8').split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_PER_FILE; i++) {
    const m = MARKER.exec(lines[i].length > MAX_LINE ? lines[i].slice(0, MAX_LINE) : lines[i]);
    if (m) out.push({ path, line: i + 1, text: m[0].slice(0, 60) });
  }
  return out;
}

/** Markers in everything an upload carries (zip members read within the per-file limit). */
export function markersInUpload(upload: PlannedUpload): InlineMarker[] {
  if (upload.container === 'file') return findMarkers(upload.files[0], upload.bytes);
  const out: InlineMarker[] = [];
  try {
    const zip = new AdmZip(upload.bytes);
    for (const e of zip.getEntries()) {
      if (e.isDirectory || e.header.size > DEFAULT_SCAN_LIMITS.maxFileBytes) continue;
      out.push(...findMarkers(e.entryName, e.getData()));
    }
  } catch {
    // Not a readable zip: the scanner reports that; nothing to list here.
  }
  return out;
}
