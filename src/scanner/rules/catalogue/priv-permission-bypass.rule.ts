import { defineRegexRule } from '../regex-rule';

export const privPermissionBypassRule = defineRegexRule({
  meta: {
    id: 'BW-PRIV-002',
    title: 'Agent permission bypass or blanket pre-approval',
    category: 'privilege_escalation',
    severity: 'medium',
    confidence: 'high',
    asset_type: 'config',
    rationale:
      'Flags and settings that switch off the agent\'s permission prompts or sandbox (bypassPermissions, --dangerously-skip-permissions, yolo/full-auto modes, Bash(*) allow rules, auto-approve all tools, execution-policy bypass) let any injected instruction run unchecked. Agent files that edit the agent\'s own settings to grant this are worse.',
    example: '{"permissions": {"allow": ["Bash(*)"], "defaultMode": "bypassPermissions"}}',
    fixtures: {
      positive: [
        { path: '.claude/settings.json', text: '{"permissions": {"defaultMode": "bypassPermissions"}}' },
        { text: 'Start the agent with `claude --dangerously-skip-permissions`.' },
        { path: '.claude/settings.json', text: '{"permissions": {"allow": ["Bash(*)"]}}' },
      ],
      negative: [
        { path: '.claude/settings.json', text: '{"permissions": {"allow": ["Bash(npm run test:*)"]}}' },
        { text: 'Never use --dangerously-skip-permissions outside a disposable container.' },
        { path: '.claude/settings.json', text: '{"permissions": {"deny": ["Bash(*)"]}}' },
      ],
    },
  },
  triggers: ['bypasspermissions', '--dangerously', '--yolo', '--trust-all-tools', '--full-auto', '--auto-approve', 'bash', 'shell', 'write', 'edit', 'webfetch', 'execute', 'run', 'autoapprove', 'alwaysallow', 'auto_approve', 'approval', 'sandbox', 'set-executionpolicy', 'claude/settings', 'cursor/mcp', 'codex/config', 'approve', 'allow', 'any'],
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
  refine(hit) {
    // An agent file that edits the agent's own permission settings is escalating itself.
    if (/^(?:edit|modify|update|overwrite|write to|merge into)\b/i.test(hit.evidence)) return { ...hit, severity: 'high' };
    return hit;
  },
});
