import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The private-address guard shared by every outbound request the server makes on a user's behalf
 * (the review context fetch, webhook delivery): names must resolve to public addresses only, and
 * the check runs inside the socket's own DNS lookup, so the address connected to is the address
 * checked (no DNS-rebinding window).
 */
/**
 * True unless `ip` is a plain public unicast address. The classification is ipaddr.js's table of
 * special ranges (loopback, private, link-local, CGNAT, multicast, unspecified, broadcast,
 * reserved, benchmarking, documentation, ULA, Teredo, …): only `unicast` passes. IPv6 forms that
 * carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible
 * ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002:AABB:CCDD::/48) reach that IPv4 address, so the embedded
 * address is what is judged. Anything that is not a canonical address literal is refused.
 */
export function isPrivateAddress(ip: string): boolean {
  // net.isIP first: ipaddr.js also parses legacy IPv4 forms (0x7f.1, 2130706433) a resolver never returns.
  if (isIP(ip) === 0) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return true;
  }
  if (addr.kind() === 'ipv4') return addr.range() !== 'unicast';
  const v6 = addr as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.range() !== 'unicast';
  return v6.range() !== 'unicast';
}

/** The IPv4 address an IPv6 address stands for, when it is one of the forms that embed one. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  const tail = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 255, p[7]! >> 8, p[7]! & 255]);
  const zeros = (n: number) => p.slice(0, n).every((x) => x === 0);
  const range = v6.range();
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated, RFC 6145)
  if (range === 'ipv4Mapped' || range === 'rfc6145') return tail();
  // 64:ff9b::a.b.c.d, the well-known NAT64 prefix (RFC 6052). The local-use 64:ff9b:1::/48
  // (RFC 8215) places the address anywhere and stays non-unicast, hence refused.
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return tail();
  // 2002:AABB:CCDD::/48, 6to4 (RFC 3056)
  if (range === '6to4') return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 255, p[2]! >> 8, p[2]! & 255]);
  // ::a.b.c.d, IPv4-compatible (deprecated, RFC 4291); :: and ::1 are classified as themselves.
  if (zeros(6) && range !== 'unspecified' && range !== 'loopback') return tail();
  return null;
}

export type LookupFn = typeof dnsLookup;

/** A DNS lookup for sockets that refuses names resolving to any non-public address. */
export function publicOnlyLookup(resolve: LookupFn = dnsLookup): LookupFn {
  const guarded = (hostname: string, options: unknown, callback: unknown) => {
    const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean };
    const cb = (typeof options === 'function' ? options : callback) as (err: Error | null, a?: unknown, f?: number) => void;
    resolve(hostname, { ...opts, all: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return cb(err);
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad || addresses.length === 0) {
        const e = Object.assign(new Error(`${hostname} resolves to a non-public address (${bad?.address ?? 'none'}); refused`), { code: 'EADDRNOTPUBLIC' });
        return cb(e);
      }
      if (opts.all) return cb(null, addresses);
      return cb(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return guarded as unknown as LookupFn;
}

/** True for a loopback address (127.0.0.0/8, ::1, and IPv4-mapped loopback). */
export function isLoopbackAddress(ip: string): boolean {
  if (isIP(ip) === 0) return false;
  try {
    let addr = ipaddr.parse(ip);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
    return addr.range() === 'loopback';
  } catch {
    return false;
  }
}

/**
 * Like publicOnlyLookup, but a name resolving only to loopback addresses is also let through
 * (webhooks with WEBHOOKS_ALLOW_LOOPBACK, for development). Every other private address is refused.
 */
export function publicOrLoopbackLookup(resolve: LookupFn = dnsLookup): LookupFn {
  const guarded = (hostname: string, options: unknown, callback: unknown) => {
    const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean };
    const cb = (typeof options === 'function' ? options : callback) as (err: Error | null, a?: unknown, f?: number) => void;
    resolve(hostname, { ...opts, all: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return cb(err);
      const bad = addresses.find((a) => isPrivateAddress(a.address) && !isLoopbackAddress(a.address));
      if (bad || addresses.length === 0) {
        const e = Object.assign(new Error(`${hostname} resolves to a non-public address (${bad?.address ?? 'none'}); refused`), { code: 'EADDRNOTPUBLIC' });
        return cb(e);
      }
      if (opts.all) return cb(null, addresses);
      return cb(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return guarded as unknown as LookupFn;
}
