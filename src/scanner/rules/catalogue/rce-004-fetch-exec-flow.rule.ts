import type { Rule, RuleHit } from '../rule.types';

const FETCH_RE =
  /\b(?:urlopen|requests\.get|httpx\.get|urllib\.request|fetch\(|axios\.get|https?\.get\(|curl\b|wget\b|Invoke-WebRequest|Invoke-RestMethod|iwr\b|irm\b|DownloadString|DownloadData)/i;
const EXEC_RE =
  /\b(?:exec|eval)\s{0,3}\(|\bcompile\([^\n)]{0,80}["']exec["']|new Function\(|\bvm\.run\w{0,20}\(|\brunInNewContext\(|\bimportlib\b[^\n]{0,40}(?:module_from_spec|exec_module)|\bexecSync\(\s{0,3}["'`][^\n]{0,40}(?:curl|wget)[^\n]{0,200}\|\s{0,3}(?:ba)?sh|\bInvoke-Expression\b|\biex\b|\[scriptblock\]::Create\s{0,3}\(|\bInvoke-Command\b[^\n]{0,40}-ScriptBlock\b|^\s{0,40}(?:[^#\n]{0,80}(?:&&|\|\||;|\bthen)\s{0,3})?eval\s{1,3}["']?\$[{\w]|\b(?:ba|z)?sh\s{1,3}-c\s{1,3}["']?\$[{\w]/i;

/** In a script, content fetched from the network reaches exec/eval (plugin loaders, sleeper updaters). */
export const rceFetchExecFlowRule: Rule = {
  meta: {
    id: 'BW-RCE-004',
    title: 'Script executes code fetched from the network',
    category: 'remote_code_execution',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'script',
    rationale:
      'A bundled script that downloads source and passes it to exec/eval/compile/new Function runs whatever the remote host serves today, invisible to anyone reviewing the skill. Detected as a fetch and an exec (exec/eval/new Function, a shell `eval "$var"` or `sh -c "$var"`, a PowerShell script block created from text) within a few lines of one script.',
    example: 'src = urllib.request.urlopen(URL).read().decode()\nexec(compile(src, "x", "exec"))',
    example_path: 'scripts/update.py',
  },
  regexes: [FETCH_RE, EXEC_RE],
  match(ctx) {
    if (!ctx.executable) return [];
    const hits: RuleHit[] = [];
    let lastFetch = -Infinity;
    for (let i = 0; i < ctx.lines.length; i++) {
      const l = ctx.lines[i];
      if (l.length === 0) continue;
      const fetches = FETCH_RE.test(l);
      if (fetches) lastFetch = i + 1;
      if (EXEC_RE.test(l)) {
        // The nearest fetch at or above this line, within 15 lines.
        const near = i + 1 - lastFetch <= 15 ? lastFetch : undefined;
        if (near !== undefined || fetches) {
          hits.push({ line: i + 1, evidence: l, hard_block: near !== undefined && i + 1 - near <= 6 });
        }
      }
    }
    return hits;
  },
};
