import { describe, expect, it } from 'vitest';
import { AddressLimiter, addressKey } from './address-limiter.js';

describe('AddressLimiter', () => {
  it('allows the burst, then one request per refill period, and says how long to wait', () => {
    let now = 0;
    const limiter = new AddressLimiter({ burst: 3, refillMs: 60_000 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('192.0.2.1'))).toEqual([0, 0, 0]);
    expect(limiter.take('192.0.2.1')).toBe(60);
    now = 45_000;
    expect(limiter.take('192.0.2.1')).toBe(15);
    now = 60_000;
    expect(limiter.take('192.0.2.1')).toBe(0);
    expect(limiter.take('192.0.2.1')).toBe(60);
    // Another address has its own allowance.
    expect(limiter.take('192.0.2.2')).toBe(0);
  });

  it('counts an IPv6 caller by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    let now = 0;
    const limiter = new AddressLimiter({ burst: 1, refillMs: 1000 }, () => now);
    expect(limiter.take('2001:db8:1:2::1')).toBe(0);
    expect(limiter.take('2001:db8:1:2::2')).toBe(1);
    now = 1000;
    expect(limiter.take('2001:db8:1:3::1')).toBe(0);
  });
});
