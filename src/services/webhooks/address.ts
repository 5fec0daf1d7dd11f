/**
 * Where a webhook may be sent (issue 29): https, or http to a loopback host only when the server allows it
 * (`WAYMARK_WEBHOOK_ALLOW_LOOPBACK`); and, at delivery, the addresses the name resolves to, each a public unicast
 * address unless configured otherwise: never a private, loopback, link-local (cloud metadata), shared or reserved
 * one. The check runs in the connection's own DNS lookup, so the address connected to is the address checked.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { validationError } from '../../errors.js';

export interface AddressPolicy {
  /** http://127.0.0.1 / localhost / [::1] endpoints and loopback addresses (a receiver on this machine, in tests). */
  allowLoopback: boolean;
  /** Private networks too (a receiver inside the same network). */
  allowPrivate: boolean;
}

export function addressPolicyFromEnv(env: NodeJS.ProcessEnv): AddressPolicy {
  return { allowLoopback: env.WAYMARK_WEBHOOK_ALLOW_LOOPBACK === '1', allowPrivate: env.WAYMARK_WEBHOOK_ALLOW_PRIVATE === '1' };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The URL as a subscription keeps it, or VALIDATION_ERROR saying why not. */
export function checkEndpointUrl(text: string, policy: AddressPolicy): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validationError([{ path: 'url', message: 'not a URL' }]);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.username || url.password) throw validationError([{ path: 'url', message: 'must not carry a user name or password' }]);
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && loopback && policy.allowLoopback) return url.toString();
  throw validationError([{ path: 'url', message: policy.allowLoopback ? 'must be https (or http to a loopback host)' : 'must be https' }]);
}

/** Whether an address may be connected to under the policy. */
export function addressAllowed(address: string, policy: AddressPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return true;
  if (range === 'loopback') return policy.allowLoopback;
  if (range === 'private' || range === 'uniqueLocal') return policy.allowPrivate;
  return false;
}

export class AddressRefused extends Error {
  constructor(readonly address: string) {
    super(`the endpoint's address ${address} is not a public one (private, loopback, link-local or reserved), which this server does not send to`);
  }
}

/** A DNS lookup for http.request that refuses an address the policy does not allow. */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !addressAllowed(a.address, policy));
      if (refused || list.length === 0) return callback(new AddressRefused(refused?.address ?? hostname), []);
      if ((options as { all?: boolean }).all) return callback(null, list);
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
