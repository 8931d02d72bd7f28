import { defineRegexRule } from '../regex-rule';

/**
 * Stealers ask for the login password and check it against the operating system before they use
 * it (keychain unlock, sudo, the second stage): `dscl . -authonly`, .NET's
 * `PrincipalContext.ValidateCredentials`, and on macOS a dialog that hides what is typed.
 */
export const secLoginPasswordCheckRule = defineRegexRule({
  meta: {
    id: 'BW-SEC-004',
    title: 'Login password prompted for or checked through the OS authentication tools',
    category: 'secrets_exposure',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    shows_intent: true,
    rationale:
      "No agent skill needs the user's login password. Checking a password through the operating system's own authentication tools (`dscl . -authonly user pass`, `PrincipalContext.ValidateCredentials`) or asking for it in a dialog that hides the answer (`osascript … with hidden answer`) is how credential stealers confirm the password they harvested before using it on the keychain or for escalation. Reading account records (`dscl . -read`) is not matched.",
    example: 'dscl . -authonly "$USER" "$PW" && echo ok',
  },
  triggers: ['authonly', 'validatecredentials', 'hidden answer'],
  patterns: [/\bdscl\b[^\n]{0,40}-authonly\b/i, /\bValidateCredentials\s{0,2}\(/, /\bdisplay\s{1,3}dialog\b[^\n]{0,200}\bwith\s{1,3}hidden\s{1,3}answer\b/i],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
});
