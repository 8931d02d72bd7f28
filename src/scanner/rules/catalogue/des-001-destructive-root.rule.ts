import { CODE_COMMENT_LINE_RE, PATTERN_ARGUMENT_BEFORE_RE } from '../benign-forms';
import { defineRegexRule } from '../regex-rule';
import type { Rule, RuleHit } from '../rule.types';
import type { ScanContext } from '../../views/scan-context';

/** Offset of the quote opening the string literal the offset sits in, or -1 outside any literal. */
function openingQuote(line: string, at: number): number {
  let open = -1;
  for (let k = 0; k < at; k++) {
    const c = line[k];
    if (open >= 0) {
      if (c === line[open]) open = -1;
    } else if (c === "'" || c === '"') open = k;
  }
  return open;
}

/** Deleting or wiping the filesystem root, the home directory or a disk. */
const lineRule = defineRegexRule({
  meta: {
    id: 'BW-DES-001',
    title: 'Destructive command on /, ~ or a disk',
    category: 'destructive_action',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'instructions',
    hard_block: true,
    rationale:
      "Recursive deletion of `/`, `~`, `$HOME` or `/*` (by command, through a shell variable set to or defaulting to the home directory, or by `shutil.rmtree`/`fs.rm` in a program), formatting or overwriting block devices and fork bombs destroy the user's machine. Build scripts that `rm -rf dist` or a temp folder do not match: the target must be a root, home or device.",
    example: 'rm -rf ~/ --no-preserve-root',
  },
  triggers: [
    'rm ',
    'rm\t',
    'rmtree',
    '.rm(',
    '.rmsync(',
    '.rmdir(',
    '.rmdirsync(',
    '--no-preserve-root',
    'mkfs',
    'wipefs',
    'dd ',
    'shred',
    'remove-item',
    'rd ',
    'rmdir',
    'del ',
    'format ',
    'find ',
    'chmod',
    'chown',
    '};',
  ],
  patterns: [
    /\brm\s{1,3}(?:-[a-zA-Z]{0,5}[rR][a-zA-Z]{0,5}|--recursive)\s{1,3}(?:-{1,2}[a-zA-Z-]{1,20}\s{1,3}){0,3}(?:[^\s;|&]{1,200}\s{1,3}){0,8}["']?(?:\/|~\/?|\$HOME\/?|\$\{HOME\}\/?|\/\*|~\/\*|\$HOME\/\*|\/(?:home|etc|usr|var|boot|bin|lib|opt|root|Users)\/?|~\/(?:Documents|Downloads|Desktop|Pictures|Music|Movies|Library(?!\/Caches)|\.ssh|\.gnupg|\.aws|\.config|projects?|src|code|work)\b\/?)["']?(?=\s|$|;|&|\||`|"|')/,
    /--no-preserve-root\b/,
    /\bch(?:mod|own)\s{1,3}-R\s{1,3}\S{1,40}\s{1,3}(?:["']?(?:\/|~|\$HOME)["']?(?:\s|$)|(?:\/(?:usr|etc|var|bin|lib|boot)\s{1,3}){2,})/,
    /\bdd\b[^\n]{0,80}\bof=["']?\$\{?(?:DEV|DISK|DEVICE|TARGET|DRIVE)\w{0,10}\}?["']?/i,
    /\b(?:mkfs(?:\.\w{2,8})?|wipefs\s{1,3}-a)\s{1,3}[^\n]{0,40}\/dev\//i,
    /\bdd\s{1,3}[^\n]{0,60}\bof=\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d|xvd[a-z])/i,
    /\bshred\s{1,3}[^\n]{0,40}\/dev\/(?:sd|nvme|hd|disk)/i,
    /:\s{0,2}\(\s{0,2}\)\s{0,2}\{\s{0,2}:\s{0,2}\|\s{0,2}:\s{0,2}&\s{0,2}\}\s{0,2};\s{0,2}:/,
    /\bRemove-Item\b[^\n]{0,80}-Recurse[^\n]{0,60}(?:[A-Z]:\\\\?(?:\*|\s|$|["'])|\$env:USERPROFILE|~)/i,
    /\b(?:rd|rmdir|del)\s{1,3}\/[sq]\s{1,3}(?:\/[sq]\s{1,3})?[A-Z]:\\(?:\*|\s|$)/i,
    /\bformat\s{1,3}[A-Z]:\s{0,3}\/[qy]/i,
    /\bfind\s{1,3}(?:\/|~|\$HOME)\s{1,3}[^\n]{0,80}-delete\b/i,
    // The same in a program: Python's shutil.rmtree and Node's fs.rm/rmSync on the home directory or the root.
    /\bshutil\.rmtree\(\s{0,3}(?:os\.path\.expanduser\(\s{0,3}["']~\/?["']\s{0,3}\)|(?:pathlib\.)?Path\.home\(\)|Path\(\s{0,3}["'](?:\/|~\/?)["']\s{0,3}\)|["'](?:\/|~\/?)["']|os\.environ\[\s{0,3}["']HOME["']\s{0,3}\]|os\.getenv\(\s{0,3}["']HOME["']\s{0,3}\))\s{0,3}[,)]/,
    /\bfs(?:\.promises)?\.(?:rm|rmSync|rmdir|rmdirSync)\(\s{0,3}(?:os\.homedir\(\)|homedir\(\)|process\.env\.HOME|["'](?:\/|~\/?)["'])\s{0,3},[^\n]{0,60}\brecursive\s{0,3}:\s{0,3}true/,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine(hit, m, ctx, view) {
    if (view.name !== 'raw' && view.name !== 'normalized') return hit;
    const lineText = view.text.slice(view.lineStarts[hit.line - 1], view.lineStarts[hit.line] ?? view.text.length);
    const start = m.index - view.lineStarts[hit.line - 1];
    // A commented-out line of code (an injection payload shown in a sample, "# input = '; rm -rf /'") is never run.
    if ((ctx.executable || ctx.lineInfo[hit.line - 1]?.inFence) && CODE_COMMENT_LINE_RE.test(lineText)) {
      return { ...hit, severity: 'medium', hard_block: false, context: 'documentation_example' };
    }
    // A pattern handed to a matcher (`grep -qE 'rm -rf /|…'` in a guard hook) recognises the command.
    const quote = openingQuote(lineText, start);
    if (quote >= 0 && PATTERN_ARGUMENT_BEFORE_RE.test(lineText.slice(Math.max(0, quote - 60), quote + 1))) {
      return { ...hit, hard_block: false, context: 'deny_list' };
    }
    return hit;
  },
});

/** A shell variable set to the home directory, directly or as its default (`T="${WORKDIR:-$HOME}"`). */
const HOME_VAR_ASSIGN =
  /^\s{0,20}(?:export\s{1,3}|local\s{1,3}|readonly\s{1,3})?([A-Za-z_]\w{0,40})=["']?(?:\$HOME|\$\{HOME\}|~|\$\{\w{1,40}:?-(?:\$HOME|\$\{HOME\}|~)\})\/?["']?\s{0,3}(?:$|[;#])/;
/** Recursive rm of a variable, or of everything in it (`rm -rf "$T"/*`). */
const RM_VAR =
  /\brm\s{1,3}(?:-[a-zA-Z]{0,5}[rR][a-zA-Z]{0,5}|--recursive)\s{1,3}(?:-{1,2}[a-zA-Z-]{1,20}\s{1,3}){0,3}["']?\$\{?([A-Za-z_]\w{0,40})\}?["']?(?:\/\*?)?(?=\s|$|;|&|\|)/;

/**
 * In a shell script, `rm -rf "$T"/*` where T was set to the home directory (or falls back to it):
 * the same deletion as `rm -rf ~/*`, one assignment away. One forward pass; the assignment must
 * come first, as the shell reads it.
 */
function homeVariableDeletions(ctx: ScanContext): RuleHit[] {
  if (!ctx.executable || ctx.language !== 'shell') return [];
  const homeVars = new Set<string>();
  const hits: RuleHit[] = [];
  for (let i = 0; i < ctx.lines.length; i++) {
    const l = ctx.lines[i];
    const assign = HOME_VAR_ASSIGN.exec(l);
    if (assign) {
      homeVars.add(assign[1]);
      continue;
    }
    if (homeVars.size === 0) continue;
    const rm = RM_VAR.exec(l);
    if (rm && homeVars.has(rm[1]))
      hits.push({ line: i + 1, evidence: l.trim().slice(0, 200), message: `Recursive deletion of $${rm[1]}, which is the home directory` });
  }
  return hits;
}

export const daDestructiveRootRule: Rule = {
  ...lineRule,
  regexes: [...lineRule.regexes, HOME_VAR_ASSIGN, RM_VAR],
  match(ctx, prior) {
    const hits = lineRule.match(ctx, prior);
    const seen = new Set(hits.map((h) => h.line));
    for (const h of homeVariableDeletions(ctx)) if (!seen.has(h.line)) hits.push(h);
    return hits;
  },
};
