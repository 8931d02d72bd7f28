import { defineRegexRule } from '../regex-rule';

export const othWeakSafeguardsRule = defineRegexRule({
  meta: {
    id: 'BW-OTH-001',
    title: 'Disabled safety checks (TLS verification, hooks, host keys)',
    category: 'other',
    severity: 'low',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'Turning off TLS certificate checks, SSH host-key checking or commit/secret-scanning hooks removes protections against interception and leaks. Usually negligence rather than attack, so low severity.',
    example: 'requests.post(url, headers=auth, verify=False)',
  },
  triggers: [
    'verify',
    'node_tls',
    'rejectunauthorized',
    'curl',
    'stricthostkeychecking',
    '--no-verify',
    '_create_unverified_context',
    'cert_none',
    'insecureskipverify',
    'gitleaksignore',
    'detect-secrets',
    'trufflehog',
    'skip',
    'disable',
    'bypass',
  ],
  patterns: [
    /\bverify\s{0,3}=\s{0,3}False\b/,
    /\bNODE_TLS_REJECT_UNAUTHORIZED\s{0,3}=\s{0,3}["']?0/,
    /\brejectUnauthorized\s{0,3}:\s{0,3}false\b/,
    /\bcurl\b[^\n]{0,100}\s(?:-k|--insecure)\b/,
    /\bStrictHostKeyChecking[= ]no\b/i,
    /\bgit\s{1,3}(?:commit|push)\b[^\n]{0,60}--no-verify\b/,
    /\.gitleaksignore\b|\bdetect-secrets\b[^\n]{0,60}--exclude|\btrufflehog\b[^\n]{0,60}--exclude|\b(?:skip|disable|bypass)\s{1,3}(?:the\s{1,3})?(?:secret[- ]scann\w{0,3}|pre-commit hooks?)/i,
    /\bssl\._create_unverified_context\b|\bCERT_NONE\b|\bInsecureSkipVerify\s{0,3}:\s{0,3}true/,
  ],
  views: ['raw', 'normalized'],
  refine(hit) {
    // Routinely skipping commit hooks or secret scanning removes a leak safeguard: medium.
    if (/--no-verify|gitleaksignore|secret|pre-commit|detect-secrets|trufflehog/i.test(hit.evidence)) return { ...hit, severity: 'medium' };
    return hit;
  },
});
