import { defineRegexRule } from '../regex-rule';

export const privDisableSecurityRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-005',
    title: 'Disabling security tooling (antivirus, firewall, SELinux, Gatekeeper, SIP)',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'Turning off Defender/antivirus, the firewall, SELinux/AppArmor, Gatekeeper or SIP is a classic malware set-up step: it removes the controls that would stop what runs next.',
    example: 'Set-MpPreference -DisableRealtimeMonitoring $true',
  },
  triggers: ['turn', 'disable', 'deactivate', 'stop', 'uninstall', 'kill', 'bypass', 'switch', 'set-mppreference', 'add-mppreference', 'setenforce', 'ufw', 'systemctl', 'iptables', 'csrutil', 'spctl'],
  patterns: [
    /\b(?:turn\s{1,3}off|disable|deactivate|stop|uninstall|kill|bypass|switch\s{1,3}off)\s{1,3}(?:the\s{1,3}|your\s{1,3})?(?:windows\s{1,3})?(?:defender|anti-?virus|anti-?malware|firewall|selinux|apparmor|gatekeeper|system integrity protection|xprotect|edr|endpoint protection|crowdstrike|sentinel\s{0,3}one|real-?time (?:protection|monitoring))\b/i,
    /\bSet-MpPreference\b[^\n]{0,60}-Disable\w{0,40}\s{1,3}\$?true/i,
    /\b(?:Add-MpPreference\s{1,3}-ExclusionPath)\b/i,
    /\bsetenforce\s{1,3}0\b|\bufw\s{1,3}disable\b|\bsystemctl\s{1,3}(?:stop|disable)\s{1,3}(?:firewalld|apparmor|auditd)\b|\biptables\s{1,3}-F\b/,
    /\bcsrutil\s{1,3}disable\b|\bspctl\s{1,3}--master-disable\b/,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
});
