import {
  BANDS,
  bandRank,
  CONFIDENCES,
  confidenceRank,
  INTENTS,
  intentRank,
  SEVERITIES,
  SEVERITIES_WORST_FIRST,
  severityRank,
  worseBand,
} from './scan-report.types';

describe('the ordered scales of the report', () => {
  it('rank each value by its place in its one list, worse (or surer) higher', () => {
    expect(BANDS.map(bandRank)).toEqual([0, 1, 2, 3, 4]);
    expect(SEVERITIES.map(severityRank)).toEqual([0, 1, 2, 3, 4]);
    expect(CONFIDENCES.map(confidenceRank)).toEqual([0, 1, 2]);
    expect(INTENTS.map(intentRank)).toEqual([0, 1, 2]);
    expect(bandRank('critical')).toBeGreaterThan(bandRank('high'));
    expect(severityRank('info')).toBeLessThan(severityRank('low'));
    expect(intentRank('malicious')).toBeGreaterThan(intentRank('suspicious'));
  });

  it('list severities worst first for the reports', () => {
    expect(SEVERITIES_WORST_FIRST).toEqual(['critical', 'high', 'medium', 'low', 'info']);
  });

  it('keep the worse of two bands', () => {
    expect(worseBand('low', 'high')).toBe('high');
    expect(worseBand('critical', 'medium')).toBe('critical');
    expect(worseBand('info', 'info')).toBe('info');
  });
});
