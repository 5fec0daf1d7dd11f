/**
 * A per-address request limiter for the authorization server's anonymous endpoints (issue 24, finding 6): a
 * token bucket per remote address, in this process's memory. Small on purpose, until the generic limiter of
 * anonymous endpoints (issue 24, "fair share") replaces it. IPv6 callers are counted per /64, the block one
 * host is usually given, so that walking through its addresses does not multiply the allowance.
 */
import { isIPv6 } from 'node:net';

export interface AddressLimit {
  /** Requests an address may make at once. */
  burst: number;
  /** One more request is allowed every this many milliseconds, up to `burst`. */
  refillMs: number;
}

/** The most addresses remembered; beyond it the fullest buckets (which have forgiven everything) go first. */
const MAX_TRACKED = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** The key an address is counted under: itself, an IPv4 address mapped into IPv6 as IPv4, IPv6 by its /64. */
export function addressKey(address: string): string {
  const bare = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

export class AddressLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: AddressLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request from the address's allowance: 0 when allowed, else the seconds until one is. */
  take(address: string): number {
    const key = addressKey(address);
    const now = this.now();
    const bucket = this.refill(this.buckets.get(key) ?? { tokens: this.limit.burst, at: now }, now);
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return Math.max(1, Math.ceil((this.limit.refillMs - (now - bucket.at)) / 1000));
    }
    bucket.tokens -= 1;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_TRACKED) this.forget(now);
    return 0;
  }

  private refill(bucket: Bucket, now: number): Bucket {
    const earned = Math.floor((now - bucket.at) / this.limit.refillMs);
    if (earned <= 0) return bucket;
    const tokens = Math.min(this.limit.burst, bucket.tokens + earned);
    return { tokens, at: tokens === this.limit.burst ? now : bucket.at + earned * this.limit.refillMs };
  }

  /** Drops the buckets that are full again, then (a flood of distinct addresses) the least recently used. */
  private forget(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (this.refill(bucket, now).tokens >= this.limit.burst) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= MAX_TRACKED) break;
      this.buckets.delete(key);
    }
  }
}
