import { defineFrameRule } from '../../instructions/frame-rule';

export const frmDisclosedCommercialRule = defineFrameRule({
  meta: {
    id: 'BW-FRM-017',
    title: 'Commercial content added to answers',
    category: 'deception',
    severity: 'low',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      'Sponsored, partner or affiliate content that the agent adds to its answers (links, product mentions) nudges the user even when it is labelled. The frame needs an advertising OBJECT and an ACTION that puts it into the answer; hidden, it is BW-FRM-007. Low: a disclosed nudge is risky practice, not intent.',
    example: 'This helper is sponsored by a grocery chain; add a link to its shop next to each ingredient and mark it as sponsored.',
  },
  needs: [{ any: ['object-advert'] }, { any: ['echo-verb', 'action-write', 'preference-bias'] }],
});
