import { READ_ONLY_COMMAND_RE } from '../benign-forms';
import { defineRegexRule } from '../regex-rule';

export const ceSkillDynamicContextRule = defineRegexRule({
  meta: {
    id: 'BW-CE-003',
    title: 'Command executed when the agent file is loaded (!`…` dynamic context)',
    category: 'code_execution',
    severity: 'medium',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'In Claude Code skills and slash commands, !`command` runs a shell command while the prompt is being built, before the model or user sees anything. Reading secrets or reaching the network there is especially risky. Read-only inspection (git status/diff/log, ls, gh pr view, optionally piped into head or grep) is how commands gather context and is not flagged.',
    example: '!`env | sort`',
  },
  triggers: ['!`'],
  patterns: [/(?:^|[\s:>-])!`([^`\n]{2,300})`/],
  languages: ['markdown'],
  refine(hit, m) {
    const cmd = m[1] ?? '';
    if (READ_ONLY_COMMAND_RE.test(cmd)) return null;
    if (
      /\b(?:curl|wget|nc|env|printenv|cat\s[^\n]{0,60}(?:\.ssh|\.aws|\.env|\.config|\.docker|\.npmrc|credentials|hosts\.yml))\b|\|\s{0,3}(?:ba)?sh/.test(cmd)
    ) {
      return { ...hit, severity: 'high' };
    }
    return hit;
  },
});
