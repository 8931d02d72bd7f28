import { isReadOnlyProbe } from '../benign-forms';
import { insideCodeSpan } from '../context-layer';
import { defineRegexRule } from '../regex-rule';
import type { Rule } from '../rule.types';

const STEP_SPLIT = /\|\|?|&&|;/;
const NETWORK_OR_SHELL = /\b(?:curl|wget|nc|ncat|socat|telnet)\b|\|\s{0,3}(?:ba|z)?sh\b/;
/** A step that prints the whole environment. */
const ENV_DUMP = /^(?:env|printenv|set|export\s{1,3}-p)(?:\s|$)/;
/** A step that reads or copies a file's contents (not find, which lists names). */
const READS_FILE = /^(?:cat|head|tail|less|more|grep|egrep|rg|base64|xxd|od|strings|cp|tar|zip|awk|sed|jq)\b/;
/** Credential files and folders. */
const SENSITIVE_PATH =
  /\.(?:ssh|aws|netrc|npmrc|pypirc|gnupg|docker\/config|kube\/config|config\/gh)\b|\.env\b|credentials|hosts\.yml|id_(?:rsa|dsa|ecdsa|ed25519)\b/;

const dynamicContextRule = defineRegexRule({
  meta: {
    id: 'BW-CE-003',
    title: 'Command executed when the agent file is loaded (!`…` dynamic context)',
    category: 'code_execution',
    severity: 'medium',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      "In Claude Code skills and slash commands, !`command` runs a shell command while the prompt is being built, before the model or user sees anything. Reading secrets or reaching the network there is especially risky. Read-only inspection (git status/diff/log, ls, find without actions, grep, gh pr view, docker ps, kubectl get, a tool's --version; piped, chained or with its errors discarded) is how commands gather context and is not flagged.",
    example: '!`env | sort`',
  },
  triggers: ['!`'],
  patterns: [/(?:^|[\s:>-])!`([^`\n]{2,300})`/],
  languages: ['markdown'],
  refine(hit, m, _ctx, view) {
    // A "!" that ends a code span ("`%%~dp$PATH:!`, then `…`") sits inside the span: the backtick after it closes that span.
    const bang = m.index + m[0].indexOf('!`');
    if (insideCodeSpan(view.text, view.lineStarts[hit.line - 1] ?? 0, bang)) return null;
    const cmd = m[1] ?? '';
    const steps = cmd.split(STEP_SPLIT).map((step) => step.trim());
    // Reaching the network, dumping the environment, reading secrets or running a shell at load time.
    const readsSecret = (step: string): boolean => (READS_FILE.test(step) || step.includes('$(')) && SENSITIVE_PATH.test(step);
    if (NETWORK_OR_SHELL.test(cmd) || steps.some((step) => ENV_DUMP.test(step) || readsSecret(step))) {
      return { ...hit, severity: 'high' };
    }
    if (isReadOnlyProbe(cmd)) return null;
    return hit;
  },
});

/** The regex rule plus the regexes its refine grades with, so the ReDoS check sees them all. */
export const ceSkillDynamicContextRule: Rule = {
  ...dynamicContextRule,
  regexes: [...dynamicContextRule.regexes, STEP_SPLIT, NETWORK_OR_SHELL, ENV_DUMP, READS_FILE, SENSITIVE_PATH],
};
