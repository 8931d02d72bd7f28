/**
 * Reads a corpus folder in the format of ../shared/corpus (manifest.jsonl + samples/<id>/…) and
 * turns each sample into the upload the endpoint would receive: a single file with its relative
 * path as the file name, or a zip of the sample folder's contents for bundles.
 */
import AdmZip from 'adm-zip';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BANDS, type Band, type RiskCategory } from '../engine/scan-report.types';

export const SAMPLE_LABELS = ['benign', 'suspicious', 'malicious'] as const;
export type SampleLabel = (typeof SAMPLE_LABELS)[number];

/** The coarse `kind` values of the corpus manifest format (../shared/corpus/README.md), for per-kind breakdowns. */
export const SAMPLE_KINDS = [
  'skill',
  'skill_bundle',
  'bundle',
  'agents_md',
  'claude_md',
  'cursor_rules',
  'windsurf_rules',
  'copilot_instructions',
  'mcp_config',
  'mcp_tool_descriptions',
  'mcp_server_source',
  'script',
  'claude_settings',
  'agent_definition',
  'slash_command',
  'agent_prompt',
] as const;

export interface CorpusSample {
  id: string;
  files: string[];
  label: SampleLabel;
  categories: RiskCategory[];
  min_band: Band | null;
  max_band?: Band;
  kind: string;
  source: string;
  malicious_files?: string[];
  tags?: string[];
  /** Grouping key: the technique family (red-team set) or the source repository (corpus-wild). */
  family?: string;
  notes?: string;
}

export interface SampleUpload {
  filename: string;
  bytes: Uint8Array;
  /** Total bytes of the sample's files (throughput is measured over these). */
  contentBytes: number;
}

export function loadManifest(corpusDir: string): CorpusSample[] {
  const path = join(corpusDir, 'manifest.jsonl');
  if (!existsSync(path)) throw new Error(`No manifest.jsonl in ${corpusDir}`);
  const samples: CorpusSample[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const s = JSON.parse(line) as CorpusSample;
    if (!s.id || !Array.isArray(s.files) || s.files.length === 0) throw new Error(`Bad manifest entry: ${line.slice(0, 80)}`);
    if (s.min_band && !BANDS.includes(s.min_band)) throw new Error(`Bad min_band in ${s.id}`);
    samples.push({ ...s, categories: s.categories ?? [] });
  }
  return samples;
}

export function buildUpload(corpusDir: string, sample: CorpusSample): SampleUpload {
  const dir = join(corpusDir, 'samples', sample.id);
  const contents = sample.files.map((f) => ({ name: f, data: readFileSync(join(dir, f)) }));
  const contentBytes = contents.reduce((n, c) => n + c.data.length, 0);
  if (contents.length === 1) {
    return { filename: contents[0].name, bytes: new Uint8Array(contents[0].data), contentBytes };
  }
  const zip = new AdmZip();
  for (const c of contents) zip.addFile(c.name, c.data);
  return { filename: `${sample.id}.zip`, bytes: new Uint8Array(zip.toBuffer()), contentBytes };
}
