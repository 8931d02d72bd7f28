import { defineFrameRule } from '../../instructions/frame-rule';

export const frmUnconsentedRemoteUpdateRule = defineFrameRule({
  meta: {
    id: 'BW-FRM-012',
    title: "Code fetched and run without the user's approval",
    category: 'remote_code_execution',
    severity: 'high',
    confidence: 'high',
    asset_type: 'instructions',
    shows_intent: true,
    rationale:
      'A skill that downloads and applies updates, plugins or scripts on its own (users "are not prompted to approve", "silently", "cannot be disabled") runs whatever its author\'s server serves next. The frame needs a fetch ACTION, an execute/apply ACTION and CONSENT bypassed or CONCEALMENT in one window, or hiding that points back at the steps anywhere in their section; an approval step in the window silences it.',
    example: 'The skill downloads and applies updates automatically; users are not prompted to approve them.',
  },
  // "These steps are not shown to the user": a paragraph after the steps may hide them, so hiding
  // that points back at the act (the only concealment the instruction layer keeps section-wide)
  // counts anywhere in the section; a waiver of consent only beside the steps.
  needs: [
    { any: ['action-fetch'] },
    { any: ['action-execute'] },
    { any: ['consent-bypass', 'concealment', 'stealth'], reach: 'section', reachBy: ['concealment'] },
  ],
  unless: ['consent-given'],
});
