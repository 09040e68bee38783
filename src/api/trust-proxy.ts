import { BlockList, isIP } from 'node:net';

/**
 * TRUST_PROXY: the reverse proxies whose X-Forwarded-For is believed, as a comma-separated
 * list of IP addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`); `loopback`
 * stands for 127.0.0.0/8 and ::1. Empty (the default) trusts nobody: the client is the socket's
 * peer and X-Forwarded-For is ignored.
 */
export type TrustedProxies = readonly string[];

const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'];

/** The entries of TRUST_PROXY, checked; throws with the first bad entry named. */
export function parseTrustProxy(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.toLowerCase() === 'loopback') {
      out.push(...LOOPBACK_RANGES);
      continue;
    }
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits))) {
      throw new Error(`TRUST_PROXY: "${entry}" is not an IP address, a CIDR range or "loopback".`);
    }
    out.push(`${address}/${prefix}`);
  }
  return out;
}

const lists = new WeakMap<TrustedProxies, BlockList>();

function listOf(trusted: TrustedProxies): BlockList {
  let list = lists.get(trusted);
  if (!list) {
    list = new BlockList();
    for (const range of trusted) {
      const [address, prefix] = range.split('/');
      list.addSubnet(address, Number(prefix), isIP(address) === 4 ? 'ipv4' : 'ipv6');
    }
    lists.set(trusted, list);
  }
  return list;
}

/** An address as written by sockets and proxies, IPv4-mapped IPv6 (::ffff:1.2.3.4) as plain IPv4; null when it is not an IP. */
export function normalizeIp(value: string | undefined): string | null {
  let v = value?.trim() ?? '';
  if (v.startsWith('[') && v.endsWith(']')) v = v.slice(1, -1);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
  if (mapped) v = mapped[1];
  return isIP(v) ? v : null;
}

/** Whether `ip` (normalized) is one of the trusted proxies. */
export function isTrustedProxy(trusted: TrustedProxies, ip: string): boolean {
  if (!trusted.length) return false;
  return listOf(trusted).check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address: the socket's peer, unless the peer is a trusted proxy; then
 * X-Forwarded-For is read from the right (the hop our proxy appended) and the first address
 * that is not itself a trusted proxy is the client. A malformed hop stops the walk at the
 * last address known good, so a client can never write its own address past our proxy.
 */
export function resolveClientIp(peer: string, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  let client = normalizeIp(peer) ?? peer;
  if (!forwardedFor || !isTrustedProxy(trusted, client)) return client;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i]);
    if (!hop) return client;
    client = hop;
    if (!isTrustedProxy(trusted, hop)) return hop;
  }
  return client;
}
