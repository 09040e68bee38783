import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/api/env';
import { normalizeIp, parseTrustProxy, resolveClientIp } from '../../../src/api/trust-proxy';

describe('parseTrustProxy', () => {
  it('reads addresses, CIDR ranges and loopback; empty trusts nobody', () => {
    expect(parseTrustProxy(undefined)).toEqual([]);
    expect(parseTrustProxy(' , ')).toEqual([]);
    expect(parseTrustProxy('10.0.0.1, 10.0.0.0/8,fd00::/8, loopback')).toEqual(['10.0.0.1/32', '10.0.0.0/8', 'fd00::/8', '127.0.0.0/8', '::1/128']);
  });

  it('refuses anything else, naming the entry', () => {
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8/1', '::1/129', '1', '10.0.0.0/x', 'true']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('a bad TRUST_PROXY stops the start', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), TRUST_PROXY: '1' })).toThrow(/Invalid environment[\s\S]*TRUST_PROXY/);
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32) }).trustProxy).toEqual([]);
  });
});

describe('resolveClientIp', () => {
  const trusted = parseTrustProxy('loopback, 10.0.0.0/8');

  it('without trusted proxies the peer is the client, whatever the header says', () => {
    expect(resolveClientIp('127.0.0.1', '1.2.3.4', [])).toBe('127.0.0.1');
    expect(resolveClientIp('203.0.113.5', '1.2.3.4', trusted)).toBe('203.0.113.5');
  });

  it('from a trusted peer, the first untrusted address from the right', () => {
    expect(resolveClientIp('127.0.0.1', '198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(resolveClientIp('127.0.0.1', '6.6.6.6, 198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(resolveClientIp('127.0.0.1', '6.6.6.6, 198.51.100.7, 10.2.3.4', trusted)).toBe('198.51.100.7');
    expect(resolveClientIp('::ffff:127.0.0.1', '2001:db8::1', trusted)).toBe('2001:db8::1');
    expect(resolveClientIp('::1', '[2001:db8::2]', trusted)).toBe('2001:db8::2');
  });

  it('no header, a malformed hop or only trusted hops stop at the last address known good', () => {
    expect(resolveClientIp('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', 'garbage', trusted)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', '198.51.100.7, garbage', trusted)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', 'garbage, 10.0.0.5', trusted)).toBe('10.0.0.5');
    expect(resolveClientIp('127.0.0.1', '10.0.0.9, 10.0.0.5', trusted)).toBe('10.0.0.9');
  });

  it('normalizes IPv4-mapped addresses', () => {
    expect(normalizeIp('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(normalizeIp(' 203.0.113.5 ')).toBe('203.0.113.5');
    expect(normalizeIp('nope')).toBeNull();
    expect(resolveClientIp('::ffff:203.0.113.5', '1.2.3.4', [])).toBe('203.0.113.5');
  });
});
