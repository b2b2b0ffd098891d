/**
 * The packet filter that makes the run's proxies the agent's only way out (`network: restricted` / `none`): one
 * iptables and one ip6tables chain of this run's own, jumped to from OUTPUT for the agent's uid only. In it, TCP to
 * the given loopback ports of 127.0.0.1 (the model proxy, the forward proxy) is accepted and everything else —
 * other loopback ports and addresses, the internet, UDP (DNS to any resolver), IPv6 — is rejected at once (a
 * reset or an ICMP error: the agent's tools fail fast instead of waiting out a timeout) and counted. Before the
 * rejects, an accounting rule (the `hashlimit` match, no target: it changes no verdict) keeps one entry per
 * attempt — destination address, destination port and source port — in a table of the run's own, which the kernel
 * shows to anyone in /proc/net/ip{,6}t_hashlimit/<name>: read at the end, it names the destinations the agent tried
 * to reach directly, for the summary.
 *
 * Concurrent runs never share an agent uid (agent-user.ts), and each run's chain has its own name, so one run's
 * rules neither match nor remove another's. Nothing here matches any uid but the agent's.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { canonicalAddress } from '../util/ip-address.js';
import { UserError } from '../util/errors.js';
import { exec } from '../util/exec.js';
import { guardHostChange } from '../util/process.js';
import type { Logger } from '../util/log.js';
import type { SwitchingPrivilege } from './agent-user.js';
import { EGRESS_WRAPPER, egressWrapperInstalled } from './egress-wrapper.js';

const CHAIN_PREFIX = 'GEMINI-RUN-';

const filterStateSchema = z.object({
  chain: z.string().regex(/^GEMINI-RUN-[A-Za-z0-9-]{1,17}$/),
  uid: z.number().int().positive(),
  ports: z.array(z.number().int().min(1).max(65535)),
  privilege: z.enum(['root', 'sudo', 'agent-sudo']),
  /** Whether the IPv6 chain was installed (a host without IPv6 has none to install). */
  ipv6: z.boolean(),
});
/** What the post step needs to remove a run's rules. Not secret. */
export type FilterState = z.infer<typeof filterStateSchema>;

type Family = 'iptables' | 'ip6tables';

/**
 * A chain name for this run: the agent's uid and a random tag, so a dead run's post step (same uid, since claimed
 * by a later run) never names the later run's chain. iptables allows 28 characters. Exported for tests.
 */
export function chainName(uid: number, tag = randomBytes(4).toString('hex')): string {
  return `${CHAIN_PREFIX}${uid}-${tag}`.slice(0, 28);
}

/**
 * The accounting table's name (hashlimit allows 15 characters): `gr-` and the chain's random tag, so the wrapper
 * can tell it belongs to the chain. Pure; exported for tests.
 */
export function accountingName(chain: string): string {
  return `gr-${chain.slice(chain.lastIndexOf('-') + 1)}`;
}

/** Table bounds: entries beyond `max` are not kept (the packet is then dropped, not rejected, by the match). */
const ACCOUNTING_MAX = 4096;

/**
 * The accounting rule: a match with no target, so every packet goes on to the rejects; an entry per destination
 * address, destination port and source port (one per connection attempt), kept for a day. Pure.
 */
function accountingRule(chain: string): string[] {
  return [
    '-A',
    chain,
    '-m',
    'hashlimit',
    '--hashlimit-upto',
    '1000',
    '--hashlimit-burst',
    '1000',
    '--hashlimit-mode',
    'dstip,dstport,srcport',
    '--hashlimit-name',
    accountingName(chain),
    '--hashlimit-htable-size',
    '256',
    '--hashlimit-htable-max',
    String(ACCOUNTING_MAX),
    '--hashlimit-htable-expire',
    '86400000',
  ];
}

/** Whether a rule of installRules is the accounting one: a host without the hashlimit match runs without it. */
export function isAccountingRule(args: readonly string[]): boolean {
  return args[0] === '-A' && args[2] === '-m' && args[3] === 'hashlimit';
}

/** The argument lists (after the iptables command) that install the chain. Pure; exported for tests. */
export function installRules(s: Pick<FilterState, 'chain' | 'uid' | 'ports'>, family: Family): string[][] {
  const rules: string[][] = [['-N', s.chain]];
  if (family === 'iptables') {
    for (const port of s.ports) {
      rules.push([
        '-A',
        s.chain,
        '-o',
        'lo',
        '-p',
        'tcp',
        '-d',
        '127.0.0.1',
        '--dport',
        String(port),
        '-j',
        'ACCEPT',
      ]);
    }
  }
  rules.push(
    accountingRule(s.chain),
    ['-A', s.chain, '-p', 'tcp', '-j', 'REJECT', '--reject-with', 'tcp-reset'],
    ['-A', s.chain, '-j', 'REJECT'],
    // Last, and first in OUTPUT: the chain is whole before any packet meets it, and no earlier ACCEPT bypasses it.
    ['-I', 'OUTPUT', '1', ...jumpMatch(s)],
  );
  return rules;
}

function jumpMatch(s: Pick<FilterState, 'chain' | 'uid'>): string[] {
  return ['-m', 'owner', '--uid-owner', String(s.uid), '-j', s.chain];
}

/** The argument lists that remove it again, each allowed to fail (already gone). Pure; exported for tests. */
export function removeRules(s: Pick<FilterState, 'chain' | 'uid'>): string[][] {
  return [
    ['-D', 'OUTPUT', ...jumpMatch(s)],
    ['-F', s.chain],
    ['-X', s.chain],
  ];
}

/** Packets the chain's REJECT rules refused, from `-L <chain> -v -x -n`. Pure; exported for tests. */
export function rejectedPackets(listing: string): number {
  let n = 0;
  for (const line of listing.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[2] === 'REJECT' && /^\d+$/.test(f[0] ?? '')) n += Number(f[0]);
  }
  return n;
}

/** A destination the agent tried to reach directly, and how many attempts (source ports) went there. */
export interface DroppedDestination {
  address: string;
  port: number;
  count: number;
}

/**
 * The destinations in an accounting table's /proc listing (`<expires> <src>:<sport>-><dst>:<dport> …`, IPv6 in
 * full form), each with its number of entries, most tried first, at most `max`. Pure; exported for tests.
 */
export function droppedDestinations(listings: readonly string[], max: number): DroppedDestination[] {
  const counts = new Map<string, DroppedDestination>();
  for (const line of listings.join('\n').split('\n')) {
    const m = /^\d+ \S+->(\S+):(\d+) /.exec(line.trim());
    const address = m?.[1] ? (canonicalAddress(m[1]) ?? m[1]) : undefined;
    if (!address || !/^[0-9a-f:.]+$/.test(address)) continue;
    const port = Number(m?.[2]);
    const key = `${address} ${port}`;
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { address, port, count: 1 });
  }
  return [...counts.values()]
    .sort(
      (a, b) =>
        b.count - a.count || (a.address < b.address ? -1 : a.address > b.address ? 1 : a.port - b.port),
    )
    .slice(0, max);
}

/**
 * Jumps to gemini-run chains for `uid` in an `-S OUTPUT` listing: left by a run that died without its post step.
 * The uid is claimed by the caller now, so they are nobody's. Pure; exported for tests.
 */
export function staleChains(listing: string, uid: number): string[] {
  const re = new RegExp(`^-A OUTPUT -m owner --uid-owner ${uid} -j (${CHAIN_PREFIX}[A-Za-z0-9-]+)$`);
  return listing
    .split('\n')
    .map((l) => re.exec(l.trim())?.[1])
    .filter((c): c is string => c !== undefined);
}

/**
 * How iptables is run: directly as root; through the root-owned wrapper `gemini-run setup` installs on a
 * self-hosted runner (egress-wrapper.ts: sudoers grants it, not iptables); else with the runner's passwordless
 * sudo (a hosted runner). Exported for tests.
 */
export function argv(
  family: Family,
  privilege: SwitchingPrivilege,
  args: string[],
  wrapper: string | undefined,
): [string, string[]] {
  // -w: concurrent runs (and docker) take the xtables lock; wait for it rather than fail.
  const cmd = [family, '-w', '10', ...args];
  if (privilege === 'root') return [family, cmd.slice(1)];
  return ['sudo', ['-n', ...(wrapper ? [wrapper] : []), ...cmd]];
}

let wrapperChecked: Promise<string | undefined> | undefined;

async function run(family: Family, privilege: SwitchingPrivilege, args: string[]) {
  const wrapper =
    privilege === 'root'
      ? undefined
      : await (wrapperChecked ??= egressWrapperInstalled().then((ok) => (ok ? EGRESS_WRAPPER : undefined)));
  const [file, rest] = argv(family, privilege, args, wrapper);
  return exec(file, rest, { allowAllExitCodes: true, timeoutMs: 30_000, input: '' }).catch((e: unknown) => ({
    exitCode: 127,
    stdout: '',
    stderr: (e as Error).message,
  }));
}

async function removeFamily(family: Family, s: FilterState): Promise<void> {
  for (const args of removeRules(s)) await run(family, s.privilege, args);
}

/** Removes a run's rules (main step's end, post step). Never throws; idempotent. */
async function removeEgressFilter(s: FilterState): Promise<void> {
  await removeFamily('iptables', s);
  if (s.ipv6) await removeFamily('ip6tables', s);
}

/** Post step: the rules a main step that died left. Never throws. */
export async function removeEgressFilterFromState(raw: string, log: Logger): Promise<void> {
  let state: FilterState;
  try {
    state = filterStateSchema.parse(JSON.parse(raw));
  } catch {
    log.warning(
      "The saved packet filter state is unreadable; the agent's rules (chains GEMINI-RUN-*) may remain.",
    );
    return;
  }
  await removeEgressFilter(state);
  log.info(`Removed the agent's packet filter (${state.chain}).`);
}

/** A gemini-run chain found on the host (its uid read from its name), for `gemini-run doctor`. */
export interface FoundChain {
  family: Family;
  chain: string;
  uid: number;
}

/** The gemini-run chains of an `iptables -S` listing (every chain of the filter table). Pure; exported for tests. */
export function chainsIn(listing: string): { chain: string; uid: number }[] {
  const out: { chain: string; uid: number }[] = [];
  for (const line of listing.split('\n')) {
    const m = /^-N (GEMINI-RUN-(\d+)-[A-Za-z0-9-]+)$/.exec(line.trim());
    if (m) out.push({ chain: m[1] as string, uid: Number(m[2]) });
  }
  return out;
}

/** Every gemini-run chain on this host, both families (none where iptables cannot be read). */
export async function listChains(privilege: SwitchingPrivilege): Promise<FoundChain[]> {
  const out: FoundChain[] = [];
  for (const family of hostHasIpv6() ? (['iptables', 'ip6tables'] as const) : (['iptables'] as const)) {
    const r = await run(family, privilege, ['-S']);
    if (r.exitCode === 0) out.push(...chainsIn(r.stdout).map((c) => ({ ...c, family })));
  }
  return out;
}

/** Removes one chain and its jump (doctor's clean-up of a killed run's filter). Never throws. */
export async function removeChain(privilege: SwitchingPrivilege, c: FoundChain): Promise<void> {
  await removeFamily(c.family, { chain: c.chain, uid: c.uid, privilege, ports: [], ipv6: false });
}

/** The IPv6 stack is off (no interface has an address family for it): nothing to filter there. */
function hostHasIpv6(): boolean {
  return existsSync('/proc/net/if_inet6');
}

export interface EgressFilter {
  readonly state: FilterState;
  /** Packets refused so far (both families). */
  rejected(): Promise<number>;
  /** The destinations tried directly, most tried first, at most `max`; none when the host lacks the match. */
  destinations(max: number): Promise<DroppedDestination[]>;
  /** Whether the accounting rule is in place for every family (else destinations go unnamed). */
  readonly namesDestinations: boolean;
  /** Idempotent. */
  remove(): Promise<void>;
}

/**
 * Installs the chain for `uid` (after removing any a dead run left for it). Throws a one-line UserError when it
 * cannot: `restricted` never runs without its filter.
 */
export async function installEgressFilter(o: {
  uid: number;
  ports: number[];
  privilege: SwitchingPrivilege;
}): Promise<EgressFilter> {
  const state: FilterState = {
    chain: chainName(o.uid),
    uid: o.uid,
    ports: o.ports,
    privilege: o.privilege,
    ipv6: hostHasIpv6(),
  };
  const families: Family[] = state.ipv6 ? ['iptables', 'ip6tables'] : ['iptables'];
  const accounted = new Set<Family>();
  let removed: Promise<void> | undefined;
  const remove = () => (removed ??= removeEgressFilter(state));
  // A run stopped by a signal removes its chain too, from the first rule on (a jump left in OUTPUT would cut the
  // next agent of this uid off), after the rule being added: a rule added after the removal would stay.
  const { made, unguard } = guardHostChange(async (step) => {
    for (const family of families) {
      step();
      const listing = await run(family, o.privilege, ['-S', 'OUTPUT']);
      if (listing.exitCode !== 0) throw cannotFilter(family, listing.stderr);
      for (const chain of staleChains(listing.stdout, o.uid)) await removeFamily(family, { ...state, chain });
      await removeFamily(family, state);
      for (const args of installRules(state, family)) {
        step();
        const r = await run(family, o.privilege, args);
        // Without the hashlimit match the filter still holds; only the destinations go unnamed.
        if (r.exitCode === 0 && isAccountingRule(args)) accounted.add(family);
        else if (r.exitCode !== 0 && !isAccountingRule(args)) throw cannotFilter(family, r.stderr);
      }
    }
  }, remove);
  try {
    await made;
  } catch (e) {
    unguard();
    await remove();
    throw e;
  }
  return {
    state,
    rejected: async () => {
      let n = 0;
      for (const family of families)
        n += rejectedPackets((await run(family, o.privilege, ['-L', state.chain, '-v', '-x', '-n'])).stdout);
      return n;
    },
    namesDestinations: families.every((f) => accounted.has(f)),
    destinations: async (max) => {
      const name = accountingName(state.chain);
      const listings = await Promise.all(
        [...accounted].map((family) =>
          readFile(`/proc/net/${family === 'iptables' ? 'ipt' : 'ip6t'}_hashlimit/${name}`, 'utf8').catch(
            () => '',
          ),
        ),
      );
      return droppedDestinations(listings, max);
    },
    remove: () => {
      unguard();
      return remove();
    },
  };
}

/** The refusal when this host cannot filter the agent's user at all (preflight). */
export const NO_FILTER_MESSAGE =
  "'network: restricted' (the default) and 'network: none' need iptables and the right to use it (root, passwordless sudo, or the rule 'gemini-run setup' describes; NET_ADMIN in a container), which this host lacks: provide it, or set 'network: open'.";

/** Whether iptables can be read with this privilege (what installing needs); for preflight. */
export async function canInstallFilter(privilege: SwitchingPrivilege): Promise<boolean> {
  return (await run('iptables', privilege, ['-S', 'OUTPUT'])).exitCode === 0;
}

function cannotFilter(family: Family, stderr: string): UserError {
  const why = stderr.trim().split('\n')[0]?.slice(0, 200) || 'it failed';
  return new UserError(
    `network: restricted needs a packet filter for the agent's user, and ${family} could not install it (${why}): run as root or with passwordless sudo (on a self-hosted runner see 'gemini-run setup'; in a container add the NET_ADMIN capability), or set 'network: open'.`,
  );
}
