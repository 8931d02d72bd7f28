/**
 * Install scripts published by the makers of well-known developer tools, by the host (and, on
 * shared hosts, the repository path) they are served from. Piping one of these into a shell is
 * how the tool's own documentation installs it: unreviewed remote code, but from the party the
 * user already trusts with the tool, so it is rated at most medium. Hosts are read with the WHATWG
 * URL parser (credential-vendors.ts), so look-alike URLs do not qualify.
 */
import { realHost } from './credential-vendors';

interface InstallerSource {
  host: string;
  /** On hosts that serve everyone's files, the publisher's path prefix. */
  pathPrefix?: string;
  /** The host resolves paths whatever their case (a short-link service): the prefix is compared case-insensitively. */
  anyCase?: boolean;
}

const OFFICIAL_INSTALLERS: readonly InstallerSource[] = [
  { host: 'astral.sh' },
  { host: 'sh.rustup.rs' },
  { host: 'bun.sh' },
  { host: 'deno.land' },
  { host: 'claude.ai', pathPrefix: '/install' },
  { host: 'get.docker.com' },
  { host: 'fnm.vercel.app' },
  { host: 'get.pnpm.io' },
  { host: 'install.python-poetry.org' },
  { host: 'pyenv.run' },
  { host: 'get.sdkman.io' },
  { host: 'starship.rs' },
  { host: 'ollama.com', pathPrefix: '/install' },
  { host: 'cli.github.com' },
  { host: 'raw.githubusercontent.com', pathPrefix: '/Homebrew/install/' },
  { host: 'raw.githubusercontent.com', pathPrefix: '/nvm-sh/nvm/' },
  { host: 'github.com', pathPrefix: '/j178/prek/releases/' },
  { host: 'aka.ms', pathPrefix: '/install', anyCase: true },
  { host: 'fluxcd.io', pathPrefix: '/install' },
  { host: 'aspire.dev', pathPrefix: '/install' },
  { host: 'app.factory.ai', pathPrefix: '/cli' },
  { host: 'apt.llvm.org' },
  { host: 'sdk.cloud.google.com' },
  { host: 'deb.nodesource.com' },
  { host: 'community.chocolatey.org', pathPrefix: '/install.ps1' },
];

const URL_RE = /\bhttps:\/\/[^\s"'`<>()|;\\]{1,300}/gi;
/**
 * A PowerShell fetch of an address written without its scheme (`irm bun.sh/install.ps1 | iex`, the
 * form vendors document for Windows): the host is read as written and must be an official one too.
 */
const BARE_FETCH_RE =
  /\b(?:irm|iwr|Invoke-RestMethod|Invoke-WebRequest)\s{1,3}(?:-Uri\s{1,3})?([a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){1,6}\/[^\s"'`<>()|;\\]{0,300})/gi;

/** Every https URL on the line (and every scheme-less PowerShell fetch) is an official installer, and there is at least one. */
export function onlyOfficialInstallers(line: string): boolean {
  const urls = [...line.matchAll(URL_RE)].map((m) => m[0]);
  for (const m of line.matchAll(BARE_FETCH_RE)) urls.push(`https://${m[1]}`);
  if (urls.length === 0) return false;
  return urls.every((u) => {
    const host = realHost(u);
    if (host === null) return false;
    const path = new URL(u).pathname;
    return OFFICIAL_INSTALLERS.some((s) => s.host === host && (s.pathPrefix === undefined || (s.anyCase ? path.toLowerCase() : path).startsWith(s.pathPrefix)));
  });
}

export const OFFICIAL_INSTALLER_REGEXES: readonly RegExp[] = [URL_RE, BARE_FETCH_RE];
