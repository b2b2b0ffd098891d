/**
 * The root program a self-hosted runner user may run for `network: restricted` (src/isolation/egress-wrapper.ts):
 * every argument list the product makes passes it unchanged; anything else — `--modprobe` (which runs a program as
 * root), another table, another chain or uid, a policy change, an argument with a space or `=` — is refused
 * before iptables runs. The script runs with `sh`, with iptables replaced by a recorder.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argv, installRules, isAccountingRule, removeRules } from '../../src/isolation/egress-filter.js';
import { egressWrapperScript } from '../../src/isolation/egress-wrapper.js';
import { exec } from '../../src/util/exec.js';

let dir: string;
let wrapper: string;
let log: string;
const UID = 1501;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gemini-run-wrapper-'));
  log = join(dir, 'calls.log');
  const recorder = join(dir, 'iptables-recorder');
  await writeFile(recorder, `#!/bin/sh\necho "$0 $*" >> ${log}\n`);
  await chmod(recorder, 0o755);
  wrapper = join(dir, 'wrapper');
  await writeFile(
    wrapper,
    egressWrapperScript([UID, 1502], { iptables: recorder, ip6tables: `${recorder}6` }),
  );
  await writeFile(`${recorder}6`, `#!/bin/sh\necho "ip6 $*" >> ${log}\n`);
  await chmod(`${recorder}6`, 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function call(args: string[]): Promise<{ code: number; ran: string }> {
  await rm(log, { force: true });
  const r = await exec('sh', [wrapper, ...args], { allowAllExitCodes: true, env: { PATH: '/usr/bin:/bin' } });
  return { code: r.exitCode, ran: (await readFile(log, 'utf8').catch(() => '')).trim() };
}

const state = { chain: `GEMINI-RUN-${UID}-0a1b2c3d`, uid: UID, ports: [38001, 42] };
const W = ['iptables', '-w', '10'];
/** An ACCEPT rule of the chain's shape, to `addr`:`dport`. */
const accept = (family: string, dport: string, addr = '127.0.0.1') => [
  family,
  '-w',
  '10',
  '-A',
  state.chain,
  '-o',
  'lo',
  '-p',
  'tcp',
  '-d',
  addr,
  '--dport',
  dport,
  '-j',
  'ACCEPT',
];
/** The OUTPUT jump of the chain's shape, for `uid` to `chain`. */
const jump = (uid: string, chain: string) => [
  ...W,
  '-I',
  'OUTPUT',
  '1',
  '-m',
  'owner',
  '--uid-owner',
  uid,
  '-j',
  chain,
];

/** The accounting rule as the product makes it, with some of its arguments (by index) replaced. */
const accounting = (replaced: Record<number, string>): string[] => {
  const rule = installRules(state, 'iptables').find(isAccountingRule)!;
  return [...W, ...rule.map((a, i) => replaced[i] ?? a)];
};

describe('the iptables wrapper', () => {
  it('passes every argument list the product makes, unchanged, for both families', async () => {
    for (const family of ['iptables', 'ip6tables'] as const) {
      const lists = [
        ['-S', 'OUTPUT'],
        ...installRules(state, family),
        ...removeRules(state),
        ['-L', state.chain, '-v', '-x', '-n'],
      ];
      for (const args of lists) {
        // Exactly what egress-filter.ts hands sudo, minus `sudo -n <wrapper>`.
        const [, sudoArgs] = argv(family, 'sudo', args, wrapper);
        const r = await call(sudoArgs.slice(2));
        expect(r.code, args.join(' ')).toBe(0);
        expect(r.ran).toMatch(
          new RegExp(`^\\S+ -w 10 ${args.join(' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        );
      }
    }
  });

  it.each([
    ['--modprobe', [...W, '-S', 'OUTPUT', '--modprobe=/tmp/x']],
    [
      '--modprobe as two words',
      [...accept('iptables', '80').slice(0, 12), '--modprobe', 'x', '-j', 'ACCEPT'],
    ],
    ['another table', [...W, '-t', 'nat', '-S', 'OUTPUT']],
    ['a policy', [...W, '-P', 'OUTPUT', 'ACCEPT']],
    ['flushing OUTPUT', [...W, '-F', 'OUTPUT']],
    ['an ACCEPT for everyone', [...W, '-I', 'OUTPUT', '1', '-j', 'ACCEPT']],
    ['a uid that is no agent', jump('0', state.chain)],
    ["another agent's chain for this uid", jump(String(UID), 'GEMINI-RUN-1502-aa')],
    ['a chain of a uid that is no agent', [...W, '-N', 'GEMINI-RUN-0-aa']],
    ['a chain that is not ours', [...W, '-X', 'DOCKER']],
    ['an argument with a space', [...W, '-N', `${state.chain} -t nat`]],
    ['another program', ['ebtables', '-w', '10', '-S', 'OUTPUT']],
    ['no lock wait', ['iptables', '-S', 'OUTPUT']],
    ['ACCEPT to another address', accept('iptables', '80', '10.0.0.1')],
    ['a port out of range', accept('iptables', '70000')],
    ['an IPv6 ACCEPT', accept('ip6tables', '80')],
    ['an accounting table of another chain', accounting({ 11: 'gr-ffffffff' })],
    ['an accounting rule with a target', [...accounting({}), '-j', 'ACCEPT']],
    ['an accounting rule of another mode', accounting({ 9: 'dstip' })],
    ['an accounting rule that keeps more', accounting({ 15: '99999999' })],
    ['the mode list anywhere else', [...W, '-N', 'dstip,dstport,srcport']],
  ])('refuses %s before iptables runs', async (_what, args) => {
    const r = await call(args);
    expect(r.code).toBe(2);
    expect(r.ran).toBe('');
  });
});
