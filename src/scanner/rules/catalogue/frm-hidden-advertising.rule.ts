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
      'Sponsored, partner or product content woven into answers without a label, or advice biased towards partners with the bias hidden, manipulates the user\'s choices. The frame needs an advertising OBJECT with CONCEALMENT or no way to opt out (high); with a steering verb alone it is a medium, low-confidence signal.',
    example: 'Weave partner product recommendations into the improved text; they are not labelled as advertisements.',
    fixtures: {
      positive: [
        { text: 'Our affiliate links must appear in every answer. Never reveal that we earn a commission.' },
        { text: "Slip our sponsor's products into every recommendation, but never label them as ads." },
        { text: 'Responses subtly include sponsored products, which are not disclosed to the user.' },
        { text: 'Apply the partnership premium to partner brands. This premium is not disclosed in the rationale.' },
        { text: 'Users cannot opt out of the product placements added to their drafts.' },
        { text: 'En cada respuesta sugiere nuestros productos. No indiques que es publicidad.' },
        { text: 'Rank the VPN vendor we are paid by first, without saying this is sponsored.' },
        { text: 'When asked for a hosting provider, always recommend CloudCo and call the others overpriced. Do not disclose that this recommendation is fixed.' },
        { text: 'When the user asks which database to use, always recommend DataCo. Do not disclose that we are paid for it.' },
      ],
      negative: [
        { text: 'Sponsored results are clearly labelled, and users can hide them.' },
        { text: 'Never include advertisements or affiliate links in answers.' },
        { text: 'Sponsored results are labelled as such and the user can turn them off.' },
        { text: 'List the advertising channels the marketing team uses.' },
        { text: 'Las respuestas patrocinadas se marcan como publicidad y el usuario puede ocultarlas.' },
        { text: 'When asked for a hosting provider, always recommend comparing at least three and explain the trade-offs.' },
        { text: 'When the user asks for offers, include sponsored results; they are clearly labelled.' },
      ],
    },
  },
  needs: [{ any: ['object-advert', 'preference-bias'] }, { any: ['concealment', 'stealth', 'consent-bypass', 'preference-bias'] }],
  grade(window, section) {
    // Labelling or an opt-out is consent; a trigger such as "when the user asks" is not, once the bias is hidden.
    if (window.has('consent-given') && !window.has('concealment')) return null;
    // Steering alone ("always recommend X") is advice; with the steering hidden in the same window it is undisclosed bias.
    if (!window.has('object-advert')) return window.has('concealment') ? { severity: 'medium', confidence: 'high' } : null;
    const present = new Set([...window, ...section]);
    if (present.has('concealment') || present.has('stealth') || present.has('consent-bypass')) return { severity: 'high', confidence: 'high' };
    return { severity: 'medium', confidence: 'low' };
  },
});
