import type { IncomingMessage } from 'node:http';
import { clientAddress, clientNetwork, expandIPv6, networkKey, TrustedProxies } from './client-address';

function req(remoteAddress: string, xff?: string): IncomingMessage {
  return { socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } } as unknown as IncomingMessage;
}

describe('networkKey', () => {
  it('keeps IPv4 addresses exact', () => {
    expect(networkKey('127.0.0.1')).toBe('127.0.0.1');
    expect(networkKey('127.0.0.2')).not.toBe(networkKey('127.0.0.1'));
  });

  it('treats IPv4-mapped IPv6 as the IPv4 address', () => {
    expect(networkKey('::ffff:127.0.0.5')).toBe('127.0.0.5');
    expect(networkKey('::FFFF:10.1.2.3')).toBe('10.1.2.3');
  });

  it('groups IPv6 addresses by /64, whatever their spelling', () => {
    const a = networkKey('2001:db8:1:2::1');
    expect(a).toBe('2001:0db8:0001:0002::/64');
    expect(networkKey('2001:DB8:1:2:ffff:eeee:dddd:cccc')).toBe(a);
    expect(networkKey('2001:0db8:0001:0002:0000:0000:0000:0099')).toBe(a);
    expect(networkKey('fe80::1%eth0')).toBe('fe80:0000:0000:0000::/64');
    expect(networkKey('2001:db8:1:3::1')).not.toBe(a);
    expect(networkKey('::1')).toBe('0000:0000:0000:0000::/64');
  });

  it('expands compressed forms and embedded IPv4 tails', () => {
    expect(expandIPv6('::')).toEqual(new Array(8).fill('0000'));
    expect(expandIPv6('1::')).toEqual(['0001', ...new Array(7).fill('0000')]);
    expect(expandIPv6('64:ff9b::192.0.2.33')).toEqual(['0064', 'ff9b', '0000', '0000', '0000', '0000', 'c000', '0221']);
  });

  it('keeps non-addresses distinct and bounded', () => {
    expect(networkKey('not-an-ip')).toBe('unknown:not-an-ip');
    expect(networkKey('x'.repeat(500)).length).toBeLessThan(80);
  });
});

describe('clientAddress with TRUSTED_PROXIES', () => {
  const none = new TrustedProxies([]);
  const proxies = new TrustedProxies(['10.0.0.0/8', '::1']);

  it('uses the socket peer and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientAddress(req('203.0.113.9', '198.51.100.1'), none)).toBe('203.0.113.9');
  });

  it('ignores X-Forwarded-For from an untrusted peer', () => {
    expect(clientAddress(req('203.0.113.9', '198.51.100.1'), proxies)).toBe('203.0.113.9');
  });

  it('takes the nearest untrusted hop behind trusted proxies, not the spoofable left-most one', () => {
    expect(clientAddress(req('10.0.0.2', '1.1.1.1, 198.51.100.7, 10.0.0.9'), proxies)).toBe('198.51.100.7');
    expect(clientAddress(req('::ffff:10.0.0.2', '198.51.100.7'), proxies)).toBe('198.51.100.7');
    expect(clientAddress(req('::1', '2001:db8::5'), proxies)).toBe('2001:db8::5');
  });

  it('stops at garbage in the header', () => {
    expect(clientAddress(req('10.0.0.2', '198.51.100.7, junk'), proxies)).toBe('10.0.0.2');
  });

  it('falls back to the peer when the header is absent', () => {
    expect(clientAddress(req('10.0.0.2'), proxies)).toBe('10.0.0.2');
  });

  it('clientNetwork combines both and caches per request', () => {
    const r = req('10.0.0.2', '2001:db8:aa:bb::1');
    expect(clientNetwork(r, proxies)).toBe('2001:0db8:00aa:00bb::/64');
    (r.headers as Record<string, string>)['x-forwarded-for'] = '198.51.100.1';
    expect(clientNetwork(r, proxies)).toBe('2001:0db8:00aa:00bb::/64');
  });
});
