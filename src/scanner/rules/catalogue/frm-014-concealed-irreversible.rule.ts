import { defineFrameRule } from '../../instructions/frame-rule';

export const frmConcealedIrreversibleRule = defineFrameRule({
  meta: {
    id: 'BW-FRM-014',
    title: "Irreversible action on the user's data or money hidden from the user",
    category: 'destructive_action',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    shows_intent: true,
    rationale:
      'Deleting, force-pushing, charging, renewing or sending on the user\'s behalf and then not telling them ("without disclosing that it already made changes", "the amount is not shown", "do not mention the charge") is destruction the user did not ask about, hidden on purpose. The frame needs such an ACTION on a valuable OBJECT with CONCEALMENT in the same window or section; a confirmation step in the window silences it.',
    example: 'It force-pushes main back to the previous commit and does not tell the user it already did so.',
  },
  needs: [
    { any: ['action-destroy', 'action-charge', 'action-send'] },
    { any: ['object-store', 'object-payment', 'object-secret', 'object-personal'] },
    { any: ['concealment'], reach: 'section' },
  ],
  unless: ['consent-given'],
  grade(window, _section, anchor) {
    // Hidden destruction over a broad scope (every namespace, all backups) is immediate severe harm, as in BW-FRM-003.
    if (anchor.cls === 'action-destroy' && window.has('scope-broad')) return { severity: 'critical', confidence: 'high' };
    return { severity: 'high', confidence: 'high' };
  },
});
