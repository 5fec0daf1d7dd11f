/**
 * Which hosts and addresses are this machine, and which are not on the public internet. The authorization
 * server speaks plain http only to this machine, accepts plain-http redirect URIs only there, and fetches a
 * client's metadata document only from a public address (issue 24, finding 5).
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A URL's hostname that names this machine: localhost, 127.0.0.0/8 or ::1 (RFC 8252 §7.3 loopback redirects). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** A socket's remote address on this machine (IPv4, IPv6 or IPv4 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

/**
 * The special-purpose ranges of the IANA registries (RFC 6890 and its updates) that a server must not be made to
 * reach on a stranger's word: this network, private networks, shared CGNAT space, loopback, link-local (cloud
 * metadata services live at 169.254.169.254 and fd00:ec2::254), documentation and benchmarking nets, multicast and
 * the reserved rest; in IPv6 also the unique-local fc00::/7, the translation prefixes that embed an IPv4 address
 * (which could be a private one) and the IPv4-mapped space.
 */
const NOT_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const NOT_PUBLIC_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

// Two lists: one BlockList holding both families matches every IPv4 address against ::ffff:0:0/96.
const notPublicV4 = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_V4) notPublicV4.addSubnet(net, prefix, 'ipv4');
const notPublicV6 = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_V6) notPublicV6.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address (not a name) is a public unicast address; anything unparsable is not. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return !notPublicV4.check(bare, 'ipv4');
  if (!isIPv6(bare)) return false;
  // An IPv4 address written into IPv6 (::ffff:10.0.0.1) is refused whatever it is (a public server is reached
  // by its IPv4 address), in the dotted form too, which the block list might read otherwise.
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare)) return false;
  return !notPublicV6.check(bare, 'ipv6');
}
