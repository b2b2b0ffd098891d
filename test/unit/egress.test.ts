import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INPUT_DEFAULTS, parseInputs } from '../../src/action/inputs.js';
import {
  accountingName,
  chainName,
  droppedDestinations,
  chainsIn,
  installRules,
  isAccountingRule,
  rejectedPackets,
  removeRules,
  staleChains,
} from '../../src/isolation/egress-filter.js';
import {
  DEFAULT_ALLOWED_HOSTS,
  hostAllowed,
  parseAllowedHosts,
  reachableAddresses,
  shownHost,
} from '../../src/proxy/egress-hosts.js';
import { parseAuthority } from '../../src/proxy/forward-proxy.js';

describe('allowed hosts', () => {
  it('matches exact names and *.suffix below the suffix only', () => {
    const p = parseAllowedHosts('Example.COM, *.corp.example\n  docs.rs');
    expect(p).toEqual(['example.com', '*.corp.example', 'docs.rs']);
    expect(hostAllowed('example.com', p)).toBe(true);
    expect(hostAllowed('EXAMPLE.com.', p)).toBe(true);
    expect(hostAllowed('a.example.com', p)).toBe(false);
    expect(hostAllowed('git.corp.example', p)).toBe(true);
    expect(hostAllowed('corp.example', p)).toBe(false);
    expect(hostAllowed('evilcorp.example', p)).toBe(false);
    expect(hostAllowed('example.com.evil.test', p)).toBe(false);
  });

  it('takes IP addresses as entries, in one spelling, and matches literal hosts by address', () => {
    const p = parseAllowedHosts('10.1.2.3, [FD00::0001], ::ffff:169.254.169.254');
    expect(p).toEqual(['10.1.2.3', 'fd00::1', '169.254.169.254']);
    expect(hostAllowed('[fd00:0::1]', p)).toBe(true);
    expect(hostAllowed('::ffff:a01:203', p)).toBe(true);
    expect(hostAllowed('10.1.2.4', p)).toBe(false);
  });

  it('connects an allowed name only to addresses outside the runner, or to those an entry names', () => {
    const p = parseAllowedHosts('inward.example, 10.1.2.3, ::1');
    expect(reachableAddresses(['140.82.112.3', '10.9.9.9'], p)).toEqual({
      addresses: ['140.82.112.3'],
      inward: [{ address: '10.9.9.9', kind: 'private' }],
    });
    expect(reachableAddresses(['10.1.2.3', '::ffff:7f00:1', '0:0::1', '169.254.169.254'], p)).toEqual({
      addresses: ['10.1.2.3', '::1'],
      inward: [
        { address: '127.0.0.1', kind: 'loopback' },
        { address: '169.254.169.254', kind: 'link-local' },
      ],
    });
  });

  it('refuses schemes, ports, paths, a bare * and junk in one line', () => {
    for (const bad of [
      'https://x.com',
      'x.com:443',
      'x.com/path',
      '*',
      '*.',
      'a..b',
      'x_y.com',
      '**.x.com',
    ]) {
      expect(() => parseAllowedHosts(bad), bad).toThrow(
        /^'allowed-hosts' entry '.*' is not a host name, '\*\.suffix' or an IP address/,
      );
    }
  });

  it('never repeats a refused name that is not a plain host name', () => {
    expect(shownHost('evil.test')).toBe('evil.test');
    expect(shownHost('[::1]')).toBe('::1');
    expect(shownHost('x](https://evil)@user')).toBe('(not a host name)');
    expect(shownHost('a\nb')).toBe('(not a host name)');
  });

  it('README lists exactly the default allowlist', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(
      readme.indexOf('<!-- allowed-hosts:start -->'),
      readme.indexOf('<!-- allowed-hosts:end -->'),
    );
    const listed = [...section.matchAll(/`([a-z0-9.*-]+\.[a-z]+)`/g)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(DEFAULT_ALLOWED_HOSTS));
  });
});

describe('CONNECT targets', () => {
  it('reads host:port and bracketed IPv6, nothing else', () => {
    expect(parseAuthority('Registry.npmjs.org:443')).toEqual({ host: 'registry.npmjs.org', port: 443 });
    expect(parseAuthority('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    for (const bad of ['x.com', 'x.com:0', 'x.com:70000', 'u@x.com:443', 'http://x.com:443', ':443']) {
      expect(parseAuthority(bad), bad).toBeUndefined();
    }
  });
});

describe('packet filter rules', () => {
  const s = { chain: chainName(65001, 'abcd1234'), uid: 65001, ports: [4000, 4001] };

  it('reads the gemini-run chains of an iptables listing, with their uid (for doctor)', () => {
    expect(
      chainsIn(
        '-P OUTPUT ACCEPT\n-N GEMINI-RUN-999-ab12cd34\n-N DOCKER\n-A OUTPUT -j GEMINI-RUN-999-ab12cd34\n',
      ),
    ).toEqual([{ chain: 'GEMINI-RUN-999-ab12cd34', uid: 999 }]);
  });

  it("names a chain per run within iptables' 28 characters", () => {
    expect(s.chain).toBe('GEMINI-RUN-65001-abcd1234');
    expect(chainName(4_294_967_294).length).toBeLessThanOrEqual(28);
    expect(chainName(7)).not.toBe(chainName(7));
  });

  it('v4: only the proxy ports on 127.0.0.1, then reject; the jump is last and matches the agent uid only', () => {
    const rules = installRules(s, 'iptables').map((r) => r.join(' '));
    expect(rules).toEqual([
      `-N ${s.chain}`,
      `-A ${s.chain} -o lo -p tcp -d 127.0.0.1 --dport 4000 -j ACCEPT`,
      `-A ${s.chain} -o lo -p tcp -d 127.0.0.1 --dport 4001 -j ACCEPT`,
      `-A ${s.chain} -m hashlimit --hashlimit-upto 1000 --hashlimit-burst 1000 --hashlimit-mode dstip,dstport,srcport --hashlimit-name gr-abcd1234 --hashlimit-htable-size 256 --hashlimit-htable-max 4096 --hashlimit-htable-expire 86400000`,
      `-A ${s.chain} -p tcp -j REJECT --reject-with tcp-reset`,
      `-A ${s.chain} -j REJECT`,
      `-I OUTPUT 1 -m owner --uid-owner 65001 -j ${s.chain}`,
    ]);
  });

  it('v6: nothing accepted', () => {
    expect(installRules(s, 'ip6tables').some((r) => r.includes('ACCEPT'))).toBe(false);
    expect(removeRules(s).map((r) => r.join(' '))).toEqual([
      `-D OUTPUT -m owner --uid-owner 65001 -j ${s.chain}`,
      `-F ${s.chain}`,
      `-X ${s.chain}`,
    ]);
  });

  it('accounts before the rejects, in a table named for the chain, with no target of its own', () => {
    for (const family of ['iptables', 'ip6tables'] as const) {
      const rules = installRules(s, family);
      const at = rules.findIndex(isAccountingRule);
      expect(at).toBe(rules.findIndex((r) => r.includes('REJECT')) - 1);
      expect(rules[at]).not.toContain('-j');
    }
    expect(accountingName(s.chain)).toBe('gr-abcd1234');
    expect(accountingName(chainName(4_294_967_294)).length).toBeLessThanOrEqual(15);
  });

  it('names the destinations tried directly from the accounting tables, most tried first, bounded', () => {
    const v4 = [
      '86398 0.0.0.0:53747->127.0.0.53:53 137438953000000 137438953000000 137438953000',
      '86398 0.0.0.0:50092->169.254.169.254:80 137438953000000 137438953000000 137438953000',
      '86398 0.0.0.0:50098->169.254.169.254:80 137438953000000 137438953000000 137438953000',
      '86398 0.0.0.0:50112->169.254.169.254:80 137438953000000 137438953000000 137438953000',
      '86398 0.0.0.0:53552->10.1.2.3:81 137438953000000 137438953000000 137438953000',
      '86398 0.0.0.0:53553->10.1.2.3:81 137438953000000 137438953000000 137438953000',
      'junk line',
      '',
    ].join('\n');
    const v6 =
      '86399 0000:0000:0000:0000:0000:0000:0000:0000:60708->0000:0000:0000:0000:0000:0000:0000:0001:8080 1 1 1\n';
    expect(droppedDestinations([v4, v6], 10)).toEqual([
      { address: '169.254.169.254', port: 80, count: 3 },
      { address: '10.1.2.3', port: 81, count: 2 },
      { address: '127.0.0.53', port: 53, count: 1 },
      { address: '::1', port: 8080, count: 1 },
    ]);
    expect(droppedDestinations([v4, v6], 2)).toHaveLength(2);
    expect(droppedDestinations(['', ''], 5)).toEqual([]);
  });

  it('counts the REJECT rules and finds a dead run’s chains for the same uid only', () => {
    const listing = [
      'Chain GEMINI-RUN-65001-abcd1234 (1 references)',
      '    pkts      bytes target     prot opt in     out     source               destination',
      '      12      720 ACCEPT     6    --  *      lo      0.0.0.0/0            127.0.0.1            tcp dpt:4000',
      '       3      180 REJECT     6    --  *      *       0.0.0.0/0            0.0.0.0/0            reject-with tcp-reset',
      '       2       90 REJECT     0    --  *      *       0.0.0.0/0            0.0.0.0/0            reject-with icmp-port-unreachable',
    ].join('\n');
    expect(rejectedPackets(listing)).toBe(5);
    const output = [
      '-P OUTPUT ACCEPT',
      '-A OUTPUT -m owner --uid-owner 65001 -j GEMINI-RUN-65001-0badf00d',
      '-A OUTPUT -m owner --uid-owner 650011 -j GEMINI-RUN-650011-1',
      '-A OUTPUT -m owner --uid-owner 65001 -j DOCKER-USER',
    ].join('\n');
    expect(staleChains(output, 65001)).toEqual(['GEMINI-RUN-65001-0badf00d']);
  });
});

describe('inputs: network and allowed-hosts', () => {
  it('default restricted with no extra hosts; bad values in one line', () => {
    const d = parseInputs({ ...INPUT_DEFAULTS });
    expect(d.network).toBe('restricted');
    expect(d.allowedHosts).toEqual([]);
    expect(parseInputs({ ...INPUT_DEFAULTS, 'allowed-hosts': 'a.test *.b.test' }).allowedHosts).toEqual([
      'a.test',
      '*.b.test',
    ]);
    expect(() => parseInputs({ ...INPUT_DEFAULTS, network: 'closed' })).toThrow(
      "Invalid input: 'network' must be 'restricted', 'none' or 'open', not 'closed'.",
    );
    expect(() => parseInputs({ ...INPUT_DEFAULTS, 'allowed-hosts': 'https://a.test' })).toThrow(
      /^Invalid input: 'allowed-hosts' entry 'https:\/\/a.test' is not a host name/,
    );
  });
});
