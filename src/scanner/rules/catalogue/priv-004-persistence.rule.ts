import { IMPERATIVE_INSTALL_RE, REMOTE_PAYLOAD_RE, scriptConsentGateLine, SUDO_SYSTEM_ENABLE_RE } from '../benign-forms';
import { lexiconNames } from '../../lexicons/lexicon';
import { defineRegexRule, perFile, sentenceAround } from '../regex-rule';
import type { ScanContext } from '../../views/scan-context';
import { firstInstructionFrom, instructionsOf } from '../../instructions/instructions';
import { fenceOpener } from '../../parsers/markdown-structure.parser';

/**
 * `echo 'export NAME=value' >> ~/.bashrc`: one variable or PATH entry added to the user's profile,
 * the documented last step of installing a tool. Its value is a constant (no substitution, no
 * second command), PATH entries live under the home folder, /usr/local or /opt and hold no program
 * the same file writes there (a shim that shadows a real command), and the variable
 * is none that changes what programs load, run or trust (lexicon env-hijack-variable).
 */
const RC_EXPORT_APPEND_RE =
  /^\s{0,40}(?:[-*+]\s{1,3}|\d{1,3}[.)]\s{1,3}|\$\s{1,3})?`?\s{0,3}echo\s{1,3}(?:-e\s{1,3})?(?:'export\s{1,3}([A-Za-z_]\w{0,60})=([^'`;&|<>\n]{0,200})'|"export\s{1,3}([A-Za-z_]\w{0,60})=([^"`;&|<>\n]{0,200})")\s{0,3}>>\s{0,3}["']?(?:~|\$HOME|\$\{HOME\})\/\.(?:bashrc|zshrc|profile|bash_profile|zprofile)["']?\s{0,3}`?\s{0,3}$/;
const SUBSTITUTION_RE = /\$\(|\$\{?[A-Za-z_]\w{0,40}\}?\s{0,3}\(|`/;
const PATH_ENTRY_RE = /^(?:~|\$HOME|\$\{HOME\}|\/usr\/local|\/opt|\$PATH|\$\{PATH\}|\$[A-Z_]{1,40}_HOME|\$\{[A-Z_]{1,40}_HOME\})(?:\/|$)/;
const HIJACK_VARIABLES: ReadonlySet<string> = new Set(lexiconNames('env-hijack-variable'));
/** A file written, copied, linked or made executable inside a home folder (`cat > ~/.local/shims/git`). */
const WRITE_INTO_HOME_RE =
  /(?:>|\b(?:cp|mv|ln|install|tee|chmod)\s)[^\n>]{0,200}?["']?((?:~|\$HOME|\$\{HOME\})(?:\/[\w.-]{1,60}){1,8})\/[\w.-]{1,60}["']?\s{0,3}(?:$|[;&|<])/;
const homeKey = (dir: string): string => dir.replace(/^(?:\$HOME|\$\{HOME\})/, '~').replace(/\/$/, '');

/** Home folders the file puts programs into: on PATH, a program there shadows the real command (a shim). */
const homeFoldersWritten = perFile((ctx: ScanContext): Set<string> => {
  const out = new Set<string>();
  for (const line of ctx.lines) {
    if (!line.includes('/')) continue;
    const m = WRITE_INTO_HOME_RE.exec(line);
    if (m) out.add(homeKey(m[1]));
  }
  return out;
});

function routineProfileExport(line: string, ctx: ScanContext): boolean {
  const m = RC_EXPORT_APPEND_RE.exec(line);
  if (!m) return false;
  const name = m[1] ?? m[3];
  const value = m[2] ?? m[4];
  if (HIJACK_VARIABLES.has(name) || SUBSTITUTION_RE.test(value)) return false;
  if (name !== 'PATH') return !/\$(?!HOME\b|\{HOME\})/.test(value);
  const written = homeFoldersWritten(ctx);
  return value
    .replace(/^["']|["']$/g, '')
    .split(':')
    .every((entry) => PATH_ENTRY_RE.test(entry) && !written.has(homeKey(entry)));
}

export const privPersistenceRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-004',
    title: 'Persistence or backdoor (authorized_keys, cron, shell rc, services, tunnels)',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'Adding SSH keys, installing cron jobs or login services, appending commands to shell start-up files and opening reverse SSH tunnels give the author lasting access that survives the session.',
    example: 'echo "ssh-ed25519 AAAA… x@y" >> ~/.ssh/authorized_keys',
  },
  triggers: [
    'authorized_keys',
    'crontab',
    '/etc/cron',
    'ssh',
    '.bashrc',
    '.zshrc',
    '.profile',
    '.bash_profile',
    '.zprofile',
    'systemctl',
    'launchagents',
    'persistent',
    'cannot be removed',
  ],
  patterns: [
    />>?\s{0,3}["']?(?:~|\$HOME|\/root|\/home\/[\w.-]{1,32})\/\.ssh\/authorized_keys/,
    /\bcrontab\s{1,3}-\s{0,3}(?:$|[;&|)])|\|\s{0,3}crontab\s{1,3}-/m,
    /\/etc\/cron(?:tab|\.d\/|\.(?:hourly|daily))[^\n]{0,10}/,
    /\bssh\s{1,3}[^\n]{0,80}-[a-zA-Z]{0,4}R\s{0,3}\d{2,5}:(?:localhost|127\.0\.0\.1):\d{1,5}/,
    />>\s{0,3}["']?(?:~|\$HOME)\/\.(?:bashrc|zshrc|profile|bash_profile|zprofile)["']?/,
    /\bsystemctl\s{1,3}(?:--user\s{1,3})?enable\s{1,3}(?:--now\s{1,3})?[\w@.-]{1,60}/,
    /Library\/LaunchAgents\/[\w.-]{1,80}\.plist/,
    /\b(?:installs?|creates?)\s{1,3}a\s{1,3}persistent\s{1,3}(?:background\s{1,3})?(?:service|daemon|process|agent)\b/i,
    /\bcannot be removed by (?:uninstalling|removing)\b/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine(hit, _m, ctx) {
    const line = ctx.lines[hit.line - 1] ?? '';
    // A hard-coded public key or a reverse tunnel in a scheduled job is a backdoor, not setup.
    if (/ssh-(?:rsa|ed25519|dss)|ecdsa-sha2/.test(line) || (/crontab/.test(line) && /\bssh\b[^\n]{0,80}-[a-zA-Z]{0,4}R\b|curl|wget|nc\s/.test(line))) {
      return { ...hit, severity: 'critical' };
    }
    if (REMOTE_PAYLOAD_RE.test(line)) return hit;
    // Routine setup: a constant variable or a home-folder PATH entry added to the user's profile.
    if (routineProfileExport(line, ctx))
      return { ...hit, severity: 'low', message: "Routine shell setup: a variable or PATH entry added to the user's shell profile" };
    // Persistence the user puts in place knowingly: a script's job installed after the user said
    // yes at a prompt, a system service enabled through sudo in setup docs, a login item a document
    // describes rather than orders written.
    const low = { ...hit, severity: 'low' as const, message: 'Persistence the user sets up knowingly (consent prompt, sudo setup step or description)' };
    if (ctx.executable) return scriptConsentGateLine(ctx) > 0 && hit.line > scriptConsentGateLine(ctx) ? low : hit;
    if (SUDO_SYSTEM_ENABLE_RE.test(line) && !REMOTE_PAYLOAD_RE.test(sentenceAround(ctx, hit.line, hit.evidence))) return low;
    if (/LaunchAgents/.test(hit.evidence) && !IMPERATIVE_INSTALL_RE.test(sentenceAround(ctx, hit.line, hit.evidence))) return low;
    if (blockOfferedOnConsent(ctx, hit.line)) return low;
    return hit;
  },
});

/**
 * The code block holding this 1-based line is offered only on the user's yes: the line that
 * introduces it grants consent in the instruction layer's reading ("Only after the user approves:").
 */
function blockOfferedOnConsent(ctx: ScanContext, line: number): boolean {
  if (!ctx.lineInfo[line - 1]?.inFence) return false;
  const opener = fenceOpener(ctx.lineInfo, line - 1);
  let lead = opener - 1;
  // The line above the opener, past at most two blank lines.
  while (lead >= 0 && lead > opener - 3 && ctx.lines[lead].trim() === '') lead--;
  if (lead < 0) return false;
  const { instructions } = instructionsOf(ctx);
  for (let i = firstInstructionFrom(instructions, lead + 1); i < instructions.length && instructions[i].line === lead + 1; i++) {
    if (instructions[i].slots.some((s) => s.cls === 'consent-given' && !s.negated)) return true;
  }
  return false;
}

/** The routine-export patterns of the refinement, for the ReDoS check. */
export const PROFILE_EXPORT_REGEXES: readonly RegExp[] = [RC_EXPORT_APPEND_RE, SUBSTITUTION_RE, PATH_ENTRY_RE, WRITE_INTO_HOME_RE];
