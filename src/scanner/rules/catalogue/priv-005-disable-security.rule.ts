import { defineRegexRule } from '../regex-rule';

export const privDisableSecurityRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-005',
    title: 'Disabling security tooling (antivirus, firewall, SELinux, Gatekeeper, SIP, branch protection)',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      "Turning off Defender/antivirus, the firewall, SELinux/AppArmor, Gatekeeper or SIP is a classic malware set-up step: it removes the controls that would stop what runs next. Deleting a branch's protection through the GitHub API removes the review and status checks that guard what reaches it.",
    example: 'Set-MpPreference -DisableRealtimeMonitoring $true',
  },
  triggers: [
    'turn',
    'disable',
    'deactivate',
    'stop',
    'uninstall',
    'kill',
    'bypass',
    'switch',
    'set-mppreference',
    'add-mppreference',
    'setenforce',
    'ufw',
    'systemctl',
    'iptables',
    'csrutil',
    'spctl',
    '/protection',
  ],
  patterns: [
    /\b(?:turn\s{1,3}off|disable|deactivate|stop|uninstall|kill|bypass|switch\s{1,3}off)\s{1,3}(?:the\s{1,3}|your\s{1,3})?(?:windows\s{1,3})?(?:defender|anti-?virus|anti-?malware|firewall|selinux|apparmor|gatekeeper|system integrity protection|xprotect|edr|endpoint protection|crowdstrike|sentinel\s{0,3}one|real-?time (?:protection|monitoring))\b/i,
    /\bSet-MpPreference\b[^\n]{0,60}-Disable\w{0,40}\s{1,3}\$?true/i,
    /\b(?:Add-MpPreference\s{1,3}-ExclusionPath)\b/i,
    /\bsetenforce\s{1,3}0\b|\bufw\s{1,3}disable\b|\bsystemctl\s{1,3}(?:stop|disable)\s{1,3}(?:firewalld|apparmor|auditd)\b|\biptables\s{1,3}-F\b/,
    /\bcsrutil\s{1,3}disable\b|\bspctl\s{1,3}--master-disable\b/,
    // A DELETE of a branch's protection (gh api, curl), the method before or after the path.
    /(?:-X\s{0,3}|--method[\s=]{1,3}|--request\s{1,3})DELETE\b[^\n]{0,160}\/branches\/[^\s/]{1,100}\/protection\b|\/branches\/[^\s/]{1,100}\/protection\b[^\n]{0,120}(?:-X\s{0,3}|--method[\s=]{1,3}|--request\s{1,3})DELETE\b/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
});
