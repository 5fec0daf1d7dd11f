import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './addresses.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, metadata, CGNAT, unique-local, mapped and reserved addresses', () => {
    const refused = ['127.0.0.1', '127.8.9.10', '0.0.0.0', '0.1.2.3', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254', '192.0.2.5', '198.18.0.1', '224.0.0.1', '255.255.255.255', '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:8.8.8.8', '::ffff:7f00:1', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'ff02::1', '2001:db8::1', '64:ff9b::a00:1', '2002:a00:1::1', 'not an address', 'example.com'];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
  });

  it('accepts public unicast addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '[2a00:1450:4001::200e]']) expect(isPublicAddress(address), address).toBe(true);
  });
});
