import { checkMcpOrigin, hostName, mcpOriginPolicy } from './mcp-origin';

describe('mcp origin policy', () => {
  const policy = mcpOriginPolicy('https://bulwark.example.com', ['https://console.example.org']);

  it('parses Host header values', () => {
    expect(hostName('localhost:3000')).toBe('localhost');
    expect(hostName('Bulwark.Example.com')).toBe('bulwark.example.com');
    expect(hostName('[::1]:8080')).toBe('::1');
    expect(hostName('[::1]')).toBe('::1');
    expect(hostName('[nope]:1')).toBeNull();
    expect(hostName('a b')).toBeNull();
    expect(hostName('')).toBeNull();
    expect(hostName('evil.com:80:90')).toBeNull();
  });

  it('accepts loopback and the PUBLIC_URL host, on any port, with or without an allowed Origin', () => {
    for (const host of ['localhost:3000', '127.0.0.1:1', '[::1]:3000', 'bulwark.example.com', 'bulwark.example.com:8443']) {
      expect(checkMcpOrigin(policy, host, undefined)).toEqual({ ok: true });
    }
    expect(checkMcpOrigin(policy, 'localhost:3000', 'http://localhost:6274')).toEqual({ ok: true });
    expect(checkMcpOrigin(policy, 'bulwark.example.com', 'https://bulwark.example.com')).toEqual({ ok: true });
    expect(checkMcpOrigin(policy, 'bulwark.example.com', 'https://console.example.org')).toEqual({ ok: true });
  });

  it('refuses a foreign Host (DNS rebinding) and a missing one', () => {
    expect(checkMcpOrigin(policy, 'attacker.example.net', undefined)).toEqual({ ok: false, reason: 'Host header not allowed for /mcp' });
    expect(checkMcpOrigin(policy, undefined, undefined).ok).toBe(false);
    expect(checkMcpOrigin(policy, 'localhost.attacker.net', undefined).ok).toBe(false);
  });

  it('refuses foreign, opaque and non-http Origins', () => {
    for (const origin of ['https://attacker.example.net', 'null', 'file://', 'chrome-extension://abc', 'https://console.example.org:444', 'not a url']) {
      expect(checkMcpOrigin(policy, 'localhost:3000', origin)).toEqual({ ok: false, reason: 'Origin not allowed for /mcp' });
    }
  });
});
