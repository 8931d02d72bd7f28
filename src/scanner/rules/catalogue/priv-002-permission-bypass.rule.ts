import { isNamedInCodeSpan } from '../context-layer';
import { writesOnlyRestrictions } from '../written-settings';
import { defineRegexRule } from '../regex-rule';
import type { ScanContext } from '../../views/scan-context';

/** A line comment of code (`# …`, `// …`) opening after code or at the start of the line. */
const LINE_COMMENT_RE = /(?:^|\s)(?:#|\/\/)\s/;
/** Keys whose value grants tools (a bare string or a list). */
const GRANT_KEY_RE = /^(?:allow|allowed|allowed[-_]?tools|alwaysAllow|autoApprove|auto_approve|permissions|tools|trust(?:ed)?)$/i;
/** A frontmatter key that lists the tools a skill, command or agent may use. */
const TOOL_DECLARATION_KEY_RE = /^\s{0,8}(?:allowed[-_]tools|tools|disallowed[-_]tools)\s{0,3}:/i;
const FRONTMATTER_KEY_RE = /^\s{0,8}[\w-]{1,40}\s{0,3}:/;

/** The line belongs to a frontmatter tool-declaration key (on the line or as a list under it). */
function inToolDeclaration(ctx: ScanContext, line: number): boolean {
  for (let i = line - 1; i >= 0 && i >= line - 40; i--) {
    if (!ctx.lineInfo[i]?.inFrontmatter) return false;
    const text = ctx.lines[i];
    if (TOOL_DECLARATION_KEY_RE.test(text)) return true;
    if (FRONTMATTER_KEY_RE.test(text)) return false;
  }
  return false;
}

/** A membership or equality test whose set or operand ends at the match: `in {"Read", `, `== `. */
const TESTED_AGAINST_RE = /(?:\bin|[!=]==?)\s{0,3}[[{(]?(?:\s{0,3}["'][\w-]{1,40}["']\s{0,3},){0,8}\s{0,3}$/;
/** How far back from a tool name its test is looked for: a set literal of a few names. */
const TESTED_AGAINST_REACH = 200;

export const privPermissionBypassRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-002',
    title: 'Agent permission bypass or blanket pre-approval',
    category: 'privilege_escalation',
    severity: 'medium',
    confidence: 'high',
    asset_type: 'config',
    rationale:
      "Flags and settings that switch off the agent's permission prompts or sandbox (bypassPermissions, --dangerously-skip-permissions, yolo/full-auto modes, Bash(*) allow rules, auto-approve all tools, execution-policy bypass) let any injected instruction run unchecked. Agent files that edit the agent's own settings to grant this are worse.",
    example: '{"permissions": {"allow": ["Bash(*)"], "defaultMode": "bypassPermissions"}}',
  },
  triggers: [
    'bypasspermissions',
    '--dangerously',
    '--yolo',
    '--trust-all-tools',
    '--full-auto',
    '--auto-approve',
    'bash',
    'shell',
    'write',
    'edit',
    'webfetch',
    'execute',
    'run',
    'autoapprove',
    'alwaysallow',
    'auto_approve',
    'approval',
    'sandbox',
    'set-executionpolicy',
    'claude/settings',
    'cursor/mcp',
    'codex/config',
    'approve',
    'allow',
    'any',
  ],
  patterns: [
    /\bbypassPermissions\b/,
    /--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--yolo\b|--trust-all-tools\b|--full-auto\b|--auto-approve(?:-all)?\b/i,
    /["'](?:Bash|Shell|Write|Edit|WebFetch|Execute|Run)(?:\(\s{0,2}\*\s{0,2}\))?["']\s{0,3}[,\]]/,
    /"(?:autoApprove|alwaysAllow|auto_approve)"\s{0,3}:\s{0,3}(?:true|\[\s{0,3}"\*")/i,
    /\bapproval[_-]?policy\s{0,3}[=:]\s{0,3}["']?never\b|\bsandbox(?:_mode)?\s{0,3}[=:]\s{0,3}["']?danger-full-access/i,
    /\bSet-ExecutionPolicy\s{1,3}(?:-ExecutionPolicy\s{1,3})?(?:Bypass|Unrestricted)\b/i,
    /\b(?:edit|modify|update|overwrite|write to|merge into)\s{1,3}`?~?\/?\.?(?:claude\/settings(?:\.local)?\.json|cursor\/mcp\.json|codex\/config\.toml)`?/i,
    /\b(?:pre-?approve|auto-?approve|allow)\s{1,3}(?:all|every|any)\s{1,3}(?:commands?|tools?|tool calls?|actions?)\b/i,
    /\b(?:use|call|run)\s{1,3}any\s{1,3}(?:available\s{1,3})?tools?\s{1,3}without\s{1,3}(?:restriction|limits?|asking)/i,
    /\b(?:may|can|are allowed to|are free to|feel free to)\s{1,3}run\s{1,3}any\s{1,3}(?:shell\s{1,3})?(?:commands?|scripts?)\b/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine(hit, m, ctx, view) {
    // An agent file that edits the agent's own permission settings is escalating itself.
    if (/^(?:edit|modify|update|overwrite|write to|merge into)\b/i.test(hit.evidence)) {
      // The edit shown in full grants nothing (a guard hook, deny rules): a note, not an escalation.
      return writesOnlyRestrictions(ctx, hit.line)
        ? { ...hit, severity: 'low', message: "Edits the agent's own settings (hooks or deny rules only)" }
        : { ...hit, severity: 'high' };
    }
    if (/^["'](?:Bash|Shell|Write|Edit|WebFetch|Execute|Run)["']/.test(hit.evidence)) {
      // A tool name as the value of another key ("matcher": "Bash" of a hook, Action::"Bash" of a
      // policy) names the tool; only an entry of an allow-style list grants it.
      const before = view.text.slice(view.lineStarts[hit.line - 1], m.index);
      const key = /["']?([\w-]{1,40})["']?\s{0,3}[:=]\s{0,3}$/.exec(before)?.[1];
      if ((key !== undefined && !GRANT_KEY_RE.test(key)) || /::\s{0,2}$/.test(before)) return null;
      // A name code tests against (`if tool in {"Read", "Edit"}`, `name == "Bash"`) is compared, not granted.
      if (TESTED_AGAINST_RE.test(before.slice(-TESTED_AGAINST_REACH))) return null;
      // In a code comment ('shape.ShapeType  # "Solid", "Shell", "Face"') the list names values: a comment grants nothing.
      const comment = LINE_COMMENT_RE.exec(before);
      if (comment && (before.slice(0, comment.index).match(/["']/g) ?? []).length % 2 === 0) return null;
    }
    // A skill's or command's frontmatter `allowed-tools` list declares the tools it uses; a bare
    // tool name there is an ordinary, broad grant worth a low note (`Bash(*)` keeps its rating).
    if (/^["'](?:Bash|Shell|Write|Edit|WebFetch|Execute|Run)["']/.test(hit.evidence) && inToolDeclaration(ctx, hit.line)) return { ...hit, severity: 'low' };
    // A flag named on its own in prose ("invoked with `--yolo`, which auto-approves …", a list of
    // risky settings) is described; a command line or config that carries it uses it.
    if (isNamedInCodeSpan(ctx, hit.line, hit.evidence)) return { ...hit, context: 'documentation_example' };
    return hit;
  },
});
