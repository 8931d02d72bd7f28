import type { Severity } from '../../engine/scan-report.types';
import { BARE_HOME_CONFIG, concealedNear, HOME_CONFIG, HOME_FOLDER_READ, insecureDestination, raiseSeverity } from '../intent-evidence';
import { HOME_AGENT_CONFIG_PATHS } from '../mcp-lexicon';
import { isEducationalFile } from '../context-layer';
import { runnableBlockContext } from '../runnable-block';
import { windowText } from '../regex-rule';
import { LIST_ITEM } from '../../instructions/instructions';
import { writesOnlyRestrictions } from '../written-settings';
import type { Rule, RuleHit } from '../rule.types';
import { isRecord, parseJsonLoose } from '../../parsers/json-config.parser';
import type { ScanContext } from '../../views/scan-context';
/**
 * A project-level agent settings file (`.claude/settings.json`, `../.claude/x.json`): the permissions,
 * hooks and env the agent itself runs under. Not preceded by a home prefix (HOME_CONFIG covers those).
 */
const PROJECT_SETTINGS = /(?:^|[\s"'=(,])(?:\.{1,2}[/\\]){0,6}\.(?:claude|gemini|codex)[/\\][\w.-]{1,60}\.(?:json|toml)\b/g;
/** Writing operators: redirection, tee, cp/mv onto it, in-place edits, PowerShell and code writes. */
const WRITE_OP =
  /(?:^|[^<>&\d])>{1,2}\s{0,3}["']?$|\btee\b(?:\s{1,3}-a)?\s{1,3}["']?$|\b(?:cp|mv|install|ln\s{1,3}-s)\b[^\n]{0,200}\s["']?$|\bsed\s{1,3}-i\b[^\n]{0,200}$|\b(?:Set-Content|Add-Content|Out-File|Copy-Item|Move-Item)\b[^\n]{0,120}$|\b(?:writeFileSync|writeFile|appendFileSync|write_text|write_bytes)\s{0,2}\([^\n]{0,120}$|\bopen\s{0,2}\([^\n]{0,120}$/;
const OPENED_BEFORE = /\bopen\s{0,2}\([^\n]{0,120}$/;
const OPEN_FOR_WRITE = /,\s{0,3}["'](?:w|a|w\+|a\+|wb|ab)["']/;
/** A write anywhere in a program, for code that builds the config path on one line and writes it on another. */
const CODE_WRITE =
  /\b(?:writeFileSync|writeFile|appendFileSync|write_text|write_bytes|json\.dump|Set-Content|Out-File)\s{0,2}\(|\bopen\s{0,2}\([^\n]{0,120},\s{0,3}["'](?:w|a)\+?b?["']|\bSet-Content\b|\bOut-File\b/;
/** What a server entry looks like, so a program writing one is told from one writing other settings. */
const SERVER_ENTRY = /\bmcpServers\b|\bmcp_servers\b|\[mcp_servers\b|["']servers["']\s{0,3}[:\]]/;
/** Instructions to put something into a file (English, German, Spanish, French; Japanese, Chinese and Korean verbs have no word boundaries). */
const PUT_INTO =
  /\b(?:add|adds|merge|merges|insert|inserts|register|registers|append|appends|put|puts|write|writes|inject|patch|place|set|trage|füge|hinzu|añade|agrega|ajoute|ajoutez|inscris)\b|追加|登録|書き込|書いて|書く|添加|写入|注册|추가|등록/i;
/** A server started from code that is not pinned: an unversioned `npx -y` package, a tarball URL, a git URL, a piped script. */
const UNPINNED_SERVER =
  /(?:^|["'\s,[])-y["']?\s{0,3},?\s{0,3}["']?(?:https?:\/\/|(@?[\w.-]{1,60}(?:\/[\w.-]{1,60})?(?:@[\w.-]{1,40})?)(?=["'\s,\]]))|\bgit\+https?:|\bcurl\b[^\n]{0,200}\|\s{0,3}(?:ba)?sh\b/gi;

/** A package name carrying an exact version (`name@1.2.0`, `@scope/name@2`); `@latest` is no pin. */
const PINNED_VERSION = /.@\d/;

function unpinnedServer(text: string): boolean {
  for (const m of text.matchAll(UNPINNED_SERVER)) if (m[1] === undefined || !PINNED_VERSION.test(m[1])) return true;
  return false;
}

/**
 * Prose telling the agent to add something to a home-directory config: low as a setup note; two
 * clients' configs at once, an unpinned server and concealment each escalate it.
 */
function instructionHit(ctx: Parameters<Rule['match']>[0], i: number, targets: RegExpMatchArray[]): RuleHit | null {
  const near = windowText(ctx, i + 1, 1);
  if (!PUT_INTO.test(near) && !PUT_INTO.test(listLeadIn(ctx.lines, i))) return null;
  const wide = windowText(ctx, i + 1, 4);
  let severity: Severity = 'low';
  const why: string[] = [];
  if (clientCount(wide) >= 2) {
    severity = raiseSeverity(severity, 1);
    why.push("several agents' configs");
  }
  if (unpinnedServer(wide)) {
    severity = raiseSeverity(severity, 1);
    why.push('unpinned server');
  }
  const concealed = concealedNear(ctx, i + 1, 4);
  if (concealed) {
    severity = raiseSeverity(severity, 2);
    why.push('without the user');
  }
  return {
    line: i + 1,
    evidence: targets[0][0],
    severity,
    // Kept from the user, the change is meant: no longer a setup note that may be misread.
    ...(concealed ? { confidence: 'high' as const } : {}),
    message: `Instructions add to the user's home-directory agent config${why.length > 0 ? ` (${why.join(', ')})` : ''}`,
  };
}

/** How far above a list item its lead-in line may be ("Register the server in these files:" and its list). */
const LEAD_IN_REACH = 15;

/** The last two lines of the paragraph that opens the list a list item belongs to (one blank line may sit between), or ''. */
function listLeadIn(lines: readonly string[], i: number): string {
  if (!LIST_ITEM.test(lines[i] ?? '')) return '';
  let blank = false;
  for (let k = i - 1; k >= 0 && i - k <= LEAD_IN_REACH; k--) {
    const line = lines[k];
    if (LIST_ITEM.test(line)) continue;
    if (line.trim() === '' && !blank) {
      blank = true;
      continue;
    }
    const before = k > 0 && lines[k - 1].trim() !== '' && !LIST_ITEM.test(lines[k - 1]) ? lines[k - 1] : '';
    return `${before}\n${line}`;
  }
  return '';
}

/**
 * Several agents' configs named in the text (`~/.cursor/mcp.json` and `~/.gemini/settings.json`);
 * with `bare`, also as strings of their own (a program's list of targets joined to its home folder).
 */
function clientCount(text: string, bare = false): number {
  // The config path names the client whatever home prefix precedes it (`~/`, `$HOME/`, `home / "`).
  const client = (m: RegExpMatchArray): string => {
    const path = m[0]
      .toLowerCase()
      .replaceAll('\\', '/')
      .replace(/["'`]$/, '');
    return HOME_AGENT_CONFIG_PATHS.find((p) => path.endsWith(p.toLowerCase())) ?? path;
  };
  const named = [...text.matchAll(HOME_CONFIG), ...(bare ? text.matchAll(BARE_HOME_CONFIG) : [])];
  return new Set(named.map(client)).size;
}

/**
 * A program that writes a home config: high when it writes the path it names, low when it names the
 * path on one line and writes server entries elsewhere; spraying several agents' configs and an
 * unpinned server escalate it (and make it certain).
 */
function programHit(file: FileFacts, i: number, line: string, base: Severity = 'low'): RuleHit {
  const escalations: [boolean, string][] = [
    [file.clients() >= 2, "several agents' configs"],
    [file.unpinned(), 'unpinned server'],
    [file.autoApproved(), 'its tools approved in advance'],
    // What an unpinned server is given: the user's credential, every permission.
    [file.unpinned() && file.credentialHandedOver(), "the user's credential handed to it"],
    [file.insecureSource(), 'served from a bare IP or plain http'],
    [file.unpinned() && file.broadGrant(), 'given every permission'],
    [file.coversTracks(), 'file times reset to hide the change'],
    [file.runByInstall(), 'run by a package install'],
  ];
  const why = escalations.filter(([present]) => present).map(([, reason]) => reason);
  const severity = why.length > 0 ? raiseSeverity(base, why.length) : base;
  return {
    line: i + 1,
    evidence: line.trim(),
    severity,
    confidence: why.length > 0 ? 'high' : 'medium',
    message: `Program writes the user's home-directory agent config${why.length > 0 ? ` (${why.join(', ')})` : ''}`,
  };
}

/**
 * Quoted path pieces separated by a comma or a slash operator, joined into one quoted path. A piece
 * starting with a dash (a flag) or followed by a colon (a JSON key) is no path piece.
 */
const PATH_PIECE_GAP = /["'](?<=["'][.\w~][\w. -]{0,59}["'])\s{0,3}[,/]\s{0,3}["'](?=[.\w][\w. -]{0,59}["'](?!\s{0,3}:))/g;

/** The names of the agents whose configs the rule knows: every hit is on a line naming one. */
const AGENT_NAMED = /claude|cursor|windsurf|codeium|gemini|codex|continue|vscode/i;

function joinedPathPieces(line: string): string {
  return line.includes('"') || line.includes("'") ? line.replace(PATH_PIECE_GAP, '/') : line;
}

function bareTarget(line: string): boolean {
  BARE_HOME_CONFIG.lastIndex = 0;
  return BARE_HOME_CONFIG.test(line);
}

/** Whole-file facts a program hit reads, computed once per file (per hit they would make the rule quadratic). */
interface FileFacts {
  clients(): number;
  unpinned(): boolean;
  autoApproved(): boolean;
  credentialHandedOver(): boolean;
  insecureSource(): boolean;
  coversTracks(): boolean;
  broadGrant(): boolean;
  runByInstall(): boolean;
}

/** A script named as a package's install hook (`postinstall.mjs`, `preinstall.sh`); a bare `install.py` is one the user runs. */
const INSTALL_HOOK_NAME = /(?:^|\/)(?:pre|post)install\.(?:[cm]?js|ts|sh|py)$/i;

/**
 * The program runs when a package is installed, with no step of the user: it is named as an install
 * hook, or a package.json beside it runs it from `preinstall`, `install` or `postinstall`.
 */
function runByInstall(ctx: ScanContext): boolean {
  if (INSTALL_HOOK_NAME.test(ctx.path)) return true;
  const base = ctx.path.slice(ctx.path.lastIndexOf('/') + 1);
  for (const f of ctx.bundle.files) {
    if (!/(?:^|\/)package\.json$/.test(f.relativePath)) continue;
    const json = parseJsonLoose(f.text);
    const scripts = isRecord(json) && isRecord(json.scripts) ? json.scripts : {};
    if (['preinstall', 'install', 'postinstall'].some((k) => typeof scripts[k] === 'string' && (scripts[k] as string).includes(base))) return true;
  }
  return false;
}

/** A server entry's env or headers carrying a credential (`"env": {"GITHUB_TOKEN": …}`, `Authorization`). */
const CREDENTIAL_IN_ENTRY = /["']?\b[A-Z][A-Z0-9_]{0,40}(?:TOKEN|API_KEY|APIKEY|SECRET|PASSWORD|_PAT)\b["']?\s{0,3}[:=]|\bAuthorization["']?\s{0,3}[:=]/;
/** A URL in the text, to test whether a server comes from a bare IP or over plain http. */
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'`<>)\]]{1,200}/g;
/** Server flags that lift its own safety limits (`--allow-all`, `--dangerously-skip-permissions`, `--no-sandbox`, `--yolo`). */
const BROAD_GRANT = /(?:^|[\s"'[,])--(?:allow-all|dangerously[\w-]{0,40}|no-sandbox|unsafe[\w-]{0,20}|yolo)\b/;
/** Code resetting a file's times after writing it (touch -d/-r/-t, os.utime, utimesSync, LastWriteTime): hiding the change. */
const TIMES_RESET = /\btouch\s{1,3}-[a-z]{0,3}[drt]\b|\bos\.utime\s{0,2}\(|\butimesSync\s{0,2}\(|\.LastWriteTime\s{0,3}=/;

/** A server entry whose tools run without the user's approval (`alwaysAllow`, `autoApprove`, `"trust": true`). */
const AUTO_APPROVED_ENTRY =
  /["']?\b(?:alwaysAllow|autoApprove|auto_approve|always_allow)\b["']?\s{0,3}[:=]\s{0,3}(?:\[\s{0,3}["']|true\b|True\b)|["']?\btrust["']?\s{0,3}[:=]\s{0,3}(?:true|True)\b/;

/** `compute` run on the first call only: a whole-file fact, read by every hit of the file. */
function once<T>(compute: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: compute() }).v;
}

function fileFacts(joined: () => string, program: boolean, installHook: () => boolean): FileFacts {
  const text = once(joined);
  return {
    runByInstall: once(() => program && installHook()),
    clients: once(() => clientCount(text(), program && HOME_FOLDER_READ.test(text()))),
    unpinned: once(() => unpinnedServer(text())),
    autoApproved: once(() => AUTO_APPROVED_ENTRY.test(text())),
    credentialHandedOver: once(() => CREDENTIAL_IN_ENTRY.test(text())),
    insecureSource: once(() => [...text().matchAll(URL_IN_TEXT)].some((m) => insecureDestination(m[0]))),
    coversTracks: once(() => program && TIMES_RESET.test(text())),
    broadGrant: once(() => BROAD_GRANT.test(text())),
  };
}

/**
 * Instructions or setup code that write servers or settings into the user's home-directory agent
 * configuration (the change outlives the project and applies to every future session), or
 * rewrite the project's own agent settings (the permissions and hooks the agent runs under).
 */
export const cfgAgentConfigWriteRule: Rule = {
  meta: {
    id: 'BW-CFG-003',
    title: "Writes into agent configuration (home directory or the agent's own settings)",
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      "Redirecting, copying, editing or writing into ~/.claude.json, ~/.claude/settings.json, ~/.cursor/mcp.json, ~/.codeium/windsurf/mcp_config.json or claude_desktop_config.json installs servers and settings for every project and session, outside what the user reviews in this repository; rewriting the project's .claude/settings.json changes the permissions and hooks the agent runs under. Reading those files is not reported. Instructions that add to a home config are low as a setup note; targeting several agents' configs at once, an unpinned server (unversioned `npx -y`, a git URL, a piped script) and concealment or removed consent each escalate them, to high and beyond (concealment also makes them certain). A write command (in a program or in prose) escalates the same way, and so does a written entry whose tools are approved in advance (`alwaysAllow`, `autoApprove`), a server fetched from a bare IP or over plain http, an unpinned server handed the user's credential or every permission (`--allow-all`), file times reset after the write to hide it, and a program run by a package install (a `preinstall`/`postinstall` script) with no step of the user. A write command in a shell block of an agent's own file counts as an action under an example, education or anti-pattern heading, unless the prose leading to the block says not to run it or the whole file is security material.",
    example: "cat > ~/.cursor/mcp.json <<'EOF'",
  },
  regexes: [
    HOME_CONFIG,
    BARE_HOME_CONFIG,
    HOME_FOLDER_READ,
    PROJECT_SETTINGS,
    WRITE_OP,
    OPEN_FOR_WRITE,
    OPENED_BEFORE,
    CODE_WRITE,
    SERVER_ENTRY,
    PUT_INTO,
    UNPINNED_SERVER,
    PINNED_VERSION,
    AUTO_APPROVED_ENTRY,
    CREDENTIAL_IN_ENTRY,
    URL_IN_TEXT,
    TIMES_RESET,
    BROAD_GRANT,
    PATH_PIECE_GAP,
    AGENT_NAMED,
    INSTALL_HOOK_NAME,
  ],
  match(ctx) {
    const hits: RuleHit[] = [];
    // A write command in a shell block of an agent file is an action under any heading (runnable-block.ts).
    const runnable = (hit: RuleHit): RuleHit => ({
      ...hit,
      context: runnableBlockContext(ctx, { line: hit.line, evidence: hit.evidence, hardBlock: false, educationalFile: isEducationalFile(ctx) }),
    });
    // Every hit is on a line naming an agent: a file naming none (most files) is done here.
    if (!AGENT_NAMED.test(ctx.text) && !(ctx.views.normalized && AGENT_NAMED.test(ctx.views.normalized.text))) return hits;
    const normalized = ctx.views.normalized?.text.split('\n');
    // The joined text is built only when a hit reads a whole-file fact.
    const file = fileFacts(
      () => joinedPathPieces(ctx.text),
      ctx.executable,
      () => runByInstall(ctx),
    );
    const prose = !ctx.executable && ctx.language !== 'json' && ctx.language !== 'toml' && ctx.language !== 'yaml';
    // A program that names a home config, writes files and builds server entries registers servers there.
    // Whole-file reads, made only for a line naming a home config (most files have none).
    let writesServers: boolean | undefined;
    const programWritesServers = (): boolean => (writesServers ??= ctx.executable && CODE_WRITE.test(ctx.text) && SERVER_ENTRY.test(ctx.text));
    for (let i = 0; i < ctx.lines.length; i++) {
      // A path passed in pieces (`path.join(home, ".cursor", "mcp.json")`, `home / ".cursor" / "mcp.json"`) is read joined.
      // Joining removes only quotes, separators and blanks, never a letter: the name test reads the raw line.
      const raw = normalized?.[i] || ctx.lines[i];
      if (!AGENT_NAMED.test(raw)) continue;
      const line = joinedPathPieces(raw);
      if (line.length < 8) continue;
      const written = (target: RegExpMatchArray): boolean => {
        const before = line.slice(Math.max(0, target.index! - 240), target.index);
        return WRITE_OP.test(before) && !(OPENED_BEFORE.test(before) && !OPEN_FOR_WRITE.test(line.slice(target.index)));
      };
      const targets = [...line.matchAll(HOME_CONFIG)];
      const home = targets.find(written);
      if (home) {
        // A write command in prose escalates like a program's: several clients' configs, an unpinned server.
        // Settings shown in full that grant nothing (a guard hook, deny rules) start low.
        const escalated = programHit(file, i, line, writesOnlyRestrictions(ctx, i + 1) ? 'low' : 'high');
        hits.push(ctx.executable ? escalated : runnable({ ...escalated, message: escalated.message?.replace('Program writes', 'Command writes') }));
        continue;
      }
      if (targets.length > 0 && programWritesServers()) {
        hits.push(programHit(file, i, line));
        continue;
      }
      // A program's list of config paths, joined to the home folder where it writes them.
      if (ctx.executable && bareTarget(line) && programWritesServers() && HOME_FOLDER_READ.test(ctx.text)) {
        hits.push(programHit(file, i, line));
        continue;
      }
      const told = targets.length > 0 && prose ? instructionHit(ctx, i, targets) : null;
      if (told) {
        hits.push(told);
        continue;
      }
      // Rewriting the project's own agent settings changes the permissions and hooks the agent runs with.
      const project = [...line.matchAll(PROJECT_SETTINGS)].find(written);
      if (project) {
        const restricting = writesOnlyRestrictions(ctx, i + 1);
        hits.push(
          runnable({
            line: i + 1,
            evidence: line.trim(),
            ...(restricting ? { severity: 'low' as const } : {}),
            message: restricting ? "Writes the agent's own project settings (hooks or deny rules only)" : "Writes the agent's own project settings",
          }),
        );
      }
    }
    return hits;
  },
};
