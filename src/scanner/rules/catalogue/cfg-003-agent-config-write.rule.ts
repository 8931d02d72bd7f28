import type { Rule, RuleHit } from '../rule.types';
import { HOME_AGENT_CONFIG_PATHS } from '../mcp-lexicon';

/** A lexicon path as a pattern: metacharacters escaped, `/` matching either separator. */
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\//g, '[/\\\\]');
/** A home-directory agent config path (`~/.cursor/mcp.json`, `$HOME/.claude.json`, `%APPDATA%\Claude\…`). */
const HOME_CONFIG = new RegExp(
  String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|%APPDATA%|\$env:USERPROFILE|\$env:APPDATA|/home/[\w.-]{1,32}|/Users/[\w.-]{1,32}|/root|expanduser\(\s{0,2}["']~|Path\.home\(\)[^\n]{0,40}|homedir\(\)[^\n]{0,40})[/\\"', ]{1,4}(?:${HOME_AGENT_CONFIG_PATHS.map(escape).join('|')})`,
  'gi',
);
/**
 * A project-level agent settings file (`.claude/settings.json`, `../.claude/x.json`): the permissions,
 * hooks and env the agent itself runs under. Not preceded by a home prefix (HOME_CONFIG covers those).
 */
const PROJECT_SETTINGS = /(?:^|[\s"'=(,])(?:\.{1,2}[/\\]){0,6}\.(?:claude|gemini|codex)[/\\][\w.-]{1,60}\.(?:json|toml)\b/g;
/** Writing operators: redirection, tee, cp/mv onto it, in-place edits, PowerShell and code writes. */
const WRITE_OP = /(?:^|[^<>&\d])>{1,2}\s{0,3}["']?$|\btee\b(?:\s{1,3}-a)?\s{1,3}["']?$|\b(?:cp|mv|install|ln\s{1,3}-s)\b[^\n]{0,200}\s["']?$|\bsed\s{1,3}-i\b[^\n]{0,200}$|\b(?:Set-Content|Add-Content|Out-File|Copy-Item|Move-Item)\b[^\n]{0,120}$|\b(?:writeFileSync|writeFile|appendFileSync|write_text|write_bytes)\s{0,2}\([^\n]{0,120}$|\bopen\s{0,2}\([^\n]{0,120}$/;
const OPENED_BEFORE = /\bopen\s{0,2}\([^\n]{0,120}$/;
const OPEN_FOR_WRITE = /,\s{0,3}["'](?:w|a|w\+|a\+|wb|ab)["']/;

/**
 * Instructions or setup code that write servers or settings into the user's home-directory agent
 * configuration (the change outlives the project and applies to every future session), or
 * rewrite the project's own agent settings (the permissions and hooks the agent runs under).
 */
export const cfgAgentConfigWriteRule: Rule = {
  meta: {
    id: 'BW-CFG-003',
    title: 'Writes into agent configuration (home directory or the agent\'s own settings)',
    category: 'privilege_escalation',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      'Redirecting, copying, editing or writing into ~/.claude.json, ~/.claude/settings.json, ~/.cursor/mcp.json, ~/.codeium/windsurf/mcp_config.json or claude_desktop_config.json installs servers and settings for every project and session, outside what the user reviews in this repository; rewriting the project\'s .claude/settings.json changes the permissions and hooks the agent runs under. Reading those files, or telling the user which file to edit, is not reported.',
    example: "cat > ~/.cursor/mcp.json <<'EOF'",
  },
  regexes: [HOME_CONFIG, PROJECT_SETTINGS, WRITE_OP, OPEN_FOR_WRITE, OPENED_BEFORE],
  match(ctx) {
    const hits: RuleHit[] = [];
    const normalized = ctx.views.normalized?.text.split('\n');
    for (let i = 0; i < ctx.lines.length; i++) {
      const line = normalized?.[i] || ctx.lines[i];
      if (line.length < 8 || !/claude|cursor|windsurf|codeium|gemini|codex|continue|vscode/i.test(line)) continue;
      const written = (target: RegExpMatchArray): boolean => {
        const before = line.slice(Math.max(0, target.index! - 240), target.index);
        return WRITE_OP.test(before) && !(OPENED_BEFORE.test(before) && !OPEN_FOR_WRITE.test(line.slice(target.index)));
      };
      const home = [...line.matchAll(HOME_CONFIG)].find(written);
      if (home) {
        hits.push({ line: i + 1, evidence: line.trim() });
        continue;
      }
      // Rewriting the project's own agent settings changes the permissions and hooks the agent runs with.
      const project = [...line.matchAll(PROJECT_SETTINGS)].find(written);
      if (project) hits.push({ line: i + 1, evidence: line.trim(), message: 'Writes the agent\'s own project settings' });
    }
    return hits;
  },
};
