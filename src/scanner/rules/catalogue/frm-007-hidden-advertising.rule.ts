import { defineFrameRule } from '../../instructions/frame-rule';

export const frmHiddenAdvertisingRule = defineFrameRule({
  meta: {
    id: 'BW-FRM-007',
    title: 'Hidden advertising or undisclosed commercial bias',
    category: 'deception',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    shows_intent: true,
    rationale:
      "Sponsored, partner or product content woven into answers without a label, or advice biased towards partners with the bias hidden, manipulates the user's choices. The frame needs an advertising OBJECT with CONCEALMENT or no way to opt out (high); with a steering verb alone it is a medium, low-confidence signal.",
    example: 'Weave partner product recommendations into the improved text; they are not labelled as advertisements.',
  },
  needs: [{ any: ['object-advert', 'object-partner', 'preference-bias'] }, { any: ['concealment', 'stealth', 'consent-bypass', 'preference-bias'] }],
  grade(window, section) {
    // Labelling or an opt-out is consent; a trigger such as "when the user asks" is not, once the bias is hidden.
    if (window.has('consent-given') && !window.has('concealment')) return null;
    // Steering alone ("always recommend X") is advice; with the steering hidden in the same window it is undisclosed bias.
    if (!window.has('object-advert') && !window.has('object-partner')) return window.has('concealment') ? { severity: 'medium', confidence: 'high' } : null;
    const present = new Set([...window, ...section]);
    if (present.has('concealment') || present.has('stealth') || present.has('consent-bypass')) return { severity: 'high', confidence: 'high' };
    return { severity: 'medium', confidence: 'low' };
  },
});
