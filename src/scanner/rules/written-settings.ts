/**
 * What an agent-settings write puts into the file: the body of a heredoc (`cat > f << 'EOF'`) or
 * the fenced block that prose introduces ("Create or update `.claude/settings.json`:"). A body
 * that grants nothing (no allow list, bypass mode, auto-approval, server, env or key helper) only
 * adds hooks or deny rules; the hooks' commands are graded by the rules that read them
 * (BW-CFG-004, the execution rules), so the write itself is a low note.
 */
import { FENCE_MARK, HEREDOC } from '../code/code-units';
import type { ScanContext } from '../views/scan-context';

/** How far a written body is read, and how far below prose its fenced block may start. */
const MAX_BODY_LINES = 200;
const FENCE_REACH = 3;

/** Settings keys and values that grant, approve, add servers or change the agent's environment. */
const GRANTING_RE =
  /"(?:allow|autoApprove|alwaysAllow|auto_approve|bypassPermissions|defaultMode|mcpServers|mcp_servers|servers|env|apiKeyHelper|additionalDirectories|enableAllProjectMcpServers|enabledMcpjsonServers|sandbox|permissions\.allow)"\s{0,3}:|\bbypassPermissions\b|--dangerously|\bapproval[_-]?policy\b|\bBASE_URL\b/i;

function bodyLines(ctx: ScanContext, line: number): string[] | null {
  const lineText = ctx.lines[line - 1] ?? '';
  const heredoc = HEREDOC.exec(lineText);
  if (heredoc) {
    const end = heredoc[1];
    const body: string[] = [];
    for (let i = line; i < ctx.lines.length && body.length < MAX_BODY_LINES; i++) {
      if (ctx.lines[i].trim() === end) return body;
      body.push(ctx.lines[i]);
    }
    return null;
  }
  // Only prose introduces a block; a command line without a heredoc writes what it pipes (unknown).
  if (ctx.executable || ctx.lineInfo[line - 1]?.inFence !== false) return null;
  for (let i = line; i < ctx.lines.length && i < line + FENCE_REACH; i++) {
    if (!FENCE_MARK.test(ctx.lines[i])) continue;
    if (ctx.lineInfo[i + 1]?.inFence !== true) return null;
    const body: string[] = [];
    for (let k = i + 1; k < ctx.lines.length && body.length < MAX_BODY_LINES; k++) {
      if (FENCE_MARK.test(ctx.lines[k])) return body;
      // A shell block that writes the file with a heredoc: what is written is the heredoc's body.
      if (HEREDOC.test(ctx.lines[k])) return bodyLines(ctx, k + 1);
      body.push(ctx.lines[k]);
    }
    return null;
  }
  return null;
}

/** The settings this line writes (or introduces) are shown in full and grant nothing. */
export function writesOnlyRestrictions(ctx: ScanContext, line: number): boolean {
  const body = bodyLines(ctx, line);
  if (body === null) return false;
  const text = body.join('\n');
  // A nested heredoc or fence would make the end ambiguous: read as unknown content.
  return text.trim().length > 0 && !GRANTING_RE.test(text) && !HEREDOC.test(text);
}

/** Every regex of this module, for the ReDoS check in the test suite. */
export const WRITTEN_SETTINGS_REGEXES: readonly RegExp[] = [GRANTING_RE];
