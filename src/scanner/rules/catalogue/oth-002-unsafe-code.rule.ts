import { defineRegexRule, perFile } from '../regex-rule';

/** The file validates paths somewhere, so a path join is not an unchecked traversal. */
const validatesPaths = perFile((ctx) => /realpath|abspath|commonpath|is_relative_to|resolve\(\)|normpath|secure_filename|basename/.test(ctx.text));

export const othUnsafeCodeRule = defineRegexRule({
  meta: {
    id: 'BW-OTH-002',
    title: 'Vulnerable code pattern (SQL built from strings, unbounded loops, unsafe deserialisation)',
    category: 'other',
    severity: 'low',
    confidence: 'high',
    asset_type: 'script',
    rationale:
      'Bundled scripts that build SQL with f-strings/concatenation, loop forever while allocating, or deserialise untrusted data (pickle, yaml.load) are exploitable by whatever input the agent passes them.',
    example: 'cursor.execute(f"SELECT * FROM users WHERE name = \'{name}\'")',
    example_path: 'scripts/lookup.py',
  },
  triggers: ['.execute', 'select', 'delete', 'update', 'insert', 'pickle', 'yaml.load', 'marshal', 'while', '*', 'os.fork', 'os.path.join', 'open('],
  patterns: [
    /\.execute(?:many)?\(\s{0,3}(?:f["']|["'][^"'\n]{0,200}["']\s{0,3}(?:%|\+|\.format\())[^\n]{0,40}(?:SELECT|INSERT|UPDATE|DELETE|WHERE)?/i,
    /\b(?:SELECT|DELETE|UPDATE|INSERT)\b[^\n"']{0,120}\bWHERE\b[^\n"']{0,80}["']\s{0,3}\+\s{0,3}\w/,
    /\bpickle\.loads?\(|\byaml\.load\((?![^\n)]{0,80}Loader\s{0,3}=\s{0,3}(?:yaml\.)?SafeLoader)|\bmarshal\.loads\(/,
    /\bwhile\s{1,3}(?:True|1|true)\s{0,3}:?\s{0,3}\{?\s{0,3}$/m,
    /\*\s{0,3}10\s{0,3}\*\*\s{0,3}(?:[7-9]|\d{2})\b|\*\s{0,3}\d{7,}\b|\bos\.fork\(\)\s{0,3}$/m,
    /\bf["'](?:SELECT|INSERT|UPDATE|DELETE)\b[^"'\n]{0,200}\{\w{1,40}\}/i,
    /\bos\.path\.join\(\s{0,3}\w{1,30}\s{0,3},\s{0,3}\w{1,30}\s{0,3}\)|\bopen\(\s{0,3}f["'][^"'\n]{0,120}\{\w{1,40}\}/,
  ],
  languages: ['python', 'javascript', 'shell'],
  refine(hit, m, ctx) {
    if (/^while/.test(m[0])) {
      // An infinite loop is only a finding when its body (the indented lines below) never leaves it.
      const indent = (ctx.lines[hit.line - 1].match(/^\s*/) ?? [''])[0].length;
      const body: string[] = [];
      for (let i = hit.line; i < ctx.lines.length && i < hit.line + 200; i++) {
        const l = ctx.lines[i];
        if (l.trim() === '') continue;
        if ((l.match(/^\s*/) ?? [''])[0].length <= indent && !l.trim().startsWith('}')) break;
        body.push(l);
      }
      if (/\b(?:break|return|sys\.exit|raise|exit|yield|await|sleep)\b/.test(body.join('\n'))) return null;
    }
    if (/os\.path\.join|^open/.test(m[0]) && validatesPaths(ctx)) return null;
    return hit;
  },
});
