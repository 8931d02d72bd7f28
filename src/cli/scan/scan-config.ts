import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { SEVERITIES, type Severity } from '../../scanner/engine/scan-report.types';
import { CliError, EXIT_CONFIG } from '../cli-io';
import { compileGlob, type PathGlob } from './path-glob';

/**
 * The scanning user's suppressions (decision 0012): `.bulwark.yaml` in the working folder, or the
 * file given with `--config`. Never read from inside a scanned folder, never from a scanned file:
 * what is scanned may be third-party content and must not be able to silence its own findings.
 *
 * ```yaml
 * version: 1
 * rules:
 *   BW-EXF-002:
 *     disable: true                 # or: severity: low
 *     paths: [docs/**]              # optional: only there
 *     reason: Image links in our docs point at our own CDN.
 * ignore:
 *   - path: test/fixtures/**
 *     reason: Attack samples for our own tests.
 * ```
 * Every entry needs a non-empty `reason`; unknown keys are errors (a typo must not silently do nothing).
 */

export const CONFIG_FILE_NAMES = ['.bulwark.yaml', '.bulwark.yml'] as const;

export class ConfigError extends CliError {
  constructor(source: string, message: string) {
    super(`Config error in ${source}: ${message}`, EXIT_CONFIG);
    this.name = 'ConfigError';
  }
}

export interface RuleSetting {
  ruleId: string;
  disable: boolean;
  severity: Severity | null;
  paths: PathGlob[] | null;
  reason: string;
}

export interface PathIgnore {
  glob: PathGlob;
  reason: string;
}

export interface ScanConfig {
  /** Where it came from, as shown to the user (relative to the working folder when inside it). */
  source: string;
  rules: RuleSetting[];
  ignore: PathIgnore[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkKeys(o: Obj, allowed: string[], where: string, source: string): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw new ConfigError(source, `${where}: unknown key "${k}" (allowed: ${allowed.join(', ')})`);
}

function reasonOf(o: Obj, where: string, source: string): string {
  const r = o.reason;
  if (typeof r !== 'string' || r.trim() === '')
    throw new ConfigError(source, `${where}: "reason" is required (say why this is accepted; it is shown wherever the suppression applies)`);
  return r.trim();
}

function globsOf(v: unknown, where: string, source: string): PathGlob[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0) throw new ConfigError(source, `${where}: "paths" must be a glob or a non-empty list of globs`);
  return list.map((g) => {
    try {
      return compileGlob(g as string);
    } catch (err) {
      throw new ConfigError(source, `${where}: ${(err as Error).message}`);
    }
  });
}

export function parseScanConfig(text: string, source: string): ScanConfig {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) throw new ConfigError(source, `not valid YAML: ${doc.errors[0].message.split('\n')[0]}`);
  const root: unknown = doc.toJS() ?? {};
  if (!isObj(root)) throw new ConfigError(source, 'the top level must be a mapping (rules:, ignore:)');
  checkKeys(root, ['version', 'rules', 'ignore'], 'top level', source);
  if (root.version !== undefined && root.version !== 1) throw new ConfigError(source, `version must be 1; got ${JSON.stringify(root.version)}`);

  const rules: RuleSetting[] = [];
  if (root.rules !== undefined && root.rules !== null) {
    if (!isObj(root.rules)) throw new ConfigError(source, '"rules" must map rule ids to settings, e.g. `BW-EXF-002: {disable: true, reason: …}`');
    for (const [ruleId, raw] of Object.entries(root.rules)) {
      const where = `rules.${ruleId}`;
      if (!isObj(raw)) throw new ConfigError(source, `${where}: must be a mapping with "disable" or "severity", and "reason"`);
      checkKeys(raw, ['disable', 'severity', 'paths', 'reason'], where, source);
      const reason = reasonOf(raw, where, source);
      if (raw.disable !== undefined && typeof raw.disable !== 'boolean') throw new ConfigError(source, `${where}: "disable" must be true or false`);
      const disable = raw.disable === true;
      let severity: Severity | null = null;
      if (raw.severity !== undefined) {
        if (!SEVERITIES.includes(raw.severity as Severity)) throw new ConfigError(source, `${where}: "severity" must be one of ${SEVERITIES.join('|')}`);
        severity = raw.severity as Severity;
      }
      if (disable && severity) throw new ConfigError(source, `${where}: give either "disable: true" or "severity", not both`);
      if (!disable && !severity) throw new ConfigError(source, `${where}: nothing to do; give "disable: true" or "severity: <level>"`);
      const paths = raw.paths === undefined ? null : globsOf(raw.paths, where, source);
      rules.push({ ruleId, disable, severity, paths, reason });
    }
  }

  const ignore: PathIgnore[] = [];
  if (root.ignore !== undefined && root.ignore !== null) {
    if (!Array.isArray(root.ignore)) throw new ConfigError(source, '"ignore" must be a list of {path, reason}');
    root.ignore.forEach((raw: unknown, i) => {
      const where = `ignore[${i}]`;
      if (!isObj(raw)) throw new ConfigError(source, `${where}: must be a mapping {path, reason}`);
      checkKeys(raw, ['path', 'reason'], where, source);
      const reason = reasonOf(raw, where, source);
      if (typeof raw.path !== 'string') throw new ConfigError(source, `${where}: "path" must be one glob (add one entry per glob)`);
      const [glob] = globsOf(raw.path, where, source);
      ignore.push({ glob, reason });
    });
  }
  return { source, rules, ignore };
}

/**
 * `--config <file>` (must exist), else `.bulwark.yaml` / `.bulwark.yml` in the working folder,
 * else no config. Path globs are relative to the working folder, like the report's paths.
 */
export function loadScanConfig(cwd: string, flag: string | undefined): ScanConfig | null {
  let path: string;
  let shown: string;
  if (flag !== undefined) {
    path = resolve(cwd, flag);
    shown = flag;
    if (!existsSync(path)) throw new ConfigError(flag, 'no such file');
  } else {
    const name = CONFIG_FILE_NAMES.find((n) => existsSync(join(cwd, n)));
    if (!name) return null;
    path = join(cwd, name);
    shown = name;
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(shown, `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseScanConfig(text, shown);
}
