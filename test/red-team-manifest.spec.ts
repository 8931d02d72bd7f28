import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BANDS, RISK_CATEGORIES, type Band, type RiskCategory } from '../src/scanner/engine/scan-report.types';
import { DEFAULT_SCAN_LIMITS } from '../src/scanner/archive/scan-limits';
import { loadManifest, SAMPLE_KINDS, SAMPLE_LABELS, type CorpusSample } from '../src/scanner/eval/corpus-loader';

/**
 * Keeps the red-team sets (test/fixtures/red-team, and test/fixtures/red-team-blind written without
 * sight of the rules) valid, safe evaluation corpora: every entry
 * loads and fits the upload limits, labels use the manifest vocabulary, each technique family has
 * attacks and benign counterparts, and no sample names a network destination outside the reserved
 * names and documentation ranges. Destinations inside encoded payloads (decode-chain samples) are
 * not visible here; they were written under the same reserved names before encoding.
 */
/**
 * The blind set's authors kept every attack destination reserved, but its realistic files name
 * well-known services for what they legitimately do (a `$schema` URL, an official installer, a
 * vendor's own API) and some words the host pattern reads as names (`logger.info`). Each is listed
 * here, so any other real host still fails.
 */
const BLIND_SET_NAMED_SERVICES = [
  'json.schemastore.org',
  'api.githubcopilot.com',
  'registry.npmjs.org',
  'geocoding-api.open-meteo.com',
  'api.open-meteo.com',
  'github.com',
  'www.apple.com',
  'europe-docker.pkg.dev',
  'astral.sh',
  'raw.githubusercontent.com',
  'mcp.sentry.dev',
  'docs.python.org',
  'developer.mozilla.org',
  'mcp.linear.app',
  'ffmpeg.org',
  'api.github.com',
  '169.254.169.254',
  'core.net',
  'logger.info',
  'Fly.io',
  '$h.$d',
  'gw.prompt',
  'api.openai.com',
  'System.Net',
  'api.anthropic.com',
  'api.stripe.com',
  'api.weather.gov',
  'compose.dev',
  'deno.land',
  'docs.astral.sh',
  'false',
  'files.pythonhosted.org',
  'ghcr.io',
  'learn.microsoft.com',
  'log.info',
  'modernc.org',
  'nodejs.org',
  'npmjs.com',
  'objects.githubusercontent.com',
  'p.dev',
  'pypi.org',
  'registry-1.docker.io',
  'token.actions.githubusercontent.com',
  'uploads.github.com',
];
const SETS = [
  { name: 'red-team', idPrefixes: ['rt', 'rt-g7', 'rt-g8'], minSamples: 200, namedServices: [] as string[] },
  { name: 'red-team-blind', idPrefixes: ['bl', 'b2', 'b3', 'b4', 'b5', 'b6'], minSamples: 575, namedServices: BLIND_SET_NAMED_SERVICES },
];

const RESERVED_SUFFIXES = ['.example', '.invalid'];
const LOOPBACK_HOSTS = new Set(['localhost', '0.0.0.0']);
const DOCUMENTATION_PREFIXES = ['192.0.2.', '198.51.100.', '203.0.113.', '127.'];

function isAllowedHost(host: string): boolean {
  const h = host.toLowerCase();
  if (LOOPBACK_HOSTS.has(h) || RESERVED_SUFFIXES.some((s) => h.endsWith(s))) return true;
  return DOCUMENTATION_PREFIXES.some((p) => h.startsWith(p)) && /^\d{1,3}(?:\.\d{1,3}){3}$/.test(h);
}

// Network schemes only: s3:// and gs:// name storage buckets, not hosts.
const URL_AUTHORITY = /\b(?:https?|wss?|ftp|ssh|git(?:\+https?|\+ssh)?):\/\/([^\s/"'`<>()\\|]+)/gi;

const IPV4 = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!\.?\d)/g;
// Public top-level domains likely to appear in agent files; a bare name under one is a real host.
const PUBLIC_HOSTNAME = /(?<![\w.-])(?:[a-z\d-]{1,63}\.){1,8}(?:com|net|org|io|co|ru|cn|xyz|ly|gg|info|biz|top|site|online|dev|ai|cloud)(?![\w-])/gi;

/** Every network destination a text names that is neither reserved, documentation range nor loopback. */
function unreservedDestinations(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(URL_AUTHORITY)) {
    const host = m[1]
      .slice(m[1].lastIndexOf('@') + 1)
      .replace(/[.,;:]+$/, '')
      .replace(/:\d+$/, '');
    if (!isAllowedHost(host)) found.add(host);
  }
  for (const m of text.matchAll(IPV4)) if (!isAllowedHost(m[0])) found.add(m[0]);
  for (const m of text.matchAll(PUBLIC_HOSTNAME)) found.add(m[0]);
  return [...found];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

const ATTACK_LABELS = new Set(['malicious', 'suspicious']);
const bandOk = (b: unknown): b is Band => BANDS.includes(b as Band);

describe.each(SETS)('red-team set test/fixtures/$name', ({ name, idPrefixes, minSamples, namedServices }) => {
  const SET_DIR = join(__dirname, 'fixtures', name);
  const samples: CorpusSample[] = loadManifest(SET_DIR);

  it(`has at least ${minSamples} samples with unique ids of the form <prefix>-<family>-<nn>-<m|s|b>`, () => {
    expect(samples.length).toBeGreaterThanOrEqual(minSamples);
    const ids = samples.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of samples) expect(idPrefixes.map((p) => `${p}-${s.family}-${/-(\d{2})-[msb]$/.exec(s.id)?.[1]}-${s.label[0]}`)).toContain(s.id);
  });

  it('lists exactly the files of each sample folder, within the upload limits', () => {
    for (const s of samples) {
      const dir = join(SET_DIR, 'samples', s.id);
      const onDisk = filesUnder(dir)
        .map((f) => relative(dir, f))
        .sort();
      expect({ id: s.id, files: [...s.files].sort() }).toEqual({ id: s.id, files: onDisk });
      expect(s.files.length).toBeLessThanOrEqual(DEFAULT_SCAN_LIMITS.maxFiles);
      for (const f of s.files) expect({ id: s.id, f, ok: statSync(join(dir, f)).size <= DEFAULT_SCAN_LIMITS.maxFileBytes }).toEqual({ id: s.id, f, ok: true });
    }
  });

  it('uses valid labels, kinds, categories and bands', () => {
    for (const s of samples) {
      const problems: string[] = [];
      if (!SAMPLE_LABELS.includes(s.label)) problems.push(`label ${s.label}`);
      if (!(SAMPLE_KINDS as readonly string[]).includes(s.kind)) problems.push(`kind ${s.kind}`);
      if (s.source !== 'authored') problems.push(`source ${s.source}`);
      if (!s.family) problems.push('no family');
      for (const c of s.categories) if (!RISK_CATEGORIES.includes(c as RiskCategory)) problems.push(`category ${c}`);
      if (s.max_band !== undefined && !bandOk(s.max_band)) problems.push(`max_band ${s.max_band}`);
      if (ATTACK_LABELS.has(s.label)) {
        if (s.categories.length === 0) problems.push('attack without categories');
        if (!bandOk(s.min_band)) problems.push(`min_band ${s.min_band}`);
      } else if (s.categories.length > 0 || s.min_band !== null) problems.push('benign with categories or min_band');
      for (const f of s.malicious_files ?? []) if (!s.files.includes(f)) problems.push(`malicious_files ${f} not in files`);
      expect({ id: s.id, problems }).toEqual({ id: s.id, problems: [] });
    }
  });

  it('gives every technique family attacks and benign counterparts, and documents it in the README', () => {
    const readme = readFileSync(join(SET_DIR, 'README.md'), 'utf8');
    const families = new Map<string, { attack: number; benign: number }>();
    for (const s of samples) {
      const f = families.get(s.family ?? '') ?? { attack: 0, benign: 0 };
      if (ATTACK_LABELS.has(s.label)) f.attack++;
      else f.benign++;
      families.set(s.family ?? '', f);
    }
    for (const [family, n] of families) {
      expect({ family, attack: n.attack > 0, benign: n.benign > 0, documented: readme.includes(`\`${family}\``) }).toEqual({
        family,
        attack: true,
        benign: true,
        documented: true,
      });
    }
    const attackShare = samples.filter((s) => ATTACK_LABELS.has(s.label)).length / samples.length;
    expect(attackShare).toBeGreaterThan(0.45);
    expect(attackShare).toBeLessThan(0.65);
  });

  it('names no network destination outside .example/.invalid, documentation ranges and loopback', () => {
    const offenders: string[] = [];
    for (const s of samples) {
      for (const f of s.files) {
        const hosts = unreservedDestinations(readFileSync(join(SET_DIR, 'samples', s.id, f), 'utf8')).filter((h) => !namedServices.includes(h));
        if (hosts.length > 0) offenders.push(`${s.id}/${f}: ${hosts.join(', ')}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the destination check itself rejects real hosts and accepts reserved ones', () => {
    expect(unreservedDestinations('curl https://user:pw@evil.com:8443/x and 8.8.8.8 and mail ops@corp.io')).toEqual(['evil.com', '8.8.8.8', 'corp.io']);
    expect(unreservedDestinations('https://a.b.example/x http://203.0.113.7:80/ http://localhost:4000. s.invalid 127.0.0.1')).toEqual([]);
  });
});
