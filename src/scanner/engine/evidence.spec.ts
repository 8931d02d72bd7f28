import { boundEvidence, EVIDENCE_MAX_CHARS, redactSecrets } from './evidence';

describe('evidence bounding', () => {
  it.each([
    ['aws', `key AKIA${'Z'.repeat(16)} end`, '[REDACTED:aws-access-key]'],
    ['github', `ghp_${'a'.repeat(36)}`, '[REDACTED:github-token]'],
    ['openai', `sk-proj-${'b'.repeat(40)}`, '[REDACTED:openai-key]'],
    ['anthropic', `sk-ant-api03-${'c'.repeat(40)}`, '[REDACTED:anthropic-key]'],
    ['private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', '[REDACTED:private-key]'],
    ['bulwark', `bwk_${'d'.repeat(40)}`, '[REDACTED:bulwark-key]'],
    ['url creds', 'postgres://admin:hunter2pw@db.example/x', 'postgres://admin:[REDACTED:url-credentials]@db.example/x'],
    ['assignment', 'API_KEY="abcd1234efgh"', 'API_KEY="[REDACTED:secret]"'],
  ])('redacts %s', (_n, input, expected) => {
    expect(redactSecrets(input)).toContain(expected);
  });

  it('keeps environment references readable', () => {
    expect(redactSecrets('token: ${GITHUB_TOKEN}')).toBe('token: ${GITHUB_TOKEN}');
    expect(redactSecrets('api_key = process.env.OPENAI_KEY')).toBe('api_key = process.env.OPENAI_KEY');
  });

  it('caps length and keeps one line', () => {
    const out = boundEvidence(`a\nb${'x'.repeat(1000)}`);
    expect(out.length).toBe(EVIDENCE_MAX_CHARS);
    expect(out).not.toContain('\n');
    expect(out.endsWith('…')).toBe(true);
  });
});
