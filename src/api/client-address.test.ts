import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxyHops } from './client-address.mjs';
import { clientIp } from './client-ip';

describe('the client address', () => {
  it('is the connection peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.7', '198.51.100.1', 0)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7', undefined, 0)).toBe('203.0.113.7');
    expect(clientAddress('2001:db8::1', '198.51.100.1, 10.0.0.1', 0)).toBe('2001:db8::1');
    expect(clientAddress(undefined, undefined, 0)).toBe('127.0.0.1');
  });

  it('behind trusted proxies, is the entry the outermost one appended; what the client wrote further left is ignored', () => {
    // client → proxy (appends the client's address) → server
    expect(clientAddress('10.0.0.2', '203.0.113.7', 1)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', 'spoofed, 203.0.113.7', 1)).toBe('203.0.113.7');
    // client → CDN → load balancer → server
    expect(clientAddress('10.0.0.3', 'spoofed, 203.0.113.7, 10.0.0.2', 2)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', ['spoofed', '203.0.113.7'], 1)).toBe('203.0.113.7');
    // Fewer entries than proxies: the leftmost there is.
    expect(clientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.3', '203.0.113.7', 3)).toBe('203.0.113.7');
  });

  it('reads TRUST_PROXY as a number of proxies, and refuses anything else', () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ TRUST_PROXY: '' })).toBe(0);
    expect(trustedProxyHops({ TRUST_PROXY: 'false' })).toBe(0);
    expect(trustedProxyHops({ TRUST_PROXY: 'true' })).toBe(1);
    expect(trustedProxyHops({ TRUST_PROXY: '2' })).toBe(2);
    expect(() => trustedProxyHops({ TRUST_PROXY: 'yes' })).toThrow(
      'TRUST_PROXY must be the number of proxies in front of this server (0-10), or true for one; got "yes".',
    );
    expect(() => trustedProxyHops({ TRUST_PROXY: '-1' })).toThrow('TRUST_PROXY');
  });

  it('is read by the engine doors from the server header only', () => {
    expect(clientIp(new Headers({ 'x-ninefold-client-ip': '203.0.113.7', 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.7');
    expect(clientIp(new Headers({ 'x-forwarded-for': '198.51.100.1', 'x-real-ip': '198.51.100.2' }))).toBe('127.0.0.1');
  });
});
