import { defineRegexRule } from '../regex-rule';

/** Values that are clearly not secrets: templates, placeholders, env references, booleans. */
const NOT_A_SECRET =
  /^(?:\$|%|<|\{|\[|`|your|my[-_]|xxx|\*{3}|\.\.\.|changeme|placeholder|redacted|example|sample|dummy|test|none|null|true|false|undefined|secret|password|token|env\b|process\.env|os\.environ|os\.getenv|getenv)/i;
/** An attribute chain rooted in an object of the running program (self.x, this.config.key). */
const CODE_REFERENCE = /^(?:self|this|cls|config|settings|options|opts|args|params|props|ctx|context|state|env|app)\.[A-Za-z_]/;
/** A name, with an expression sigil before it (`@triggerBody`, `=Lookup`), that a call's `(` follows: a template or formula expression. */
const CALLED_NAME = /^[@=]?[A-Za-z_][\w.]{0,200}$/;
/** A PowerShell cmdlet (Verb-Noun) on the right of an assignment runs a command: its output is the value. */
const CMDLET = /^[A-Z][a-z]{1,20}(?:To|From)?-[A-Z][A-Za-z]{1,60}$/;
/** Words joined by slashes ("Mobile/Heading/Large"): a path or a token name, not key material. */
const WORD_PATH = /^(?:[A-Z]?[a-z]{1,20}\d{0,2}|[A-Z]\d{0,2})(?:\/(?:[A-Z]?[a-z]{1,20}\d{0,2}|[A-Z]\d{0,2})){1,8}$/;
/** Exact documentation keys published by vendors (e.g. AWS docs) are examples, not leaks. */
const DOCUMENTED_KEYS = /AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI\/K7MDENG\/bPxRfiCYEXAMPLEKEY/;

export const secHardcodedCredentialRule = defineRegexRule({
  meta: {
    id: 'BW-SEC-003',
    title: 'Credential value assigned in the file',
    category: 'secrets_exposure',
    severity: 'medium',
    confidence: 'medium',
    asset_type: 'secret',
    rationale:
      'A literal value assigned to a *_KEY/*_TOKEN/*_SECRET/PASSWORD name, or a connection string with an embedded password, ships the credential to every reader of the agent file. Placeholders, env references and vendor documentation keys are ignored; evidence is redacted.',
    example: 'STRIPE_SECRET_KEY=sk_live_51Pq7Rm2Xk9Vb4Nc8Zt3Lw6Hd1Jf5Ga0Ye7Us2Oi4',
    example_path: '.env',
  },
  triggers: ['secret', 'token', 'password', 'passwd', 'api_key', 'apikey', 'access_key', 'accesskey', 'private_key', 'privatekey', 'auth_key', '://'],
  patterns: [
    /\b[A-Za-z0-9_]{0,40}(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH_KEY|CLIENT_SECRET)[A-Za-z0-9_]{0,20}["']?\s{0,3}[:=]\s{0,3}["']?([A-Za-z0-9_\-+/=.!@#%^&*]{12,200})/i,
    /\b[a-z][a-z0-9+.-]{1,20}:\/\/[A-Za-z0-9_.-]{1,64}:([^@\s/:"'`]{4,100})@[A-Za-z0-9.-]{1,253}/i,
  ],
  views: ['raw', 'normalized'],
  refine(hit, m, _ctx, view) {
    const value = m[1] ?? '';
    if (NOT_A_SECRET.test(value) || DOCUMENTED_KEYS.test(hit.evidence)) return null;
    // An unquoted value that is a call or an attribute of an object (`tokens = self.tokenizer.tokenize(msg)`)
    // is code computing something at run time, not a literal credential.
    const next = view.text.charAt(m.index + m[0].length);
    if (m[0].endsWith(value) && !/["']$/.test(m[0].slice(0, -value.length).trimEnd()) && (next === '(' || CODE_REFERENCE.test(value))) return null;
    // Inside quotes too, a name that a call follows is an expression the platform evaluates ("@triggerBody()?['lockToken']").
    if (m[0].endsWith(value) && next === '(' && CALLED_NAME.test(value)) return null;
    if (CMDLET.test(value) || WORD_PATH.test(value)) return null;
    if (/^(?:password|pass|pwd|secret|changeme|admin|root|postgres|user|example)$/i.test(value)) return null;
    if (/^[a-z_]+$/i.test(value) && value.length < 20) return null;
    if (/^[A-Z0-9_]+$/.test(value) && value.includes('_')) return null;
    if (/x{4,}|\*{3,}|0{8,}|FAKE|EXAMPLE|DUMMY|PLACEHOLDER|REPLACE/i.test(value)) return { ...hit, confidence: 'low' };
    // Plain words joined by hyphens ("api-key-here") are a placeholder or a name, as plain words are.
    if (/^[a-z]{1,20}(?:-[a-z]{1,20}){1,6}$/i.test(value) && value.length < 20) return null;
    return hit;
  },
});

/** The refinement's regexes, for the ReDoS check in the test suite. */
export const HARDCODED_CREDENTIAL_REGEXES: readonly RegExp[] = [NOT_A_SECRET, CODE_REFERENCE, DOCUMENTED_KEYS, CALLED_NAME, CMDLET, WORD_PATH];
