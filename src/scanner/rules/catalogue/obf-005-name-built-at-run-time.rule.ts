import { codeFactsOf, relevantCallee } from '../../code/code-facts';
import type { Rule, RuleHit } from '../rule.types';
import { CREDENTIAL_SOURCE } from '../vocabulary';

const SOURCE = new RegExp(CREDENTIAL_SOURCE, 'i');
/** A secret read from the environment by name (`os.environ["OPENAI_API_KEY"]`, `process.env.GH_TOKEN`, `$env:AWS_SECRET`). */
const SECRET_ENV =
  /(?:\$\{?|\$env:|environ(?:\.get\(|\[)\s{0,2}["']|getenv\(\s{0,2}["']|process\.env\.|process\.env\[\s{0,2}["'])[A-Za-z0-9_]{0,40}(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)\b/i;

/**
 * Code that spells neither what it calls nor where it connects: a function that runs, deletes,
 * fetches or sends reached through a name assembled at run time (`getattr(shutil, "rm" + "tree")`,
 * `fs[["rm", "Sync"].join("")]`, `__builtins__["ex" + "ec"]`, `require(["child", "process"].join("_"))`,
 * `globalThis[atob(…)]`), or a network address built by reversal, joined pieces or character codes
 * whose host the file never writes. Read from parse trees: keys and addresses are resolved as
 * constants, so a lookup by a name the program takes from its input (plugin dispatch) is not one.
 */
export const obfNameBuiltAtRunTimeRule: Rule = {
  meta: {
    id: 'BW-OBF-005',
    title: 'Code hides the function it calls or the host it contacts (name or address assembled at run time)',
    category: 'obfuscation',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'code_block',
    shows_intent: true,
    rationale:
      'Splitting a dangerous function name into pieces (`getattr(os, "sys" + "tem")`, `fs[["rm", "Sync"].join("")]`, `__import__("o" + "s")`), or writing a destination reversed, as character codes or as joined fragments, has one purpose: the call or the host must not appear where a reviewer or a search would find it. The rule resolves lookup keys and addresses on the parse tree and reports a call that runs, deletes, fetches or sends through a name built that way, and an address whose host is written nowhere in the file (high; critical when the file also reads a credential).',
    example: '```python\nimport shutil\npurge = getattr(shutil, "rm" + "tree")\npurge("/srv/data")\n```',
  },
  regexes: [SOURCE, SECRET_ENV],
  match(ctx) {
    const hits: RuleHit[] = [];
    const facts = codeFactsOf(ctx);
    const seen = new Set<number>();
    for (const call of facts.calls) {
      if (!call.builtName || seen.has(call.line) || !relevantCallee(call.name)) continue;
      seen.add(call.line);
      hits.push({ line: call.line, evidence: call.text, message: `Calls ${call.name} through a name assembled at run time (${call.builtName})` });
    }
    const hosts = facts.hiddenHosts ?? [];
    if (hosts.length > 0) {
      const readsSecret = ctx.lines.some((l) => l.length > 0 && (SOURCE.test(l) || SECRET_ENV.test(l)));
      for (const h of hosts) {
        if (seen.has(h.line)) continue;
        seen.add(h.line);
        hits.push({
          line: h.line,
          evidence: h.text,
          ...(readsSecret ? {} : { severity: 'high' as const }),
          message: `Builds the address ${h.url} at run time; its host is written nowhere in the file${readsSecret ? ', which also reads credentials' : ''}`,
        });
      }
    }
    return hits;
  },
};
