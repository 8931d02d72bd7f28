import { defineRegexRule } from '../regex-rule';

export const ceDecodeExecRule = defineRegexRule({
  meta: {
    id: 'BW-CE-001',
    title: 'Decode-then-execute',
    category: 'code_execution',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'instructions',
    hard_block: true,
    rationale:
      'Decoding a base64/hex/ROT13/zlib blob and passing it straight to exec/eval/sh/iex hides the code that runs from every reviewer. Legitimate software has no reason to do this in an agent skill.',
    example: 'python3 -c "import base64;exec(base64.b64decode(\'…\'))"',
  },
  triggers: ['exec', 'eval', 'compile', 'function', 'base64', 'base32', 'powershell', 'pwsh', 'frombase64string', 'xxd'],
  patterns: [
    /\b(?:exec|eval|compile)\s{0,3}\(\s{0,3}(?:[\w.]{1,40}\()?\s{0,3}(?:base64\.(?:b64|b32|b16|urlsafe_b64)decode|codecs\.decode|zlib\.decompress|marshal\.loads|bytes\.fromhex|binascii\.(?:a2b_base64|unhexlify)|__import__\(\s{0,3}["']base64)/i,
    /\b(?:eval|Function|execSync|exec)\s{0,3}\(\s{0,3}(?:atob\(|Buffer\.from\([^\n)]{1,200},\s{0,3}["'](?:base64|hex)["']\))/,
    /\bbase(?:64|32)\s{1,3}(?:-d|--decode|-D)\b[^\n|]{0,80}\|\s{0,3}(?:sudo\s{1,3})?(?:ba|z)?sh\b|\bbase(?:64|32)\s{1,3}(?:-d|--decode|-D)\b[^\n|]{0,80}\|\s{0,3}python3?\b/i,
    /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,60}\s-(?:e|ec|enc|encodedcommand)\s{1,3}[A-Za-z0-9+/=]{8,}/i,
    /\bFromBase64String\([^\n]{0,200}\)[^\n]{0,80}(?:\|\s{0,3}iex|Invoke-Expression)/i,
    /\bxxd\s{1,3}-r\s{1,3}-p\b[^\n|]{0,80}\|\s{0,3}(?:ba)?sh\b/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
});
