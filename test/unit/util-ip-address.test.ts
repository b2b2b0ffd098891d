import { describe, expect, it } from 'vitest';
import { canonicalAddress, inwardKind } from '../../src/util/ip-address.js';

describe('inwardKind: addresses inside the runner', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.254', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    // IPv4 in IPv6 forms: what they carry.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['0:0:0:0:0:ffff:10.1.2.3', 'private'],
    ['::10.1.2.3', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::7f00:1', 'loopback'],
    // Forms a resolver never returns: not parsed, so refused.
    ['0177.0.0.1', 'not an address'],
    ['2130706433', 'not an address'],
    ['127.1', 'not an address'],
    ['0x7f.0.0.1', 'not an address'],
    ['localhost', 'not an address'],
    ['', 'not an address'],
  ])('%s is %s', (address, kind) => {
    expect(inwardKind(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '140.82.112.3',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '169.253.255.255',
    '192.0.2.7',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is out on the internet', (address) => {
    expect(inwardKind(address)).toBeUndefined();
  });
});

describe('canonicalAddress: one spelling per address', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '::1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['FD00:0:0::0001', 'fd00::1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:a9fe:a9fe', '169.254.169.254'],
    ['fe80::1%eth0', 'fe80::1'],
  ])('%s → %s', (input, out) => {
    expect(canonicalAddress(input)).toBe(out);
  });

  it('is undefined for anything that is not an IP literal', () => {
    for (const s of ['localhost', '0177.0.0.1', '127.1', 'example.com', '1.2.3.4.5', ''])
      expect(canonicalAddress(s), s).toBeUndefined();
  });
});
