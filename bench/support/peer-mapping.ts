/**
 * How each peer's output becomes a band per corpus sample, so every tool is judged by the same
 * corpus measures (../shared/corpus/README.md): malicious recall = share of malicious samples whose
 * worst band ≥ min_band; benign false-positive rate = share of benign samples whose worst band >
 * max_band (default low). Pure functions, unit-tested in peer-mapping.spec.ts.
 *
 * Severity → band (documented in docs/performance.md):
 *   ferret-scan       CRITICAL → critical, HIGH → high, MEDIUM → medium, LOW → low, INFO → info
 *   ecc-agentshield   critical → critical, high → high, medium → medium, low → low, info → info
 *   agent-threat-rules critical → critical, high → high, medium → medium, low → low, informational → info
 *   bulwark           its own band (from the score), the worst over the uploads of the sample
 * A sample's band is the worst over its files' findings; a sample with no finding is `info`.
 */
import { bandRank, worseBand, type Band } from '../../src/scanner/engine/scan-report.types';

export const SEVERITY_TO_BAND: Readonly<Record<string, Band>> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  moderate: 'medium',
  low: 'low',
  info: 'info',
  informational: 'info',
};

export function bandOfSeverity(severity: string): Band {
  const band = SEVERITY_TO_BAND[severity.toLowerCase()];
  if (!band) throw new Error(`no band mapping for severity "${severity}"`);
  return band;
}

/** The sample a reported path belongs to: its first segment in the staging folder (one folder per sample). */
export function sampleOfPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').split('/')[0]!;
}

/** Worst band per sample from (path, band) pairs; samples never mentioned stay absent (= info). */
export function bandsBySample(hits: Iterable<{ path: string; band: Band }>): Map<string, Band> {
  const out = new Map<string, Band>();
  for (const h of hits) {
    const id = sampleOfPath(h.path);
    out.set(id, worseBand(out.get(id) ?? 'info', h.band));
  }
  return out;
}

export interface LabelledSample {
  id: string;
  label: 'benign' | 'suspicious' | 'malicious';
  min_band: Band | null;
  max_band?: Band;
}

export interface Detection {
  malicious_recall: number;
  malicious_hits: number;
  malicious_total: number;
  benign_fpr: number;
  benign_fps: number;
  benign_total: number;
}

export function detection(samples: readonly LabelledSample[], bands: ReadonlyMap<string, Band>): Detection {
  let mh = 0;
  let mt = 0;
  let bf = 0;
  let bt = 0;
  for (const s of samples) {
    const band = bands.get(s.id) ?? 'info';
    if (s.label === 'malicious') {
      mt++;
      if (bandRank(band) >= bandRank(s.min_band ?? 'medium')) mh++;
    } else if (s.label === 'benign') {
      bt++;
      if (bandRank(band) > bandRank(s.max_band ?? 'low')) bf++;
    }
  }
  const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 1000) / 10);
  return { malicious_recall: pct(mh, mt), malicious_hits: mh, malicious_total: mt, benign_fpr: pct(bf, bt), benign_fps: bf, benign_total: bt };
}
