/**
 * Which service a credential belongs to, and whether a URL's real host is that service: an API key
 * sent to its own vendor's API (ANTHROPIC_API_KEY in an x-api-key header to api.anthropic.com) is
 * how the key is meant to be used, while the same key sent anywhere else is a leak. Hosts are read
 * with the WHATWG URL parser, so look-alike URLs (api.openai.com.evil.test, user@host tricks)
 * resolve to the host that would really receive the request.
 */

interface Vendor {
  /** Prefixes of environment-variable names that hold this vendor's credentials. */
  envPrefixes: readonly string[];
  /** Registrable domains the vendor serves its API from; subdomains count. */
  domains: readonly string[];
  /** A vendor known only by its credential's name: the domain's own label (namedAfter). */
  brand?: string;
}

const VENDORS: readonly Vendor[] = [
  { envPrefixes: ['ANTHROPIC', 'CLAUDE'], domains: ['anthropic.com'] },
  { envPrefixes: ['OPENAI'], domains: ['openai.com'] },
  { envPrefixes: ['GOOGLE', 'GEMINI', 'GCP', 'VERTEX'], domains: ['googleapis.com', 'google.com'] },
  { envPrefixes: ['XAI', 'GROK'], domains: ['x.ai'] },
  { envPrefixes: ['MISTRAL'], domains: ['mistral.ai'] },
  { envPrefixes: ['GROQ'], domains: ['groq.com'] },
  { envPrefixes: ['COHERE', 'CO_API'], domains: ['cohere.com', 'cohere.ai'] },
  { envPrefixes: ['DEEPSEEK'], domains: ['deepseek.com'] },
  { envPrefixes: ['OPENROUTER'], domains: ['openrouter.ai'] },
  { envPrefixes: ['HF', 'HUGGINGFACE', 'HUGGING_FACE'], domains: ['huggingface.co'] },
  { envPrefixes: ['GITHUB', 'GH'], domains: ['github.com', 'githubusercontent.com'] },
  { envPrefixes: ['GITLAB'], domains: ['gitlab.com'] },
  { envPrefixes: ['STRIPE'], domains: ['stripe.com'] },
  { envPrefixes: ['SLACK'], domains: ['slack.com'] },
  { envPrefixes: ['VERCEL'], domains: ['vercel.com'] },
  { envPrefixes: ['CLOUDFLARE', 'CF'], domains: ['cloudflare.com'] },
  { envPrefixes: ['SENTRY'], domains: ['sentry.io'] },
  { envPrefixes: ['LINEAR'], domains: ['linear.app'] },
  { envPrefixes: ['NOTION'], domains: ['notion.com', 'notion.so'] },
  { envPrefixes: ['TAVILY'], domains: ['tavily.com'] },
  { envPrefixes: ['PERPLEXITY', 'PPLX'], domains: ['perplexity.ai'] },
];

/** `$NAME`, `${NAME}`, `process.env.NAME`, `os.environ["NAME"]`: credential-shaped environment names. */
const CREDENTIAL_NAME_RE = /\b([A-Z][A-Z0-9]{0,20}(?:_[A-Z0-9]{1,20}){0,4}_(?:API_KEY|KEY|TOKEN|SECRET|PAT|ACCESS_TOKEN|AUTH_TOKEN))\b/g;
const URL_RE = /\bhttps?:\/\/[^\s"'`<>()\\]{1,300}/gi;

function vendorOf(name: string): Vendor | undefined {
  return VENDORS.find((v) => v.envPrefixes.some((p) => name === p || name.startsWith(`${p}_`)));
}

/** The host that would receive a request to this URL, or null when it does not parse. */
export function realHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function servedBy(host: string, vendor: Vendor): boolean {
  if (vendor.brand !== undefined) {
    const labels = host.split('.');
    const own = labels.length >= 2 ? labels[labels.length - 2] : '';
    return BRAND_SUFFIXES.some((suffix) => own === `${vendor.brand}${suffix}`);
  }
  return vendor.domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/**
 * Every credential the text names belongs to a known vendor, and every URL in it goes to the vendor
 * of each of them: a key on its way to its own API. False when a URL goes anywhere else, when a
 * credential of an unknown or other vendor is named, or when there is no URL to judge.
 */
export function sendsCredentialsOnlyToTheirVendor(text: string): boolean {
  return credentialsOnlyToTheirVendors(
    [...text.matchAll(CREDENTIAL_NAME_RE)].map((m) => m[1]),
    urlsIn(text),
  );
}

/**
 * Every URL in the text is an AWS service endpoint other than S3 (`*.execute-api.*.amazonaws.com`):
 * where the SDK's credentials sign requests. S3 is left out, since anyone's bucket is there.
 */
export function onlyAwsServiceUrls(text: string): boolean {
  const urls = urlsIn(text);
  return (
    urls.length > 0 &&
    urls.every((u) => {
      const host = realHost(u);
      return host !== null && host.endsWith('.amazonaws.com') && !host.split('.').some((label) => label.startsWith('s3'));
    })
  );
}

/** The URLs written in a text (a line of a script, a sentence). */
export function urlsIn(text: string): string[] {
  return text.includes('://') ? [...text.matchAll(URL_RE)].map((m) => m[0]) : [];
}

/** Does the name read like a credential's (`GITHUB_TOKEN`, `OPENAI_API_KEY`)? */
export function isCredentialName(name: string): boolean {
  for (const m of name.matchAll(CREDENTIAL_NAME_RE)) if (m[1] === name) return true;
  return false;
}

/** Words a service adds to its name in its domain (`lumalabs.ai` for LUMA_API_KEY). */
const BRAND_SUFFIXES = ['', 'labs', 'ai', 'hq', 'app', 'api', 'io', 'dev', 'cloud'];

/**
 * A service the table does not list, by its name: the credential's first word is the domain's own
 * name (LUMA_API_KEY → lumalabs.ai, REPLICATE_API_TOKEN → api.replicate.com).
 */
function namedAfter(name: string): Vendor | undefined {
  const word = name.slice(0, name.indexOf('_')).toLowerCase();
  if (word.length < 4) return undefined;
  return { envPrefixes: [name], domains: [], brand: word };
}

/** Every credential name belongs to a known vendor (or is named after one) and every URL is served by all of them. */
export function credentialsOnlyToTheirVendors(names: readonly string[], urls: readonly string[]): boolean {
  if (names.length === 0 || urls.length === 0) return false;
  const vendors = names.map((n) => vendorOf(n) ?? namedAfter(n));
  if (vendors.some((v) => v === undefined)) return false;
  return urls.every((u) => {
    const host = realHost(u);
    return host !== null && vendors.every((v) => servedBy(host, v!));
  });
}

/**
 * A known vendor's credential written into the user part of a URL whose real host is not that
 * vendor's (`https://x-access-token:${GITHUB_TOKEN}@git.other.example/…`): every request to the
 * URL hands the credential to that host. Returns the credential's name and the host, or null.
 */
export function vendorCredentialToForeignHost(url: string): { name: string; host: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.username === '' && parsed.password === '') return null;
  let userinfo = `${parsed.username}:${parsed.password}`;
  try {
    userinfo = decodeURIComponent(userinfo);
  } catch {
    // Keep the encoded form: names are plain ASCII either way.
  }
  const host = parsed.hostname.toLowerCase();
  for (const m of userinfo.matchAll(CREDENTIAL_NAME_RE)) {
    const vendor = vendorOf(m[1]);
    if (vendor && !servedBy(host, vendor)) return { name: m[1], host };
  }
  return null;
}

export const CREDENTIAL_VENDOR_REGEXES: readonly RegExp[] = [CREDENTIAL_NAME_RE, URL_RE];
