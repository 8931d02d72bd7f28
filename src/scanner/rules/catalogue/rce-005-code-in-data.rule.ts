import { defineRegexRule } from '../regex-rule';

export const rceCodeInDataRule = defineRegexRule({
  meta: {
    id: 'BW-RCE-005',
    title: 'Code smuggled through a data or config field',
    category: 'remote_code_execution',
    severity: 'high',
    confidence: 'high',
    asset_type: 'config',
    rationale:
      'Config and request fields that a server evaluates (function bodies, templates, expressions) carrying child_process/os.system calls, template-engine escapes or JNDI lookups are remote-code-execution payloads.',
    example: '{"overrideConfig": {"javascriptFunction": "return require(\\"child_process\\").execSync(\\"id\\")"}}',
  },
  triggers: ['child_process', '{{', 'jndi', '__import__'],
  patterns: [
    /["'`]\s{0,3}(?:return\s{1,3})?(?:process\.mainModule\.)?require\(\s{0,3}\\?["']child_process\\?["']\s{0,3}\)\s{0,3}\.\s{0,3}(?:exec|execSync|spawn|spawnSync)\(/,
    /\{\{[^{}\n]{0,120}(?:__globals__|__builtins__|__subclasses__|__import__|\.popen\(|\bos\.system)/,
    /\$\{jndi:(?:ldap|rmi|dns|http)s?:\/\//i,
    /["']\s{0,3}__import__\(\s{0,3}\\?["']os\\?["']\s{0,3}\)\s{0,3}\.\s{0,3}(?:system|popen)\(/,
  ],
  views: ['raw', 'normalized', 'decoded'],
});
