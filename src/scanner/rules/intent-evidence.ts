/**
 * Evidence classes that raise a supply-chain or configuration finding from risky practice to an
 * attack (docs/decisions/0010-evidence-escalation.md), computed one way for every rule that grades with them:
 * concealment or removed consent near the finding, a change that lands in the user's home
 * directory (every project, every session), an insecure or impersonating destination. Rules keep
 * their own base severity and climb the ladder by the evidence present, so each rule's policy reads
 * as "base + which classes escalate".
 */
import { SEVERITIES, severityRank, type Severity } from '../engine/scan-report.types';
import { firstInstructionFrom, instructionsOf } from '../instructions/instructions';
import { lexiconNames } from '../lexicons/lexicon';
import type { ScanContext } from '../views/scan-context';
import { HOME_AGENT_CONFIG_PATHS, SHELL_PROFILE_TARGETS, VENDOR_API_HOSTS, VENDOR_BRANDS } from './mcp-lexicon';

/** `sev` raised by `steps` (negative lowers), clamped to the ladder. */
export function raiseSeverity(sev: Severity, steps: number): Severity {
  const i = Math.max(1, Math.min(SEVERITIES.length - 1, severityRank(sev) + steps));
  return SEVERITIES[i];
}

/**
 * An un-negated concealment or consent-bypass phrase ("no need to tell the user", "without asking",
 * "the user does not need to review them") in an instruction within `reach` lines: the finding's
 * action is meant to happen unseen. Prohibitions, quotations and examples do not count (their
 * phrases are negated or their mood says so).
 */
export function concealedNear(ctx: ScanContext, line: number, reach = 3): boolean {
  const { instructions } = instructionsOf(ctx);
  for (let k = firstInstructionFrom(instructions, line - reach); k < instructions.length; k++) {
    const ins = instructions[k];
    if (ins.line > line + reach) break;
    if (ins.mood === 'prohibition' || ins.mood === 'quotation' || ins.mood === 'example') continue;
    if (ins.classes.has('concealment') || ins.classes.has('consent-bypass')) return true;
  }
  return false;
}

const escapePath = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\//g, '[/\\\\]');
/** The home directory as text, shell, PowerShell, Windows variables and code (`Path.home()`, `os.homedir()`, a `home` variable). */
const HOME_PREFIX = String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|%APPDATA%|\$env:USERPROFILE|\$env:APPDATA|/home/[\w.-]{1,32}|/Users/[\w.-]{1,32}|/root|expanduser\(\s{0,2}["']~|Path\.home\(\)[^\n]{0,40}|homedir\(\)[^\n]{0,40}|\bhome(?:_?dir)?\b)`;

/** A home-directory agent config path (`~/.cursor/mcp.json`, `$HOME/.claude.json`, `home / ".gemini/settings.json"`). */
export const HOME_CONFIG = new RegExp(String.raw`${HOME_PREFIX}[/\\"', ]{1,4}(?:${HOME_AGENT_CONFIG_PATHS.map(escapePath).join('|')})`, 'gi');
/**
 * A home-directory agent config path as a string of its own (`".cursor/mcp.json"` in a list), which
 * a program joins to the home folder elsewhere (HOME_FOLDER_READ).
 */
export const BARE_HOME_CONFIG = new RegExp(String.raw`["'\x60](?:\.?[/\\])?(?:${HOME_AGENT_CONFIG_PATHS.map(escapePath).join('|')})["'\x60]`, 'gi');
/** A program reading where the user's home folder is (`os.homedir()`, `Path.home()`, `$HOME`, `os.environ["HOME"]`). */
export const HOME_FOLDER_READ =
  /\bhomedir\s{0,2}\(|\bPath\.home\s{0,2}\(|\bexpanduser\s{0,2}\(|\$HOME\b|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|\bprocess\.env\.(?:HOME|USERPROFILE)\b|\benviron(?:\.get\s{0,2}\(|\[)\s{0,2}["'](?:HOME|USERPROFILE)["']|\bgetenv\s{0,2}\(\s{0,2}["'](?:HOME|USERPROFILE)["']/;
/** The user's shell profile or persistent environment (`~/.zshrc`, `setx`, `[Environment]::SetEnvironmentVariable(…, 'User')`). */
const SHELL_PROFILE = new RegExp(
  String.raw`${HOME_PREFIX}[/\\]{1,2}(?:${SHELL_PROFILE_TARGETS.map(escapePath).join('|')})\b|\bsetx\s|SetEnvironmentVariable\s{0,2}\([^\n]{0,120}["'](?:User|Machine)["']|\blaunchctl\s{1,3}setenv\b|/etc/(?:environment|profile)\b|\$PROFILE\b`,
  'i',
);

/** Text that places a setting in the user's home directory: an agent config there, or the shell profile. */
export function landsInHome(text: string): boolean {
  HOME_CONFIG.lastIndex = 0;
  const hit = HOME_CONFIG.test(text) || SHELL_PROFILE.test(text);
  HOME_CONFIG.lastIndex = 0;
  return hit;
}

/** Hosts counted as local: a proxy on the user's own machine sees nothing new. */
const LOCAL_HOST = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|0\.0\.0\.0|host\.docker\.internal)$/i;
const IP_LITERAL = /^(?:\d{1,3}\.){3}\d{1,3}$|^\[[0-9a-f:]{2,39}\]$/i;

export function hostOfUrl(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

const CODE_HOSTS: ReadonlySet<string> = new Set(lexiconNames('code-hosting-host'));
/** Owner and repository: the first two path segments of a URL on a code-hosting host. */
const OWNER_AND_REPO = /^\/([^/]{1,100})(?:\/([^/]{1,100}))?/;

/** An https URL on a host that serves many owners' public repositories (lexicon code-hosting-host). */
export function onCodeHost(url: string): boolean {
  const host = url.toLowerCase().startsWith('https://') ? hostOfUrl(url) : null;
  return host !== null && CODE_HOSTS.has(host);
}

/** Whose code a URL names: its host, and on a host that serves many owners' repositories, the owner and repository too. */
export function sourceOfUrl(url: string): string | null {
  const host = hostOfUrl(url);
  if (host === null || !CODE_HOSTS.has(host)) return host;
  const m = OWNER_AND_REPO.exec(new URL(url).pathname);
  return m ? `${host} ${m[1]} ${m[2] ?? ''}`.toLowerCase() : host;
}

export function isLocalHost(host: string): boolean {
  return LOCAL_HOST.test(host);
}

/** Plain http or a bare IP address to a remote host: no name to trust, or nothing protecting the traffic. */
export function insecureDestination(url: string): boolean {
  const host = hostOfUrl(url);
  if (host === null || isLocalHost(host)) return false;
  return /^http:\/\//i.test(url) || IP_LITERAL.test(host);
}

export function isVendorApiHost(host: string): boolean {
  return VENDOR_API_HOSTS.some((v) => host === v || host.endsWith(`.${v}`) || host.includes(v));
}

/** A host that carries a model vendor's brand but is not the vendor's (`api.openai-mirror.test`). */
export function imitatesVendor(host: string): boolean {
  if (isVendorApiHost(host)) return false;
  const labels = host.split(/[.-]/);
  return VENDOR_BRANDS.some((b) => labels.includes(b));
}

export const INTENT_EVIDENCE_REGEXES: readonly RegExp[] = [HOME_CONFIG, SHELL_PROFILE, LOCAL_HOST, IP_LITERAL];
