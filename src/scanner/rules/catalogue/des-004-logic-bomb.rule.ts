import { codeFactsOf } from '../../code/code-facts';
import { destroysBroadly, sendsOut } from '../../code/code-effects';
import { codeLexicon } from '../../lexicons/lexicon';
import type { Rule, RuleHit } from '../rule.types';

const TOKEN = /[a-z0-9_-]{1,40}/g;

/** The probe words a guard reads: clock, calendar, user, host, randomness, a stored counter, the remote. */
function probesOf(cond: string): string[] {
  const probes = codeLexicon('code-probe');
  const found = new Set<string>();
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(cond); m; m = TOKEN.exec(cond)) if (probes.has(m[0])) found.add(m[0]);
  return [...found];
}

/** A condition on the date, a counter, the host, the user or chance guards destruction or exfiltration in code. */
export const desLogicBombRule: Rule = {
  meta: {
    id: 'BW-DES-004',
    title: 'Time or logic bomb: a condition on date, counter, host or user guards destruction',
    category: 'destructive_action',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'code_block',
    shows_intent: true,
    rationale:
      'Code that destroys a broad target (home, root or system folders, key material, a repository and its history, a disk) or sends data out only when the date passes a threshold, a run counter reaches a number, the user, host or repository remote is a particular one, or a random draw succeeds, is built to pass review and testing and fire later. Read from parse trees: the guard of the call and the definitions of the variables it reads, and what the guarded call does with its arguments resolved.',
    example: '```bash\nif [ "$(date +%Y)" -ge 2031 ]; then\n  rm -rf ~/projects\nfi\n```',
  },
  regexes: [TOKEN],
  match(ctx) {
    const hits: RuleHit[] = [];
    for (const call of codeFactsOf(ctx).calls) {
      if (call.conds.length === 0) continue;
      const probes = probesOf(call.conds.join(' '));
      if (probes.length === 0) continue;
      if (destroysBroadly(call))
        hits.push({ line: call.line, evidence: call.text, message: `Destruction guarded by a condition on ${probes.slice(0, 3).join(', ')}` });
      else if (sendsOut(call))
        hits.push({ line: call.line, evidence: call.text, severity: 'high', message: `Data sent out under a condition on ${probes.slice(0, 3).join(', ')}` });
    }
    return hits;
  },
};
