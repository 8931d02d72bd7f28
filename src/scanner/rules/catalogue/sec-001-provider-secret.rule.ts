import { SECRET_FORMATS } from '../../engine/secret-formats';
import { defineRegexRule } from '../regex-rule';

/** The catalogue's formats whose presence alone is a leak (the redaction-only shapes are not). */
const DETECTED_FORMATS = SECRET_FORMATS.filter((f) => f.detect);

/** Placeholders, templates and redactions are documentation, not credentials. */
const PLACEHOLDER =
  /(?:x{6,}|\*{4,}|\.{3}|<[^>\n]{1,40}>|\$\{|\{\{|your[_-]?|example[_-]?(?:key|token)|placeholder|redacted|changeme|dummy|sample|0{8,}|1234567890)/i;

export const seProviderSecretRule = defineRegexRule({
  meta: {
    id: 'BW-SEC-001',
    title: 'Hard-coded credential (provider token format)',
    category: 'secrets_exposure',
    severity: 'high',
    confidence: 'high',
    asset_type: 'secret',
    rationale:
      'Agent files are shared and loaded into model context, so a literal cloud/API token in them leaks to every reader and every model provider. Matches the provider token formats of the secret catalogue (AWS, GitHub, GitLab, Anthropic, OpenAI, Stripe, Slack, Google, npm, Hugging Face) and private-key blocks; placeholders and templates are ignored; evidence is redacted.',
    example: 'export GITHUB_TOKEN=ghp_R8mX2kQ7vN4pL9sT1wZ6yB3cF5hJ0dG8aE2u',
    example_path: 'scripts/setup.sh',
  },
  triggers: DETECTED_FORMATS.flatMap((f) => f.triggers),
  patterns: DETECTED_FORMATS.map((f) => f.pattern),
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
