import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Decides whether a connection may go to `address`, an IP address (IPv4, or IPv6 without
 * brackets). The download (pinned-download.ts) asks it about every address of every hop before it
 * connects: the URL's IP literal, or every address its host name resolves to. One refused address
 * refuses the hop. The default is isPublicAddress.
 */
export type AddressPolicy = (address: string) => boolean;

/** 2000::/3, where every global unicast IPv6 address is allocated. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True when `address` is a public unicast IP address. Everything else is refused: loopback,
 * private, link-local (cloud metadata 169.254.169.254), unspecified, carrier-grade NAT,
 * multicast, broadcast, reserved and documentation ranges, unique-local and site-local IPv6,
 * IPv6 outside 2000::/3 (IPv4-compatible ::a.b.c.d among them), and IPv6 forms that carry an
 * IPv4 address (6to4, Teredo, NAT64). An IPv4-mapped address (::ffff:a.b.c.d) is judged as its
 * IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (net.isIP(address) === 0) return false;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.zoneId) return false;
    if (!v6.isIPv4MappedAddress()) return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
    ip = v6.toIPv4Address();
  }
  return ip.range() === 'unicast';
}

/**
 * Allows every address, private, loopback and internal ones included: for development against a
 * local server only, never in production.
 */
export const allowAnyAddress: AddressPolicy = () => true;
