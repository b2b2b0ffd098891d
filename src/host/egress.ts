/**
 * What the agent may reach, for one run (`network`): `open` changes nothing; `restricted` starts the forward proxy
 * (src/proxy/forward-proxy.ts) and a packet filter that leaves the agent's uid only the run's two loopback
 * proxies; `none` leaves it only the model proxy. Both need the agent's own uid: with `isolation: none` the
 * agent is the action's user, whose traffic no rule may touch (the action needs its network), so preflight
 * refuses that pair.
 */
import { installEgressFilter, type EgressFilter, type FilterState } from '../isolation/egress-filter.js';
import type { AgentSandbox } from '../isolation/sandbox.js';
import { DEFAULT_ALLOWED_HOSTS } from '../proxy/egress-hosts.js';
import { startForwardProxy, type ForwardProxy, type RefusalReason } from '../proxy/forward-proxy.js';
import type { EgressSummary } from '../run/types.js';
import { UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';

export type NetworkMode = 'open' | 'restricted' | 'none';

export interface NetworkPolicy {
  mode: NetworkMode;
  /** `allowed-hosts`: added to DEFAULT_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
  /** Test hook: host name → address the forward proxy connects to (see ForwardProxyOptions.resolve). */
  resolve?: (host: string) => string | undefined;
}

export interface Egress {
  /** For the agent's environment: HTTPS_PROXY etc. point here (restricted only). */
  proxyUrl?: string;
  /** Refused hosts so far (the tracking comment's live count). */
  blockedCount(): number;
  /** Stops the proxy, reads the counters, removes the rules. Idempotent. */
  close(): Promise<EgressSummary | undefined>;
}

/** The one-line refusal of `network` restricted/none without the agent's own user. */
export const NEEDS_ISOLATION_MESSAGE =
  "'network: restricted' and 'network: none' filter the agent's own user, which 'isolation: none' does not have: set 'isolation: user', or 'network: open' (the agent then reaches every host).";

/** Direct destinations named in the summary; the packet count covers the rest. */
const MAX_DROPPED_DESTINATIONS = 20;

/** Each reason of the forward proxy's, in the log's words. */
const REFUSED_BECAUSE: Record<RefusalReason, string> = {
  'not allowed': 'not an allowed host',
  'inward address': 'it resolves to an address inside the runner',
  'host header': 'its Host header names another host',
};

const OPEN: Egress = { blockedCount: () => 0, close: () => Promise.resolve(undefined) };

export async function openEgress(o: {
  policy: NetworkPolicy;
  sandbox?: AgentSandbox;
  /** The model proxy's loopback port, if the run has one. */
  modelPort?: number;
  log: Logger;
  /** Called with the total of refused requests after each refusal (the tracking comment's live count). */
  onBlocked?: (total: number) => void;
  /** Called with the installed filter's state (for a post step), and with undefined once it is removed. */
  onFilter?: (state: FilterState | undefined) => void;
  /** The action's environment: an allowed host is reached through its HTTPS_PROXY / HTTP_PROXY, if any. */
  env?: NodeJS.ProcessEnv;
}): Promise<Egress> {
  const { mode } = o.policy;
  if (mode === 'open') return OPEN;
  const sandbox = o.sandbox;
  if (!sandbox) throw new UserError(NEEDS_ISOLATION_MESSAGE);
  const modelHostPort = o.modelPort ? [`127.0.0.1:${o.modelPort}`] : [];
  let proxy: ForwardProxy | undefined;
  let refusedSoFar = 0;
  let filter: EgressFilter | undefined;
  try {
    if (mode === 'restricted') {
      proxy = await startForwardProxy({
        allowed: [...DEFAULT_ALLOWED_HOSTS, ...o.policy.allowedHosts],
        alwaysAllowed: modelHostPort,
        ...(o.policy.resolve ? { resolve: o.policy.resolve } : {}),
        ...(o.env ? { env: o.env } : {}),
        onBlocked: (b) => {
          o.log.info(`network: refused ${b.host}:${b.port} (${REFUSED_BECAUSE[b.why]})`);
          o.onBlocked?.(++refusedSoFar);
        },
      });
    }
    const ports = [o.modelPort, proxy?.port].filter((p): p is number => p !== undefined);
    filter = await installEgressFilter({
      uid: sandbox.user.uid,
      ports,
      privilege: sandbox.privilege,
    });
    o.onFilter?.(filter.state);
  } catch (e) {
    await proxy?.close();
    throw e;
  }
  o.log.info(
    mode === 'restricted'
      ? `network: restricted — the agent reaches the model proxy and, through ${proxy?.url ?? ''}, the allowed hosts only.`
      : 'network: none — the agent reaches the model proxy only.',
  );
  // Named, so the rules of this run can be told from a later run's of the same (reused) uid.
  o.log.info(`network: the packet filter is the chain ${filter.state.chain}.`);
  if (!filter.namesDestinations) {
    o.log.info(
      "network: the packet filter will count the direct packets it drops but not name their destinations: this host's iptables refused the hashlimit match (on a runner prepared by 'gemini-run setup', re-run setup to update its iptables wrapper).",
    );
  }
  const fwd = proxy;
  const installed = filter;
  let closed: Promise<EgressSummary> | undefined;
  return {
    ...(fwd ? { proxyUrl: fwd.url } : {}),
    blockedCount: () => (fwd?.blocked() ?? []).reduce((n, b) => n + b.count, 0),
    close: () =>
      (closed ??= (async () => {
        await fwd?.close();
        const droppedPackets = await installed.rejected().catch(() => 0);
        // Read before the rules go: the accounting table goes with them.
        const droppedTo = await installed.destinations(MAX_DROPPED_DESTINATIONS).catch(() => []);
        await installed.remove();
        o.onFilter?.(undefined);
        return { mode, blocked: fwd?.blocked() ?? [], droppedPackets, droppedTo };
      })()),
  };
}
