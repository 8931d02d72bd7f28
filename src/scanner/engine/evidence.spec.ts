import { boundEvidence, EVIDENCE_MAX_CHARS } from './evidence';
import { redactSecretText } from './secret-formats';

describe('evidence bounding', () => {
  it.each([
    ['aws', `key AKIA${'Z'.repeat(16)} end`, '[REDACTED:aws_access_key_id]'],
    ['github', `ghp_${'a'.repeat(36)}`, '[REDACTED:github_token]'],
    ['openai', `sk-proj-${'b'.repeat(40)}`, '[REDACTED:openai_key]'],
    ['anthropic', `sk-ant-api03-${'c'.repeat(40)}`, '[REDACTED:anthropic_key]'],
    ['private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', '[REDACTED:private_key]'],
    ['bulwark', `bwk_${'d'.repeat(40)}`, '[REDACTED:bulwark_api_key]'],
    ['url creds', 'postgres://admin:hunter2pw@db.example/x', 'postgres://admin:[REDACTED:url_password]@db.example/x'],
    ['assignment', 'API_KEY="abcd1234efgh"', 'API_KEY="[REDACTED:assigned_secret]"'],
  ])('redacts %s', (_n, input, expected) => {
    expect(redactSecretText(input)).toContain(expected);
  });

  it('keeps environment references readable', () => {
    expect(redactSecretText('token: ${GITHUB_TOKEN}')).toBe('token: ${GITHUB_TOKEN}');
    expect(redactSecretText('api_key = process.env.OPENAI_KEY')).toBe('api_key = process.env.OPENAI_KEY');
  });

  it('caps length and keeps one line', () => {
    const out = boundEvidence(`a\nb${'x'.repeat(1000)}`);
    expect(out.length).toBe(EVIDENCE_MAX_CHARS);
    expect(out).not.toContain('\n');
    expect(out.endsWith('…')).toBe(true);
  });
});
