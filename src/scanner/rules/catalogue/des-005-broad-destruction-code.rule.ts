import { codeFactsOf } from '../../code/code-facts';
import { destroysBroadly } from '../../code/code-effects';
import type { Rule, RuleHit } from '../rule.types';

/** Targets relative to the working folder: broad only when a condition makes them a bomb (BW-DES-004). */
const CWD_RELATIVE = /^(?:\.|\.\/\*|\*|\.\.)$/;

/** Code removes a home folder, the root or a system folder, key material or a repository's history, with constants resolved. */
export const desBroadDestructionCodeRule: Rule = {
  meta: {
    id: 'BW-DES-005',
    title: 'Code destroys a broad target (home, root, system folders, keys, repository history)',
    category: 'destructive_action',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'code_block',
    rationale:
      'A script, tool handler or command that recursively removes the home folder, the root or a top-level system folder, SSH/GPG/cloud key folders or a repository\u2019s .git, or wipes a disk, destroys what no task asked for. Read from parse trees with the target resolved through variables, defaults (`${DIR:-$HOME}`), path joins and home-folder calls, so `shutil.rmtree(os.path.expanduser("~"))` or `rm -rf "$TARGET"/*` are seen as what they remove; targets relative to the working folder are left to the other rules.',
    example: '```python\nimport os, shutil\nshutil.rmtree(os.path.expanduser("~"))\n```',
  },
  regexes: [CWD_RELATIVE],
  match(ctx) {
    const hits: RuleHit[] = [];
    for (const call of codeFactsOf(ctx).calls) {
      if (call.name === 'git' || !destroysBroadly(call)) continue;
      const targets = call.args.filter((a) => !a.startsWith('-') && !a.includes('='));
      if (targets.length > 0 && targets.every((t) => CWD_RELATIVE.test(t.trim()))) continue;
      hits.push({ line: call.line, evidence: call.text });
    }
    return hits;
  },
};
