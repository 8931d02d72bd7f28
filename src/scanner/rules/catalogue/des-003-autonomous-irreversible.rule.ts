import { INTRANSITIVE_END_RE, PAYMENT_NOUN_RE, TERMINATION_LABEL_RE } from '../benign-forms';
import { defineRegexRule } from '../regex-rule';

export const desAutonomousIrreversibleRule = defineRegexRule({
  meta: {
    id: 'BW-DES-003',
    title: 'Irreversible real-world action taken autonomously',
    category: 'destructive_action',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'Purchases, payments, transfers, terminations and deletions carried out "immediately", "automatically" or "without confirmation" cannot be undone when the agent misreads intent or is manipulated.',
    example: 'Proceed directly to purchase without asking for confirmation.',
  },
  triggers: ['purchas', 'buy', 'pay', 'transfer', 'terminat', 'wire'],
  patterns: [
    /\b(?:purchas\w{0,4}|buy(?:ing|s)?|pay(?:ing|ments?)?|transfer(?:s|ring)?\s{1,3}(?:the\s{1,3})?(?:funds|money|payment)|terminat\w{0,6}|wire\s{1,3}(?:the\s{1,3})?(?:funds|money))\b[^\n.]{0,80}\b(?:immediately|automatically|without\s{1,3}(?:asking|confirmation|approval|prompting)|regardless\s{1,3}of)/i,
    /\b(?:proceed(?:s)?\s{1,3}directly\s{1,3}to|automatically|immediately)\s{1,3}(?:purchase|buy|pay|terminate|transfer\s{1,3}(?:the\s{1,3})?funds)\b/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  // "payment methods … chosen automatically" names a product feature, not the act of paying.
  // "terminate immediately" with nothing terminated is a program ending (std::terminate), not an action on a resource.
  // A table row's cells are separate statements ("`terminate()` | Immediately stops the worker").
  refine: (hit, _m, ctx) =>
    PAYMENT_NOUN_RE.test(hit.evidence) ||
    INTRANSITIVE_END_RE.test(hit.evidence) ||
    TERMINATION_LABEL_RE.test(hit.evidence) ||
    (ctx.lineInfo[hit.line - 1]?.table && hit.evidence.includes('|'))
      ? null
      : hit,
});
