/**
 * The key a caller without a token is counted under by the per-address limits (rate-limit.ts): its address as
 * Express reads it (req.ip, which believes X-Forwarded-For only from the proxies `trust proxy` names, app.ts), an
 * IPv4 address mapped into IPv6 as IPv4, and an IPv6 address by its /64, the block one host is usually given, so
 * that walking through its addresses does not multiply the allowance.
 */
import { isIPv6 } from 'node:net';

export function addressKey(address: string): string {
  const bare = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}
