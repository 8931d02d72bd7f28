import { defineRegexRule } from '../regex-rule';

export const urlUnpinnedDownloadRule = defineRegexRule({
  meta: {
    id: 'BW-URL-004',
    title: 'Unpinned "latest" download or install without integrity check',
    category: 'unsafe_external_reference',
    severity: 'low',
    confidence: 'high',
    asset_type: 'instructions',
    rationale:
      'Downloading whatever release is "latest" (or `@latest` packages) and installing it without a version pin or checksum means the code that runs can change after review.',
    example: 'curl -sSLo /tmp/t.tgz https://github.com/o/r/releases/latest/download/t-linux-amd64.tgz',
  },
  triggers: ['releases/latest', '@latest'],
  patterns: [
    /\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n]{0,200}\/releases\/latest\b/i,
    /\b(?:npx|bunx|pnpx|uvx)\s{1,3}(?:-y\s{1,3}|--yes\s{1,3})?[@\w./-]{1,80}@latest\b/,
  ],
  views: ['raw', 'normalized'],
});
