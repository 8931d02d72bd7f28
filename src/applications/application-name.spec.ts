import { applicationNameKey } from './application-name';

describe('applicationNameKey', () => {
  it('folds case and surrounding spaces, so such names are one application', () => {
    expect(applicationNameKey('  Payments API ')).toBe('payments api');
    expect(applicationNameKey('PAYMENTS api')).toBe(applicationNameKey('payments API'));
  });

  it('keeps inner spaces and other characters', () => {
    expect(applicationNameKey('a  b')).toBe('a  b');
    expect(applicationNameKey('Ärger-Ω')).toBe('ärger-ω');
  });
});
