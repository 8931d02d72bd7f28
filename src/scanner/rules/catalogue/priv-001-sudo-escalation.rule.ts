import { defineRegexRule, windowText } from '../regex-rule';

/** Root through sudo/SUID/sudoers changes. */
export const peSudoEscalationRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-001',
    title: 'Privilege escalation (sudoers, SUID, password-piped sudo)',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      "Writing NOPASSWD rules into sudoers, setting the SUID bit, piping a password into `sudo -S` or adding the user to the sudo/wheel group gives the file's author lasting root on the user's machine. Plain `sudo apt install` in setup docs is not matched here.",
    example: 'echo "$USER ALL=(ALL) NOPASSWD:ALL" | sudo tee -a /etc/sudoers',
  },
  triggers: ['nopasswd', 'sudoers', 'visudo', 'chmod', 'sudo', 'usermod', 'setcap', '/etc/passwd', '/etc/shadow'],
  patterns: [
    /\bNOPASSWD\s{0,3}:/,
    /(?:>>?|\btee\b(?:\s{1,3}-a)?)\s{0,3}\/etc\/sudoers(?:\.d\/\S{1,60})?/,
    /\bvisudo\b/,
    /\bchmod\s{1,3}(?:-\w{1,3}\s{1,3})?(?:[ugoa]{0,3}\+s\b|[4-7][0-7]{3}\b)/,
    /\bchmod\s{1,3}(?:-R\s{1,3})?(?:0?777|a\+rwx|o\+w)\s{1,3}["']?[\w.~$/-]{1,80}/,
    /\bchmod\s{1,3}-R\s{1,3}[0-7]?777\s{1,3}["']?(?:\/|~|\$HOME|\/(?:usr|etc|var|bin|opt|home))["']?(?:\s|$)/,
    /\becho\s{1,3}[^\n|]{1,80}\|\s{0,3}sudo\s{1,3}-S\b/,
    /\busermod\s{1,3}-a?G\s{1,3}(?:sudo|wheel|admin|root|docker)\b/,
    /\bsetcap\s{1,3}[^\n]{0,40}cap_(?:setuid|sys_admin|dac_override)/i,
    /(?:>>?|\btee\b(?:\s{1,3}-a)?)\s{0,3}\/etc\/(?:passwd|shadow)\b/,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine(hit, _m, ctx) {
    const line = ctx.lines[hit.line - 1] ?? hit.evidence;
    // World-writable project folders are poor practice, not escalation; system paths are.
    if (/chmod\s{1,3}(?:-R\s{1,3})?(?:0?777|a\+rwx|o\+w)\s{1,3}["']?(?![/~$])/.test(hit.evidence)) return { ...hit, severity: 'low' };
    // Password-less root for everything, or a SUID shell/interpreter, is a standing root backdoor.
    if (
      /NOPASSWD\s{0,3}:\s{0,3}ALL/i.test(line) ||
      (/chmod/.test(hit.evidence) && /(?:\/bin\/(?:ba|z|da)?sh|python|perl|\.\w*-?shell|\bfind\b|\bvim?\b|\bcp\s)/.test(windowText(ctx, hit.line, 1)))
    ) {
      return { ...hit, severity: 'critical' };
    }
    return hit;
  },
});
