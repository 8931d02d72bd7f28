import { parseDuration } from './duration';

describe('parseDuration (--expires-in)', () => {
  it('reads minutes, hours, days and weeks', () => {
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('30d')).toBe(30 * 86_400_000);
    expect(parseDuration('2w')).toBe(14 * 86_400_000);
  });

  it('rejects other units, zero, junk and absurd lengths', () => {
    for (const bad of ['30', '30s', '1y', '0d', '-1d', '1.5h', 'd', '', '3651d']) expect(() => parseDuration(bad)).toThrow(/--expires-in/);
  });
});
