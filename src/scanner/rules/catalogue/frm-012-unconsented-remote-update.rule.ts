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
      'A skill that downloads and applies updates, plugins or scripts on its own (users "are not prompted to approve", "silently", "cannot be disabled") runs whatever its author\'s server serves next. The frame needs a fetch ACTION, an execute/apply ACTION and CONSENT bypassed or CONCEALMENT in one window; an approval step silences it.',
    example: 'The skill downloads and applies updates automatically; users are not prompted to approve them.',
  },
  needs: [{ any: ['action-fetch'] }, { any: ['action-execute'] }, { any: ['consent-bypass', 'concealment', 'stealth'] }],
  unless: ['consent-given'],
});
