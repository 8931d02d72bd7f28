import { TRAILING_SLASHES } from '../../code/code-effects';
import { codeFactsOf, type CodeCall } from '../../code/code-facts';
import { codeLexicon } from '../../lexicons/lexicon';
import { onCodeHost } from '../intent-evidence';
import { onlyOfficialInstallers } from '../official-installers';
import type { Rule, RuleHit } from '../rule.types';

const URL_ARG = /^(?:https?|ftp):\/\/[^\s"'`]{1,400}$/i;
const IP_OR_PLAIN_HTTP = /^(?:http:\/\/|https?:\/\/\d{1,3}(?:\.\d{1,3}){3}\b)/i;
const LOCAL_RUN = /^(?:\.{1,2}\/|\/|~\/)/;
const IDENTIFIER = /^[A-Za-z_]\w{0,60}$/;
/** Keyword arguments that make a loader safe: `Loader=SafeLoader`, `weights_only=True`. */
const SAFE_LOADER_ARG = /^(?:loader=(?:yaml\.)?(?:c?safeloader|basel?oader)|weights_only=true)$/i;
const UNSAFE_NUMPY_ARG = /^allow_pickle=true$/i;

function baseName(p: string): string {
  const clean = p.replace(/[?#].{0,400}$/, '').replace(TRAILING_SLASHES, '');
  return clean
    .slice(clean.lastIndexOf('/') + 1)
    .replace(/\.git$/, '')
    .toLowerCase();
}

function norm(p: string): string {
  return p.replace(/^\.\//, '').replace(TRAILING_SLASHES, '').toLowerCase();
}

interface Fetched {
  line: number;
  url: string;
  /** A repository checked out with `git clone`, not a file downloaded. */
  checkout?: boolean;
}

/** Where a fetch command writes: curl -o/--output (also in a flag group, -fsSLo), -O, wget -O/default, -OutFile. */
function fetchTarget(call: CodeCall, url: string): string | null {
  const a = call.args;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const lower = x.toLowerCase();
    if (lower.startsWith('--output=') || lower.startsWith('--output-document=')) return x.slice(x.indexOf('=') + 1);
    if (
      i + 1 < a.length &&
      (x === '-o' ||
        x === '--output' ||
        lower === '-outfile' ||
        lower === '-destination' ||
        (call.name === 'wget' && x === '-O') ||
        (call.name === 'curl' && /^-[a-zA-Z]{1,8}o$/.test(x)))
    ) {
      return a[i + 1] === '-' ? null : a[i + 1];
    }
  }
  if (call.name === 'wget' && url) return baseName(url);
  if (call.name === 'curl' && a.some((x) => x === '-O' || /^-[a-zA-Z]{0,8}O[a-zA-Z]{0,8}$/.test(x)) && url) return baseName(url);
  return null;
}

interface Hit {
  line: number;
  evidence: string;
  url: string;
  made_executable_only?: boolean;
  /** The file was opened in a pager or checked against a checksum or signature before it ran. */
  reviewed?: boolean;
  /** What ran came from a repository checkout. */
  checkout?: boolean;
}

/** Download-then-run across the calls of one code unit. */
function unitHits(calls: readonly CodeCall[]): Hit[] {
  const fetchTools = codeLexicon('code-fetch-tool');
  const interpreters = codeLexicon('code-interpreter');
  const loaders = codeLexicon('code-unsafe-loader');
  const verifiers = codeLexicon('code-verify-command');
  const reviewed = new Set<Fetched>();
  const installerNames = [...codeLexicon('code-installer-name')];
  const files = new Map<string, Fetched>();
  const dirs = new Map<string, Fetched>();
  let cwd: Fetched | null = null;
  let network: Fetched | null = null;
  // The file the last open() for reading opened, when it was fetched (`with open(path) as fh: pickle.load(fh)`).
  let lastOpened: Fetched | null = null;
  const hits: Hit[] = [];
  const executableOnly = new Map<string, { line: number; text: string; from: Fetched }>();

  const fetchedAs = (p: string): Fetched | null => {
    if (!p) return null;
    const n = norm(p);
    const byPath = files.get(n) ?? files.get(baseName(n));
    if (byPath) return byPath;
    for (const [dir, f] of dirs) if (n.startsWith(`${dir}/`) || baseName(dir) === n.split('/')[0]) return f;
    // A relative script run inside a fetched checkout, or a fetched repository's own installer.
    if (!LOCAL_RUN.test(p) || p.startsWith('./')) {
      if (cwd) return cwd;
      const last = [...dirs.values()].pop();
      if (last && installerNames.some((w) => baseName(n).startsWith(w))) return last;
    }
    return null;
  };

  for (const call of calls) {
    const name = call.name;
    // A dotted callee's last part (`urllib.request.urlretrieve`); a path keeps its name.
    const short = name.includes('/') ? name : name.slice(name.lastIndexOf('.') + 1);
    const url = call.args.find((x) => URL_ARG.test(x)) ?? '';
    if (fetchTools.has(name) || fetchTools.has(short) || [...fetchTools].some((f) => f.includes('.') && name.endsWith(f))) {
      if (url || call.args.length > 0) {
        const from = { line: call.line, url: url || call.args[0] };
        network = from;
        const target = call.name.endsWith('urlretrieve') ? call.args[1] : fetchTarget(call, url);
        if (target) files.set(norm(target), from);
      }
      continue;
    }
    if (name === 'git' && call.args[0] === 'clone') {
      const rest = call.args.slice(1).filter((x) => !x.startsWith('-'));
      const repo = rest.find((x) => URL_ARG.test(x) || /^git@|\.git$/.test(x));
      if (repo) {
        const dir = rest[rest.indexOf(repo) + 1] ?? baseName(repo);
        dirs.set(norm(dir), { line: call.line, url: repo, checkout: true });
      }
      continue;
    }
    if ((/(?:^|\.)open$/.test(name) || /(?:writefilesync|createwritestream|writefile)$/.test(name)) && call.args[0]) {
      // Python open(path, "wb") / Node fs.writeFileSync(path, …) after a fetch in the same unit.
      const writes = !/(?:^|\.)open$/.test(name) || /^[wa]/.test(call.args[1] ?? '');
      if (writes && network) files.set(norm(call.args[0]), network);
      else if (!writes) lastOpened = fetchedAs(call.args[0]);
      continue;
    }
    if (name === 'cd') {
      cwd = call.args[0] ? (dirs.get(norm(call.args[0])) ?? null) : null;
      continue;
    }
    if (name === 'pip' || name === 'pip3' || name === 'pipx' || name === 'uv') {
      const direct = call.args.find((x) => URL_ARG.test(x) && IP_OR_PLAIN_HTTP.test(x));
      if (call.args.includes('install') && direct) hits.push({ line: call.line, evidence: call.text, url: direct });
      continue;
    }
    // Unsafe deserialisation of fetched data.
    if (loaders.has(name) || [...loaders].some((l) => name.endsWith(`.${l}`))) {
      if (call.args.some((x) => SAFE_LOADER_ARG.test(x))) continue;
      if ((name === 'np.load' || name === 'numpy.load') && !call.args.some((x) => UNSAFE_NUMPY_ARG.test(x))) continue;
      const inline = call.args.some((x) => [...fetchTools].some((f) => f.length > 3 && x.toLowerCase().includes(`${f}(`)));
      const handle = call.args.length > 0 && IDENTIFIER.test(call.args[0]) ? lastOpened : null;
      const from = call.args.map((x) => fetchedAs(x)).find((f) => f) ?? handle ?? (inline ? network : null);
      if (from || inline) hits.push({ line: call.line, evidence: call.text, url: from?.url ?? '' });
      continue;
    }
    if (verifiers.has(name)) {
      for (const x of call.args) {
        const f = x.startsWith('-') ? null : (files.get(norm(x)) ?? null);
        if (f) reviewed.add(f);
      }
      continue;
    }
    if (name === 'chmod') {
      const target = call.args.find((x) => !x.startsWith('-') && !x.startsWith('+') && !/^[0-7]{3,4}$/.test(x) && !/^[ugoa]*[+=-][rwxX]+$/.test(x));
      const from = target ? (files.get(norm(target)) ?? null) : null;
      if (from && target) executableOnly.set(norm(target), { line: call.line, text: call.text, from });
      continue;
    }
    if (name === 'git' && call.args[0] === 'config' && call.args.some((x) => x.toLowerCase() === 'core.hookspath')) {
      const dir = norm(call.args[call.args.length - 1] ?? '');
      for (const [p, f] of files) if (p.startsWith(`${dir}/`)) hits.push({ line: call.line, evidence: call.text, url: f.url });
      continue;
    }
    // Running a fetched file: an interpreter with the file as its script, or the file as the command.
    let from: Fetched | null = null;
    if (interpreters.has(name) || interpreters.has(short)) {
      const script = call.args.find((x) => !x.startsWith('-'));
      if (script) from = fetchedAs(script);
    } else if (LOCAL_RUN.test(name)) {
      from = fetchedAs(name);
    }
    if (from) {
      hits.push({ line: call.line, evidence: call.text, url: from.url, reviewed: reviewed.has(from), checkout: from.checkout });
      for (const [p] of executableOnly) if (fetchedAs(p) === from) executableOnly.delete(p);
    }
  }
  for (const { line, text, from } of executableOnly.values()) hits.push({ line, evidence: text, url: from.url, made_executable_only: true });
  return hits;
}

/** A file fetched from the network is then run, sourced or deserialised, without a pipe. */
export const rceDownloadThenRunRule: Rule = {
  meta: {
    id: 'BW-RCE-006',
    title: 'Downloaded file is then run, sourced or deserialised',
    category: 'remote_code_execution',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'code_block',
    rationale:
      'Fetching a file and running it in a later step (`wget … -O f && bash f`, cloning a repository and running its installer, `Invoke-WebRequest -OutFile` then `Start-Process`, loading a fetched pickle, torch checkpoint or YAML with an unsafe loader) runs whatever the remote host serves, exactly like a pipe to a shell, but splits the two halves so a line-based check misses it. Read from parse trees of scripts, fenced code and inline commands, with file names resolved through variables; an official installer offered in a document, and a fetched binary only made executable, are weaker; building a repository cloned over https from a public code host (github.com, gitlab.com …) is installing from source, reported low.',
    example: 'Setup:\n\n```bash\nwget -q https://tools.example/setup.sh -O /tmp/setup.sh\nbash /tmp/setup.sh\n```',
  },
  regexes: [TRAILING_SLASHES, IDENTIFIER, URL_ARG, IP_OR_PLAIN_HTTP, LOCAL_RUN, SAFE_LOADER_ARG, UNSAFE_NUMPY_ARG],
  match(ctx) {
    const { calls } = codeFactsOf(ctx);
    if (calls.length === 0) return [];
    const out: RuleHit[] = [];
    let start = 0;
    for (let i = 1; i <= calls.length; i++) {
      if (i < calls.length && calls[i].unit === calls[start].unit) continue;
      for (const h of unitHits(calls.slice(start, i))) {
        const official = h.url !== '' && onlyOfficialInstallers(h.url);
        if (h.made_executable_only) {
          out.push({
            line: h.line,
            evidence: h.evidence,
            severity: 'medium',
            confidence: 'medium',
            message: 'A downloaded file is made executable without verification',
          });
        } else if (h.checkout && onCodeHost(h.url)) {
          // Building a public repository from source is installing a package from its own home:
          // the repository is named and reviewable, unlike a script a host serves.
          out.push({
            line: h.line,
            evidence: h.evidence,
            severity: 'low',
            confidence: 'medium',
            message: 'A public repository is cloned and its own installer or script run (installing from source)',
          });
        } else if (official || h.reviewed || ctx.kind === 'document') {
          out.push({
            line: h.line,
            evidence: h.evidence,
            severity: 'medium',
            confidence: 'medium',
            message: 'An installer is downloaded and run (official source, read or verified first, or a document for a human reader)',
          });
        } else {
          out.push({ line: h.line, evidence: h.evidence });
        }
      }
      start = i;
    }
    return out;
  },
};
