import { defineRegexRule } from '../regex-rule';

export const urlRiskyDestinationRule = defineRegexRule({
  meta: {
    id: 'BW-URL-001',
    title: 'Risky external reference (IP literal, tunnel, shortener, punycode, raw paste)',
    category: 'unsafe_external_reference',
    severity: 'medium',
    confidence: 'medium',
    asset_type: 'url',
    shows_intent: true,
    rationale:
      'Public IP literals, tunnelling services, URL shorteners, punycode hosts and raw paste/gist URLs hide who controls the destination or let it change after review. Loopback and private addresses are ignored.',
    example: 'https://bit.ly/3xYz',
  },
  triggers: ['://', 'ngrok', 'trycloudflare', 'loca.lt', 'localtunnel', 'serveo', 'bore.pub', 'localhost.run', 'pagekite', 'tunnelmole', 'lhr.life'],
  patterns: [
    /\b(?:https?|ftp|wss?):\/\/(?!(?:127\.|10\.|0\.0\.0\.0|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.))\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?::\d{1,5})?/i,
    /\b[\w-]{1,63}\.(?:ngrok(?:-free)?\.(?:app|io|dev)|trycloudflare\.com|loca\.lt|localtunnel\.me|serveo\.net|bore\.pub|localhost\.run|pagekite\.me|tunnelmole\.net|lhr\.life)\b/i,
    /\bngrok\s{1,3}(?:http|tcp|tls)\s{1,3}\d{2,5}/i,
    /\bhttps?:\/\/(?:bit\.ly|tinyurl\.com|t\.co|goo\.gl|is\.gd|ow\.ly|buff\.ly|rebrand\.ly|cutt\.ly|shorturl\.at|rb\.gy|tiny\.cc|s\.id|v\.gd)\/\w/i,
    /\bhttps?:\/\/(?:[\w-]{1,63}\.){0,5}xn--[\w-]{1,59}/i,
    /\bhttps?:\/\/(?:pastebin\.com\/raw|gist\.githubusercontent\.com|paste\.[\w-]{1,40}\.[a-z]{2,10}\/raw|hastebin\.com\/raw|rentry\.co\/[\w-]{1,40}\/raw)/i,
    /\bhttps?:\/\/[\w.-]{1,100}\/raw\/[\w-]{3,40}\b/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
  refine(hit, _m, ctx) {
    const line = ctx.lines[hit.line - 1] ?? '';
    // A tunnel or IP literal configured as where data/tokens go (base URL, callback, webhook,
    // endpoint) routes the user's traffic through a host the author controls.
    if (/\b(?:base_?url|callback|redirect_?uri|webhook|endpoint|server_?url|api_?url|upload|collect|exfil|report_?url)\b/i.test(line)) {
      return { ...hit, severity: 'high', confidence: 'high' };
    }
    return hit;
  },
});
