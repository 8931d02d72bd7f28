/**
 * Measures of corpus/README.md: malicious recall (worst_band ≥ min_band), recall at ≥ high,
 * benign false-positive rate (worst_band > max_band, default low), suspicious detection, category
 * recall (expected categories named by static or judge findings), bundle attribution; broken down
 * per kind, category, origin and manifest `family`. Miss and false-positive entries name the rules
 * behind them, so a listing says why without re-running the sample.
 */
import { bandRank, type Band, type RiskCategory, type ScanFileEntry, type ScanReport, type Severity } from '../engine/scan-report.types';
import { findingWeight } from '../scoring/score-file';
import type { CorpusSample } from './corpus-loader';

/** A rule that fired on a sample, at the strongest severity it fired with. */
export interface RuleHit {
  rule_id: string;
  severity: Severity;
}

export interface SampleOutcome {
  sample: CorpusSample;
  report: ScanReport | null;
  error?: string;
  ms: number;
  worstBand: Band | null;
  categoriesFound: RiskCategory[];
  worstFiles: string[];
  /** Every rule that fired on any file of the sample, heaviest scoring weight first. */
  firedRules: RuleHit[];
  /** The rules that set the worst file's score: the ceiling rule (if it capped the score), then the heaviest findings. */
  decidingRules: RuleHit[];
}

/** Detected / total counts behind a rate (for benign_fp: false positives / benign samples). */
export interface LabelCells {
  malicious: RateCell;
  suspicious: RateCell;
  benign_fp: RateCell;
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
  counts: LabelCells;
  per_kind: Record<string, LabelCells>;
  /** Per manifest `family` (technique family or source repository); empty when the manifest has none. */
  per_family: Record<string, LabelCells>;
  per_category: Record<string, RateCell>;
  per_origin: Record<string, { malicious: RateCell; benign_fp: RateCell }>;
}

const rank = (b: Band | null): number => (b ? bandRank(b) : -1);
const rate = (c: RateCell): number => (c.total === 0 ? 1 : c.hit / c.total);
const round = (x: number): number => Math.round(x * 10000) / 10000;

/** Distinct rules of the given files, heaviest scoring weight first (ties by rule id). */
export function rankRules(files: readonly ScanFileEntry[]): RuleHit[] {
  const best = new Map<string, { hit: RuleHit; weight: number }>();
  for (const f of files) {
    for (const finding of f.static_findings) {
      const weight = findingWeight(finding);
      const prev = best.get(finding.rule_id);
      if (!prev || weight > prev.weight) best.set(finding.rule_id, { hit: { rule_id: finding.rule_id, severity: finding.severity }, weight });
    }
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight || a.hit.rule_id.localeCompare(b.hit.rule_id)).map((x) => x.hit);
}

/** Rules behind the worst files' score: a capping ceiling rule first (`judge:<category>` when the judge capped it). */
function decidingRulesOf(worst: readonly ScanFileEntry[]): RuleHit[] {
  const ranked = rankRules(worst);
  const capping: RuleHit[] = [];
  for (const f of worst) {
    const ceiling = f.score_breakdown?.ceiling;
    if (!ceiling?.source || ceiling.value !== f.score) continue;
    const ruleId = ceiling.source.slice(0, ceiling.source.lastIndexOf('@'));
    const hit = ranked.find((r) => r.rule_id === ruleId) ?? { rule_id: ruleId, severity: f.band };
    if (!capping.some((c) => c.rule_id === ruleId)) capping.push(hit);
  }
  return [...capping, ...ranked.filter((r) => !capping.some((c) => c.rule_id === r.rule_id))];
}

export function outcomeOf(sample: CorpusSample, report: ScanReport | null, ms: number, error?: string): SampleOutcome {
  const cats = new Set<RiskCategory>();
  let worstScore = Infinity;
  let worst: ScanFileEntry[] = [];
  const files = report?.files ?? [];
  for (const f of files) {
    for (const s of f.static_findings) if (s.category) cats.add(s.category);
    for (const j of f.llm_findings) cats.add(j.category);
    if (f.score === null) continue;
    if (f.score < worstScore) {
      worstScore = f.score;
      worst = [f];
    } else if (f.score === worstScore) worst.push(f);
  }
  return {
    sample,
    report,
    error,
    ms,
    worstBand: report?.summary.worst_band ?? null,
    categoriesFound: [...cats],
    worstFiles: worst.map((f) => f.relative_path),
    firedRules: rankRules(files),
    decidingRules: decidingRulesOf(worst),
  };
}

/** `<lead> BW-A-001[high], BW-B-002[low] +3 more`, or `no finding` when no rule fired. */
export function formatRuleHits(lead: string, hits: readonly RuleHit[], max = 4): string {
  if (hits.length === 0) return 'no finding';
  const shown = hits
    .slice(0, max)
    .map((h) => `${h.rule_id}[${h.severity}]`)
    .join(', ');
  return `${lead} ${shown}${hits.length > max ? ` +${hits.length - max} more` : ''}`;
}

const emptyCells = (): LabelCells => ({ malicious: { hit: 0, total: 0 }, suspicious: { hit: 0, total: 0 }, benign_fp: { hit: 0, total: 0 } });

function tally(cells: readonly LabelCells[], label: keyof LabelCells, hit: boolean): void {
  for (const c of cells) {
    c[label].total++;
    if (hit) c[label].hit++;
  }
}

export function computeMetrics(outcomes: readonly SampleOutcome[], totalMs: number, totalBytes: number): EvalResult {
  const counts = emptyCells();
  const { malicious: mal, suspicious: sus, benign_fp: fp } = counts;
  const malHigh: RateCell = { hit: 0, total: 0 };
  const cat: RateCell = { hit: 0, total: 0 };
  const attr: RateCell = { hit: 0, total: 0 };
  const r: EvalResult = {
    samples: outcomes.length,
    malicious_recall: 0,
    malicious_recall_high: 0,
    benign_fpr: 0,
    suspicious_recall: 0,
    category_recall: 0,
    attribution: 0,
    ms_per_sample: 0,
    mb_per_s: 0,
    errors: [],
    misses: [],
    suspicious_misses: [],
    false_positives: [],
    category_misses: [],
    attribution_misses: [],
    counts,
    per_kind: {},
    per_family: {},
    per_category: {},
    per_origin: {},
  };
  for (const o of outcomes) {
    const s = o.sample;
    if (o.error) r.errors.push(`${s.id}: ${o.error}`);
    // Rows a sample counts in besides the totals: its kind and, when the manifest has one, its family.
    const rows = [(r.per_kind[s.kind] ??= emptyCells())];
    if (s.family) rows.push((r.per_family[s.family] ??= emptyCells()));
    const cells = [counts, ...rows];
    const origin = (r.per_origin[s.source === 'authored' ? 'authored' : 'public'] ??= { malicious: { hit: 0, total: 0 }, benign_fp: { hit: 0, total: 0 } });
    const worst = rank(o.worstBand);
    if (s.label === 'benign') {
      const maxBand = s.max_band ?? 'low';
      const isFp = worst > rank(maxBand);
      tally(cells, 'benign_fp', isFp);
      origin.benign_fp.total++;
      if (isFp) {
        origin.benign_fp.hit++;
        r.false_positives.push(`${s.id} (${o.worstBand} > ${maxBand}): ${formatRuleHits('decided by', o.decidingRules)}`);
      }
      continue;
    }
    const detected = worst >= rank(s.min_band ?? 'low');
    const missEntry = `${s.id} (${o.worstBand} < ${s.min_band}): ${formatRuleHits('fired', o.firedRules)}`;
    if (s.label === 'malicious') {
      tally(cells, 'malicious', detected);
      origin.malicious.total++;
      malHigh.total++;
      if (detected) origin.malicious.hit++;
      else r.misses.push(missEntry);
      if (worst >= rank('high')) malHigh.hit++;
    } else {
      tally(cells, 'suspicious', detected);
      if (!detected) r.suspicious_misses.push(missEntry);
    }
    if (s.categories.length > 0) {
      cat.total++;
      const found = s.categories.some((c) => o.categoriesFound.includes(c));
      if (found) cat.hit++;
      else r.category_misses.push(`${s.id} (want ${s.categories.join('|')}, got ${o.categoriesFound.join('|') || '-'})`);
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
