/**
 * Measures of corpus/README.md: malicious recall (worst_band ≥ min_band), recall at ≥ high,
 * benign false-positive rate (worst_band > max_band, default low), suspicious detection, category
 * recall (expected categories named by static or judge findings), bundle attribution.
 */
import { BANDS, type Band, type RiskCategory, type ScanReport } from '../engine/scan-report.types';
import type { CorpusSample } from './corpus-loader';

export interface SampleOutcome {
  sample: CorpusSample;
  report: ScanReport | null;
  error?: string;
  ms: number;
  worstBand: Band | null;
  categoriesFound: RiskCategory[];
  worstFiles: string[];
}

export interface RateCell {
  hit: number;
  total: number;
}

export interface EvalResult {
  samples: number;
  malicious_recall: number;
  malicious_recall_high: number;
  benign_fpr: number;
  suspicious_recall: number;
  category_recall: number;
  attribution: number;
  ms_per_sample: number;
  mb_per_s: number;
  errors: string[];
  misses: string[];
  suspicious_misses: string[];
  false_positives: string[];
  category_misses: string[];
  attribution_misses: string[];
  per_kind: Record<string, { malicious: RateCell; suspicious: RateCell; benign_fp: RateCell }>;
  per_category: Record<string, RateCell>;
  per_origin: Record<string, { malicious: RateCell; benign_fp: RateCell }>;
}

const rank = (b: Band | null): number => (b ? BANDS.indexOf(b) : -1);
const rate = (c: RateCell): number => (c.total === 0 ? 1 : c.hit / c.total);
const round = (x: number): number => Math.round(x * 10000) / 10000;

export function outcomeOf(sample: CorpusSample, report: ScanReport | null, ms: number, error?: string): SampleOutcome {
  const cats = new Set<RiskCategory>();
  let worstScore = Infinity;
  let worstFiles: string[] = [];
  for (const f of report?.files ?? []) {
    for (const s of f.static_findings) if (s.category) cats.add(s.category);
    for (const j of f.llm_findings) cats.add(j.category);
    if (f.score === null) continue;
    if (f.score < worstScore) {
      worstScore = f.score;
      worstFiles = [f.relative_path];
    } else if (f.score === worstScore) worstFiles.push(f.relative_path);
  }
  return { sample, report, error, ms, worstBand: report?.summary.worst_band ?? null, categoriesFound: [...cats], worstFiles };
}

export function computeMetrics(outcomes: readonly SampleOutcome[], totalMs: number, totalBytes: number): EvalResult {
  const mal: RateCell = { hit: 0, total: 0 };
  const malHigh: RateCell = { hit: 0, total: 0 };
  const sus: RateCell = { hit: 0, total: 0 };
  const fp: RateCell = { hit: 0, total: 0 };
  const cat: RateCell = { hit: 0, total: 0 };
  const attr: RateCell = { hit: 0, total: 0 };
  const r: EvalResult = {
    samples: outcomes.length, malicious_recall: 0, malicious_recall_high: 0, benign_fpr: 0, suspicious_recall: 0,
    category_recall: 0, attribution: 0, ms_per_sample: 0, mb_per_s: 0, errors: [], misses: [], suspicious_misses: [],
    false_positives: [], category_misses: [], attribution_misses: [], per_kind: {}, per_category: {}, per_origin: {},
  };
  for (const o of outcomes) {
    const s = o.sample;
    if (o.error) r.errors.push(`${s.id}: ${o.error}`);
    const kind = (r.per_kind[s.kind] ??= { malicious: { hit: 0, total: 0 }, suspicious: { hit: 0, total: 0 }, benign_fp: { hit: 0, total: 0 } });
    const origin = (r.per_origin[s.source === 'authored' ? 'authored' : 'public'] ??= { malicious: { hit: 0, total: 0 }, benign_fp: { hit: 0, total: 0 } });
    const worst = rank(o.worstBand);
    if (s.label === 'benign') {
      const max = rank(s.max_band ?? 'low');
      const isFp = worst > max;
      fp.total++; kind.benign_fp.total++; origin.benign_fp.total++;
      if (isFp) { fp.hit++; kind.benign_fp.hit++; origin.benign_fp.hit++; r.false_positives.push(`${s.id} (${o.worstBand})`); }
      continue;
    }
    const detected = worst >= rank(s.min_band ?? 'low');
    if (s.label === 'malicious') {
      mal.total++; kind.malicious.total++; origin.malicious.total++;
      malHigh.total++;
      if (detected) { mal.hit++; kind.malicious.hit++; origin.malicious.hit++; } else r.misses.push(`${s.id} (${o.worstBand} < ${s.min_band})`);
      if (worst >= rank('high')) malHigh.hit++;
    } else {
      sus.total++; kind.suspicious.total++;
      if (detected) { sus.hit++; kind.suspicious.hit++; } else r.suspicious_misses.push(`${s.id} (${o.worstBand} < ${s.min_band})`);
    }
    if (s.categories.length > 0) {
      cat.total++;
      const found = s.categories.some((c) => o.categoriesFound.includes(c));
      if (found) cat.hit++; else r.category_misses.push(`${s.id} (want ${s.categories.join('|')}, got ${o.categoriesFound.join('|') || '-'})`);
      for (const c of s.categories) {
        const cell = (r.per_category[c] ??= { hit: 0, total: 0 });
        cell.total++;
        if (o.categoriesFound.includes(c)) cell.hit++;
      }
    }
    if (s.malicious_files && s.malicious_files.length > 0 && s.files.length > 1) {
      attr.total++;
      if (o.worstFiles.length > 0 && o.worstFiles.every((f) => s.malicious_files?.includes(f))) attr.hit++;
      else r.attribution_misses.push(`${s.id} (worst ${o.worstFiles.join(',') || '-'})`);
    }
  }
  r.malicious_recall = round(rate(mal));
  r.malicious_recall_high = round(rate(malHigh));
  r.benign_fpr = round(fp.total === 0 ? 0 : fp.hit / fp.total);
  r.suspicious_recall = round(rate(sus));
  r.category_recall = round(rate(cat));
  r.attribution = round(rate(attr));
  r.ms_per_sample = outcomes.length ? Math.round((totalMs / outcomes.length) * 100) / 100 : 0;
  r.mb_per_s = totalMs > 0 ? Math.round((totalBytes / 1e6 / (totalMs / 1000)) * 100) / 100 : 0;
  return r;
}
