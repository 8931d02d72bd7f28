import { redactSecretLines } from './secret-redactor';

describe('redactSecretLines', () => {
  it.each([
    ['github token', 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['openai key', 'export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx', 'sk-proj-abcdefghijklmnopqrstuvwx'],
    ['anthropic key', 'key: sk-ant-api03-abcdefghijklmnopqrstuv', 'sk-ant-api03-abcdefghijklmnopqrstuv'],
    ['aws access key id', 'AWS_ACCESS_KEY_ID=AKIAABCDEFGHIJKLMNOP', 'AKIAABCDEFGHIJKLMNOP'],
    ['bulwark key', 'Authorization: Bearer bwk_abcdefghijklmnopqrstuvwxyz012345', 'bwk_abcdefghijklmnopqrstuvwxyz012345'],
    ['bearer token', 'curl -H "Authorization: Bearer abcdef0123456789abcdef"', 'abcdef0123456789abcdef'],
    ['url password', 'git clone https://deploy:hunter2secret@git.example/repo', 'hunter2secret'],
    ['assigned password', 'db_password = "correct-horse-battery"', 'correct-horse-battery'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N', 'dozjgNryP4J3jVmNHl0w5N'],
  ])('redacts a %s', (_name, line, secret) => {
    const out = redactSecretLines([line]);
    expect(out.lines[0]).not.toContain(secret);
    expect(out.lines[0]).toContain('[REDACTED:');
    expect(out.count).toBeGreaterThan(0);
  });

  it.each([
    ['env reference', 'API_KEY=${API_KEY}'],
    ['placeholder', 'token: <your-token-here>'],
    ['exfiltration url stays visible', 'UPLOAD_URL=https://collector.example/upload'],
    ['url value of a secret-named key stays visible', 'token_endpoint: https://auth.example/oauth/token'],
    ['numbers', 'max_tokens: 100000000'],
    ['process.env lookup', 'const apiKey = process.env.OPENAI_API_KEY;'],
  ])('leaves a %s alone', (_name, line) => {
    expect(redactSecretLines([line]).lines[0]).toBe(line);
  });

  it('redacts a multi-line private key and keeps the line count', () => {
    const lines = ['before', '-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA1', 'abcdef', '-----END RSA PRIVATE KEY-----', 'after'];
    const out = redactSecretLines(lines);
    expect(out.lines).toHaveLength(lines.length);
    expect(out.lines.join('\n')).not.toMatch(/MIIEow|abcdef/);
    expect(out.lines[0]).toBe('before');
    expect(out.lines[4]).toBe('-----END RSA PRIVATE KEY-----');
    expect(out.lines[5]).toBe('after');
  });
});
