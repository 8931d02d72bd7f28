import { IMPERATIVE_INSTALL_RE, REMOTE_PAYLOAD_RE, scriptConsentGateLine, SUDO_SYSTEM_ENABLE_RE } from '../benign-forms';
import { defineRegexRule, sentenceAround } from '../regex-rule';

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
    // Persistence the user puts in place knowingly: a script's job installed after the user said
    // yes at a prompt, a system service enabled through sudo in setup docs, a login item a document
    // describes rather than orders written.
    const low = { ...hit, severity: 'low' as const, message: 'Persistence the user sets up knowingly (consent prompt, sudo setup step or description)' };
    if (ctx.executable) return scriptConsentGateLine(ctx) > 0 && hit.line > scriptConsentGateLine(ctx) ? low : hit;
    if (SUDO_SYSTEM_ENABLE_RE.test(line) && !REMOTE_PAYLOAD_RE.test(sentenceAround(ctx, hit.line, hit.evidence))) return low;
    if (/LaunchAgents/.test(hit.evidence) && !IMPERATIVE_INSTALL_RE.test(sentenceAround(ctx, hit.line, hit.evidence))) return low;
    return hit;
  },
});
