/**
 * Scoring weights (docs/scanner.md "Scoring"). Risk is a probability-like number in [0, 1]; a finding's weight
 * is severity × confidence × context, and the k-th repeat of the same rule in a file counts
 * REPEAT_DECAY^k as much, so a noisy rule cannot saturate the score by itself.
 */
import { BANDS, type Band, type Confidence, type FindingContext, type Severity } from '../engine/scan-report.types';

export const SEVERITY_WEIGHT: Record<Severity, number> = {
  critical: 0.9,
  high: 0.6,
  medium: 0.32,
  low: 0.12,
  info: 0.02,
};

export const CONFIDENCE_WEIGHT: Record<Confidence, number> = { high: 1, medium: 0.75, low: 0.4 };

export const CONTEXT_WEIGHT: Record<FindingContext, number> = {
  direct: 1,
  documentation_example: 0.5,
  quoted_education: 0.3,
  anti_pattern: 0.25,
  negated: 0.2,
  deny_list: 0.1,
};

export const REPEAT_DECAY = 0.5;

/**
 * Mentions (negated, deny-listed, anti-pattern, quoted or documentation-example findings) together
 * can add at most this much risk, so a security guide quoting twenty attacks stays in the low band.
 */
export const NON_DIRECT_RISK_CAP = 0.2;

/** A confident hard-block finding caps the file's score here (critical band). */
export const HARD_BLOCK_CEILING = 15;

/**
 * Ceilings set by the worst *confident, direct* finding: the score cannot be better than this
 * whatever else the file contains. Low-confidence and context-demoted findings set no ceiling.
 */
export const CEILING: Record<Severity, Partial<Record<Confidence, number>>> = {
  critical: { high: 19, medium: 35 },
  high: { high: 40, medium: 55 },
  medium: { high: 65, medium: 75 },
  low: { high: 85, medium: 89 },
  info: {},
};

/** Judge intent as a floor on judge risk (scaled by its confidence). */
export const JUDGE_INTENT_RISK: Record<'benign' | 'suspicious' | 'malicious', number> = {
  benign: 0,
  suspicious: 0.35,
  malicious: 0.85,
};

/** The lowest score of each band (info 90–100, low 70–89, medium 45–69, high 20–44, critical 0–19). */
export const BAND_FLOOR: Record<Band, number> = { info: 90, low: 70, medium: 45, high: 20, critical: 0 };

/** The band of a score: the safest whose floor the score reaches. */
export function bandOf(score: number): Band {
  return BANDS.find((b) => score >= BAND_FLOOR[b]) ?? 'critical';
}
