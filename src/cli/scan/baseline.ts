import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, EXIT_CONFIG } from '../cli-io';
import type { TriagedFinding } from './triage';

/**
 * `--write-baseline <file>` records the run's findings (except those the config already
 * suppresses) by fingerprint; `--baseline <file>` then marks those as accepted, so only new
 * findings count. The fingerprint (triage.ts) hashes rule id, path, whitespace-normalised
 * evidence and an occurrence index: moving lines or re-indenting keeps it; changing the
 * offending text, renaming the file or adding another copy of the same finding makes a new one.
 */

export const BASELINE_VERSION = 1;

export interface Baseline {
  source: string;
  fingerprints: string[];
}

interface BaselineFile {
  bulwark_baseline: number;
  findings: { fingerprint: string; rule_id: string; path: string; line: number; severity: string; message: string }[];
}

export function readBaseline(cwd: string, file: string): Baseline {
  let raw: string;
  try {
    raw = readFileSync(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new CliError(`Baseline ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); create it with --write-baseline`, EXIT_CONFIG);
  }
  let doc: BaselineFile;
  try {
    doc = JSON.parse(raw) as BaselineFile;
  } catch {
    throw new CliError(`Baseline ${file} is not JSON; create it with --write-baseline`, EXIT_CONFIG);
  }
  if (!doc || doc.bulwark_baseline !== BASELINE_VERSION || !Array.isArray(doc.findings) || doc.findings.some((f) => typeof f?.fingerprint !== 'string')) {
    throw new CliError(`Baseline ${file} is not a Bulwark baseline (version ${BASELINE_VERSION}); create it with --write-baseline`, EXIT_CONFIG);
  }
  return { source: file, fingerprints: doc.findings.map((f) => f.fingerprint) };
}

/** Writes every finding the config does not suppress; returns the baseline as this run applies it. */
export function writeBaseline(cwd: string, file: string, findings: TriagedFinding[]): Baseline {
  const kept = findings.filter((f) => !f.suppressed || f.suppressed.kind === 'baseline');
  const doc: BaselineFile = {
    bulwark_baseline: BASELINE_VERSION,
    findings: kept
      .map((f) => ({
        fingerprint: f.fingerprint,
        rule_id: f.rule_id,
        path: f.path,
        line: f.line,
        severity: f.original_severity ?? f.severity,
        message: f.message,
      }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.fingerprint < b.fingerprint ? -1 : 1))),
  };
  try {
    writeFileSync(resolve(cwd, file), `${JSON.stringify(doc, null, 2)}\n`);
  } catch (err) {
    throw new CliError(`Cannot write the baseline ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, EXIT_CONFIG);
  }
  return { source: file, fingerprints: doc.findings.map((f) => f.fingerprint) };
}
