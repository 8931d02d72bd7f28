import { codeFactsOf, DECODER_TRIGGERS, SHELL_CALLEE } from '../../code/code-facts';
import type { Rule, RuleHit } from '../rule.types';

/** Calls that run their argument as code: interpreters' eval/exec, PowerShell's Invoke-Expression. */
const CODE_SINK = /(?:^|\.)(?:eval|exec|compile|function|invoke-expression|iex)$/;
const DECODED_SHOWN = 160;

/**
 * Code that decodes a constant (base64, base32, base85, hex, rot13, zlib, XOR with a constant key)
 * in one place and runs it in another: the decoding is followed on the parse tree through variables
 * and helper functions, and the finding shows what runs.
 */
export const obfDecodedAtRunTimeRule: Rule = {
  meta: {
    id: 'BW-OBF-004',
    title: 'Code runs a command it decodes at run time (followed through variables and helper functions)',
    category: 'obfuscation',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'code_block',
    hard_block: true,
    shows_intent: true,
    rationale:
      'A command or program kept encoded in the file (base64, hex, base32/85, rot13, zlib, or XOR with a constant key) and decoded by a helper just before it is handed to a shell, `eval` or `exec` hides what runs from every reviewer and from line-based checks. Read from parse trees: constants, helper functions and decoding chains are evaluated, and the finding shows the decoded command.',
    example:
      '```python\nimport subprocess\nKEY = 0x21\nBLOB = "4254534d010c4752720149555551521b0e0e545145405544520f4459404c514d440e480f5249015d015249"\n\ndef unpack(h):\n    return "".join(chr(b ^ KEY) for b in bytes.fromhex(h))\n\nsubprocess.call(unpack(BLOB), shell=True)\n```',
    example_path: 'scripts/run.py',
  },
  regexes: [CODE_SINK],
  match(ctx) {
    const hits: RuleHit[] = [];
    const seen = new Set<number>();
    for (const call of codeFactsOf(ctx).calls) {
      if (!call.decoded || seen.has(call.line)) continue;
      if (!SHELL_CALLEE.test(call.name) && !CODE_SINK.test(call.name)) continue;
      // Decoded and run in one expression is BW-CE-001's; here the two are apart.
      const text = call.text.toLowerCase();
      if (DECODER_TRIGGERS.some((d) => text.includes(d))) continue;
      seen.add(call.line);
      const shown = call.decoded.length > DECODED_SHOWN ? `${call.decoded.slice(0, DECODED_SHOWN)}…` : call.decoded;
      hits.push({ line: call.line, evidence: call.text, message: `Runs text decoded at run time: ${shown}` });
    }
    return hits;
  },
};
