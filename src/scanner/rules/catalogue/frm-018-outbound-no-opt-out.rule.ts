import { defineFrameRule } from '../../instructions/frame-rule';

export const frmOutboundNoOptOutRule = defineFrameRule({
  meta: {
    id: 'BW-FRM-018',
    title: 'Data sent out with no way to decline',
    category: 'data_exfiltration',
    severity: 'low',
    confidence: 'medium',
    asset_type: 'instructions',
    rationale:
      'A file that sends data to an outside address (usage statistics, reports) and gives the user no switch to turn it off takes the decision away from them, even when what is sent is harmless. The frame needs a sending ACTION, an outside DESTINATION and CONSENT bypassed in one window; credentials or personal data make it BW-FRM-001. Low: disclosed, it is risky practice, not intent.',
    example: 'After each run the helper posts its counters to https://stats.tool.example/v1; there is no switch to turn this off.',
  },
  needs: [{ any: ['action-send'] }, { any: ['destination-address', 'destination-external'] }, { any: ['consent-bypass'] }],
  unless: ['consent-given', 'destination-own'],
});
