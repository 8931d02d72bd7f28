import { defineRegexRule } from '../regex-rule';

/** Placeholders, templates and redactions are documentation, not credentials. */
const PLACEHOLDER = /(?:x{6,}|\*{4,}|\.{3}|<[^>\n]{1,40}>|\$\{|\{\{|your[_-]?|example[_-]?(?:key|token)|placeholder|redacted|changeme|dummy|sample|0{8,}|1234567890)/i;

export const seProviderSecretRule = defineRegexRule({
  meta: {
    id: 'BW-SEC-001',
    title: 'Hard-coded credential (provider token format)',
    category: 'secrets_exposure',
    severity: 'high',
    confidence: 'high',
    asset_type: 'secret',
    rationale:
      'Agent files are shared and loaded into model context, so a literal cloud/API token in them leaks to every reader and every model provider. Matches provider token formats (AWS, GitHub, Slack, Stripe, OpenAI/Anthropic, Google, GitLab, npm) and private-key blocks; placeholders and templates are ignored; evidence is redacted.',
    example: 'export GITHUB_TOKEN=ghp_…[REDACTED]',
    fixtures: {
      positive: [
        { text: 'Use key AKIAQ3EGRTXHBNKZ4W5Y with the deploy role.' },
        { path: '.mcp.json', text: '{"env": {"SLACK_BOT_TOKEN": "xoxb-2231-88812-Zq8XkPq0aVbC"}}' },
        { text: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----' },
      ],
      negative: [
        { text: 'Set `GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` in your shell.' },
        { text: 'Export OPENAI_API_KEY=<your key> before running.' },
        { text: 'AWS keys start with AKIA followed by 16 characters.' },
      ],
    },
  },
  triggers: ['akia', 'asia', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'xox', 'sk-', 'sk_live', 'rk_live', 'aiza', 'glpat-', 'npm_', 'private key'],
  patterns: [
    /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
    /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/,
    /\bgithub_pat_[A-Za-z0-9_]{40,255}\b/,
    /\bxox[abposr]-[0-9A-Za-z-]{10,255}/,
    /\bsk-(?:ant-(?:api\d{2}-)?|proj-)?[A-Za-z0-9_-]{32,255}\b/,
    /\b[rs]k_live_[A-Za-z0-9]{16,255}\b/,
    /\bAIza[0-9A-Za-z_-]{35}\b/,
    /\bglpat-[A-Za-z0-9_-]{20}\b/,
    /\bnpm_[A-Za-z0-9]{36}\b/,
    /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/,
  ],
  views: ['raw', 'decoded'],
  refine(hit) {
    if (PLACEHOLDER.test(hit.evidence)) return null;
    // Vendor documentation keys are examples, not leaks.
    if (/AKIAIOSFODNN7EXAMPLE|AKIAI44QH8DHBEXAMPLE/.test(hit.evidence)) return null;
    // Fake/test-looking values are weak evidence: recorded, but they set no ceiling.
    if (/EXAMPLE|FAKE|TEST|DUMMY|SAMPLE/i.test(hit.evidence)) return { ...hit, confidence: 'low' };
    return hit;
  },
});
