import { defineRegexRule } from '../regex-rule';

export const ceDynamicExecRule = defineRegexRule({
  meta: {
    id: 'BW-CE-002',
    title: 'Dynamic code or shell execution of non-literal input',
    category: 'code_execution',
    severity: 'medium',
    confidence: 'medium',
    asset_type: 'script',
    rationale:
      'eval/exec/new Function on variables, shell=True with formatted strings, os.system/execSync with interpolation, and server-side JavaScript functions from request data let input become code. Often a vulnerability rather than an attack, hence medium.',
    example: 'result = eval(user_expression)',
    example_path: 'scripts/calc.py',
  },
  triggers: ['eval', 'exec', 'function', 'shell', 'os.system', 'os.popen', 'spawnsync', 'javascriptfunction', 'vm.run'],
  patterns: [
    /(?<![.\w])(?:eval|exec)\s{0,3}\(\s{0,3}(?!["'`)\s])[A-Za-z_][\w.[\]'"]{0,60}\s{0,3}[,)]/,
    /\bnew\s{1,3}Function\s{0,3}\(/,
    /\bshell\s{0,3}=\s{0,3}True\b/,
    /\bos\.(?:system|popen)\s{0,3}\(\s{0,3}(?:f["']|[A-Za-z_]\w{0,40}\s{0,3}[+%)]|["'][^"'\n]{0,80}["']\s{0,3}(?:\+|%|\.format))/,
    /\b(?:execSync|exec|spawnSync)\s{0,3}\(\s{0,3}`[^`\n]{0,200}\$\{/,
    /\bjavascriptFunction\b|\bvm\.runIn(?:New|This)Context\(/,
  ],
  languages: ['python', 'javascript', 'shell', 'powershell', 'json'],
  refine(hit, m, ctx) {
    const line = ctx.lines[hit.line - 1] ?? '';
    // shell=True / template commands with program-internal values are hygiene issues, not exploits,
    // unless the command is assembled from formatted input on the same line.
    if (/^shell/.test(m[0]) && !/f["']|\.format\(|%\s|\+\s{0,3}\w/.test(line)) return { ...hit, severity: 'low' };
    if (/^(?:execSync|exec|spawnSync)/.test(m[0])) return { ...hit, severity: 'low' };
    // eval/exec of a variable is input-to-code: a confident medium.
    if (/^(?:eval|exec)\s{0,3}\(/.test(m[0])) return { ...hit, confidence: 'high' };
    return hit;
  },
});
