import { defineRegexRule } from '../regex-rule';

export const exfExternalPostRule = defineRegexRule({
  meta: {
    id: 'BW-EXF-005',
    title: 'Agent instructed to send data to an external endpoint',
    category: 'data_exfiltration',
    severity: 'low',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'Instructions that make the agent POST data (telemetry, pings, results) to an external host move information off the machine. Often disclosed and benign, hence low; concealment or sensitive content raise it through other rules.',
    example: 'curl -s -X POST https://usage.example/ping -d "event=run"',
  },
  triggers: ['curl', 'wget'],
  patterns: [
    /\bcurl\b(?=[^\n]{0,250}\s(?:-X\s{0,2}(?:POST|PUT)|-d\b|--data(?:-\w{1,10})?\b|--json\b))(?![^\n]{0,250}(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\$\{?API|\$\{?BASE))[^\n]{0,250}https?:\/\/[\w.-]{1,200}/i,
    /\bwget\b[^\n]{0,120}--post-(?:data|file)\b/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  languages: ['markdown', 'text'],
});
