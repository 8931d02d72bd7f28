import { redactSecretLines } from '../judge/secret-redactor';
import { createStaticAnalyzer } from '../rules/static-analyzer';
import { boundEvidence } from './evidence';
import { isSecretPlaceholder, redactSecretText, SECRET_FORMATS } from './secret-formats';

/** One made-up token per format, assembled here so no token-shaped literal sits in the source. */
const SAMPLES: Record<string, string> = {
  private_key: ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjE', '-----END OPENSSH PRIVATE KEY-----'].join('\n'),
  aws_access_key_id: `AKIA${'Q3EGRTXHBNKZ4W5Y'}`,
  github_token: `ghp_${'k8Zq2Lm4Np6Rt8Vx0Bz3'.repeat(2).slice(0, 36)}`,
  gitlab_token: `glpat-${'Hq7Wm2Kx9Lp4Rt6Vb3Nz'}`,
  anthropic_key: `sk-ant-api03-${'Qm7Lx2Wp9Kz4Rt6Vb3Nh8Jd'}`,
  openai_key: `sk-proj-${'Tz8Mq3Lw7Kp2Rx6Vb9Nh4Jd1Fs'}`,
  stripe_key: `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
  slack_token: `xoxb-${'2231-88812-Zq8XkPq0aVbC'}`,
  google_api_key: `AIza${'SyD3Lm8Qx2Wp7Kz4Rt6Vb9Nh1Jd5Fs0GqTu'}`,
  npm_token: `npm_${'Lm8Qx2Wp7Kz4Rt6Vb9Nh1Jd5Fs0GqTyUcEa3'}`,
  huggingface_token: `hf_${'Lm8Qx2Wp7Kz4Rt6Vb9Nh1Jd5Fs0GqTy'}`,
  bulwark_api_key: `bwk_${'Lm8Qx2Wp7Kz4Rt6Vb9Nh1Jd5F'}`,
  slack_webhook: `https://hooks.slack.com/services/${'T0123ABCD/B0456EFGH/q8XkPq0aVbCz'}`,
  jwt: `eyJ${'hbGciOiJIUzI1NiJ9'}.eyJ${'zdWIiOiIxMjM0NTY3ODkwIn0'}.${'dozjgNryP4J3jVmNHl0w5N'}`,
  url_password: `postgres://deploy:${'hunter2secret'}@db.example/app`,
  bearer_token: `Authorization: Bearer ${'abcdef0123456789abcdef'}`,
};

/** The secret part of each sample: what must never survive redaction. */
function secretOf(kind: string, sample: string): string {
  if (kind === 'url_password') return 'hunter2secret';
  if (kind === 'bearer_token') return 'abcdef0123456789abcdef';
  if (kind === 'private_key') return 'b3BlbnNzaC1rZXktdjE';
  return sample;
}

describe('the secret-format catalogue', () => {
  const analyzer = createStaticAnalyzer();
  const file = (text: string) => ({ relativePath: 'SKILL.md', kind: 'agent_file' as const, text, byteLength: text.length });

  it('has a sample for every format', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(SECRET_FORMATS.map((f) => f.kind).sort());
  });

  it.each(SECRET_FORMATS.map((f) => [f.kind, f.detect] as const))('%s is hidden everywhere and detected when detect=%s', (kind, detect) => {
    const sample = SAMPLES[kind];
    const secret = secretOf(kind, sample);
    const text = `Configure the client with ${sample} before the first run.`;
    expect(redactSecretText(text)).not.toContain(secret);
    expect(redactSecretText(text)).toContain(`[REDACTED:${kind}]`);
    expect(boundEvidence(text)).not.toContain(secret);
    expect(redactSecretLines(text.split('\n')).lines.join('\n')).not.toContain(secret);
    const f = file(text);
    const findings = analyzer.analyze(f, { files: [f], skipped: [], primaryPath: f.relativePath });
    expect(findings.some((x) => x.rule_id === 'BW-SEC-001')).toBe(detect);
    for (const x of findings) expect(x.evidence).not.toContain(secret);
  });

  it('keeps references and placeholders readable', () => {
    for (const text of ['token: ${GITHUB_TOKEN}', 'api_key = process.env.OPENAI_KEY', 'password: <your password>', 'UPLOAD_URL=https://collector.example/u']) {
      expect(redactSecretText(text)).toBe(text);
    }
  });

  it('has one placeholder test, for redaction and for the MCP inline-secret rule', () => {
    for (const value of [
      'your-api-key-here',
      'replace_with_token',
      'changeme123',
      'Bearer ${API_TOKEN}',
      '$(pass show gh)',
      '{{ secrets.TOKEN }}',
      'sk-xxxxxxxxxxxxxxxx',
      'ghp_****************',
      '<GITHUB_TOKEN>',
    ]) {
      expect([value, isSecretPlaceholder(value)]).toEqual([value, true]);
      expect(redactSecretText(`api_key = ${value}`)).toBe(`api_key = ${value}`);
    }
    for (const value of ['ghp_R8mX2kQ7vN4pL9sT1wZ6yB3cF5hJ0dG8aE2u', 'q8Zr1vXk2PmN7sT4wY6bC3dF']) expect(isSecretPlaceholder(value)).toBe(false);
  });

  it('returns text untouched only when no redaction could apply (the per-pass literal checks hide nothing)', () => {
    // Every key spelling ASSIGNED_SECRET names, in any case, and every format in upper and lower case still redacts.
    const value = 'Zq8XkPq0aVbCz1Lm';
    for (const key of ['PASSWORD', 'Passwd', 'pwd', 'SECRET', 'token', 'API-KEY', 'apikey', 'Access_Key', 'PRIVATE_KEY', 'client-secret', 'AUTH']) {
      expect(redactSecretText(`set ${key}=${value} now`)).not.toContain(value);
    }
    for (const [kind, sample] of Object.entries(SAMPLES)) expect(redactSecretText(`before ${sample} after`)).not.toContain(secretOf(kind, sample));
    // Many in one text: each pass reads the text the passes before it left.
    const all = redactSecretText(Object.values(SAMPLES).join(' and '));
    for (const [kind, sample] of Object.entries(SAMPLES)) expect(all).not.toContain(secretOf(kind, sample));
    const plain = 'Run the build, then open the report in a browser.';
    expect(redactSecretText(plain)).toBe(plain);
  });
});
