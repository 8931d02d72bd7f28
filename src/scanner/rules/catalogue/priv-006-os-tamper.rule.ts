import { codeFactsOf, type CodeCall } from '../../code/code-facts';
import type { Rule, RuleHit } from '../rule.types';

const HOSTS_FILE = /(?:^|[\\/])etc[\\/]hosts$/i;
const HOSTS_ENTRY = /^\s{0,8}(\d{1,3}(?:\.\d{1,3}){3}|[\da-f:]{2,39})\s{1,20}([\w.-]{1,200}(?:\s{1,20}[\w.-]{1,200}){0,8})\s{0,8}$/i;
const LOOPBACK = /^(?:127\.|0\.0\.0\.0$|::1$)/;
/** Names that only ever resolve locally (RFC 6761/6762 and common dev suffixes). */
const LOCAL_NAME = /(?:^localhost|\.(?:local|localhost|test|internal|lan|home\.arpa|example|invalid))$/i;
const DEFENDER_DISABLE = /^-disable\w{1,60}$/i;
const DEFENDER_EXCLUSION = /^-exclusion(?:path|process|extension)$/i;
const BROAD_EXCLUSION =
  /^(?:[a-z]:[\\/]?(?:users[\\/]?|windows[\\/]?|program files[^,]{0,20})?|\/tmp|~|\*|\*\.\w{1,5}|(?:powershell|pwsh|cmd|wscript|cscript|rundll32|mshta)\.exe)$/i;
const PORT_WEB = /^(?:80|443|53)$/;

type Grade = { severity: 'critical' | 'high' | 'medium'; message: string } | null;

function lowered(call: CodeCall): string[] {
  return call.args.map((a) => a.toLowerCase());
}

/** An entry written to the hosts file, graded by what it redirects. */
function gradeHostsEntries(entries: readonly string[]): Grade {
  let worst: Grade = null;
  for (const e of entries) {
    const m = HOSTS_ENTRY.exec(e);
    if (!m) continue;
    const names = m[2].split(/\s+/).filter((n) => !LOCAL_NAME.test(n) || /\.(?:example|invalid)$/i.test(n));
    // Reserved documentation names stand for real hosts in examples; only local names are harmless.
    const real = names.filter((n) => !/^localhost$|\.(?:local|localhost|test|lan|home\.arpa)$/i.test(n));
    if (real.length === 0) continue;
    if (!LOOPBACK.test(m[1])) return { severity: 'critical', message: 'The hosts file is made to send real host names to another address' };
    worst = { severity: 'high', message: 'The hosts file is made to resolve real host names locally' };
  }
  return worst;
}

function grade(call: CodeCall, prev: CodeCall | undefined): Grade {
  const a = lowered(call);
  const name = call.name;
  // Writes to the hosts file: `echo … >> /etc/hosts`, `… | tee -a /etc/hosts`, Add-Content -Path hosts.
  const writesHosts =
    call.redirects.some((r) => HOSTS_FILE.test(r.replace(/^>{1,2}/, ''))) ||
    ((name === 'tee' || name === 'add-content' || name === 'set-content' || name === 'out-file') && call.args.some((x) => HOSTS_FILE.test(x)));
  if (writesHosts) {
    const source = call.redirects.length > 0 ? call : prev;
    const entries =
      name === 'add-content' || name === 'set-content'
        ? [call.args[call.args.indexOf('-value') + 1] ?? '']
        : (source?.args ?? []).filter((x) => !x.startsWith('-')).map((x) => x.replace(/\\n/g, ' '));
    return gradeHostsEntries(entries.length > 0 ? entries : [source?.args.join(' ') ?? '']);
  }
  if (name === 'set-mppreference' && a.some((x) => DEFENDER_DISABLE.test(x))) {
    const i = a.findIndex((x) => DEFENDER_DISABLE.test(x));
    if ((a[i + 1] ?? '$true') !== '$false') return { severity: 'critical', message: 'Microsoft Defender protection is switched off' };
  }
  if ((name === 'add-mppreference' || name === 'set-mppreference') && a.some((x) => DEFENDER_EXCLUSION.test(x))) {
    const i = a.findIndex((x) => DEFENDER_EXCLUSION.test(x));
    const values = (call.args[i + 1] ?? '').split(/\s{0,3},\s{0,3}/);
    if (values.some((v) => BROAD_EXCLUSION.test(v.trim())))
      return { severity: 'critical', message: 'A broad Microsoft Defender exclusion (a drive, the user folders, temp or a script host)' };
    return { severity: 'medium', message: 'A Microsoft Defender exclusion' };
  }
  if (name === 'netsh' && a.includes('advfirewall') && a.includes('off')) return { severity: 'critical', message: 'The Windows firewall is switched off' };
  if (name === 'set-netfirewallprofile' && a.some((x) => x === 'false' || x === '$false'))
    return { severity: 'critical', message: 'The Windows firewall is switched off' };
  if (name === 'ufw' && a[0] === 'disable') return { severity: 'critical', message: 'The firewall is switched off' };
  if (
    (name === 'systemctl' || name === 'service') &&
    (a.includes('stop') || a.includes('disable') || a.includes('mask')) &&
    a.some((x) => /^(?:ufw|firewalld|iptables|nftables|apparmor|auditd)(?:\.service)?$/.test(x))
  )
    return { severity: 'critical', message: 'A host firewall or audit service is stopped' };
  if (name === 'iptables' || name === 'ip6tables') {
    if (a.includes('-f') || a.includes('--flush')) return { severity: 'high', message: 'Firewall rules are flushed' };
    if (a.includes('-p') && a.includes('accept') && a.length <= 4) return { severity: 'high', message: 'The firewall is set to accept everything' };
    const port = a[a.indexOf('--dport') + 1] ?? '';
    if ((a.includes('redirect') || a.includes('dnat')) && a.includes('--dport') && PORT_WEB.test(port))
      return { severity: 'high', message: 'Web or DNS traffic is redirected by the firewall' };
  }
  if (name === 'nft' && a.includes('flush') && a.includes('ruleset')) return { severity: 'high', message: 'Firewall rules are flushed' };
  if (name === 'spctl' && a.some((x) => x === '--master-disable' || x === '--global-disable'))
    return { severity: 'critical', message: 'Gatekeeper is switched off' };
  if (name === 'csrutil' && a[0] === 'disable') return { severity: 'critical', message: 'System Integrity Protection is switched off' };
  if (name === 'setenforce' && (a[0] === '0' || a[0] === 'permissive')) return { severity: 'high', message: 'SELinux enforcement is switched off' };
  return null;
}

/** Code changes an operating-system control: hosts file, firewall, malware protection, code-signing gates. */
export const privOsTamperRule: Rule = {
  meta: {
    id: 'BW-PRIV-006',
    title: 'OS tampering: hosts file, firewall, Defender, Gatekeeper/SIP',
    category: 'privilege_escalation',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'code_block',
    rationale:
      'Redirecting real host names in the hosts file (package registries, code hosts, update servers), switching off or flushing the firewall, redirecting web traffic, switching off Microsoft Defender or excluding whole drives, user folders or script hosts from it, and disabling Gatekeeper, SIP or SELinux weaken the machine for everything that follows. Read from parse trees of scripts and commands in agent files, with the written hosts entries and exclusion values resolved; local development names and narrow exclusions are not flagged or are weaker.',
    example: '```powershell\nAdd-MpPreference -ExclusionPath "C:\\"\n```',
  },
  regexes: [HOSTS_FILE, HOSTS_ENTRY, LOOPBACK, LOCAL_NAME, DEFENDER_DISABLE, DEFENDER_EXCLUSION, BROAD_EXCLUSION, PORT_WEB],
  match(ctx) {
    const hits: RuleHit[] = [];
    const { calls } = codeFactsOf(ctx);
    for (let i = 0; i < calls.length; i++) {
      const prev = i > 0 && calls[i - 1].line === calls[i].line ? calls[i - 1] : undefined;
      const g = grade(calls[i], prev);
      if (g) hits.push({ line: calls[i].line, evidence: calls[i].text, severity: g.severity, message: g.message });
    }
    return hits;
  },
};
