/**
 * Which host names the agent may reach under `network: restricted`: the package registries a build usually needs
 * and GitHub's clone hosts, plus what the workflow adds in `allowed-hosts`. Matching is on the name the agent
 * asked the forward proxy for (CONNECT's host, an absolute URL's host); no address is ever matched by a name.
 * An allowed name is then connected only to the addresses it resolves to that are out on the internet
 * (src/util/ip-address.ts): one inside the runner (loopback, link-local, private…) only when an entry names that
 * address itself.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { canonicalAddress, inwardKind, type InwardKind } from '../util/ip-address.js';

/** Why each is here: the README's security model lists the same, and a test keeps the two equal. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = [
  // npm (and yarn's mirror of it)
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  // PyPI: the index and its files
  'pypi.org',
  'files.pythonhosted.org',
  // crates.io: the API, its sparse index and its downloads
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  // Go's module proxy and checksum database
  'proxy.golang.org',
  'sum.golang.org',
  // Maven Central
  'repo.maven.apache.org',
  'repo1.maven.org',
  // RubyGems
  'rubygems.org',
  'index.rubygems.org',
  // git clones and source archives of public repositories
  'github.com',
  'codeload.github.com',
];

const NAME = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * One `allowed-hosts` entry: a host name, `*.suffix` for every name below suffix (not suffix itself), or an IP
 * address (IPv6 with or without brackets), kept in its canonical spelling.
 */
const patternSchema = z
  .string()
  .transform((s) => {
    const t = s.toLowerCase().replace(/\.$/, '');
    return canonicalAddress(t) ?? t;
  })
  .refine((s) => isIP(s) !== 0 || (s.length <= 253 && NAME.test(s) && s !== '*'), {
    error: (i) =>
      `'allowed-hosts' entry '${String(i.input).slice(0, 80)}' is not a host name, '*.suffix' or an IP address (no scheme, port or path)`,
  });

/** `allowed-hosts` as written (commas, spaces or lines between entries) → patterns. Throws a one-line Error. */
export function parseAllowedHosts(text: string): string[] {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  const out: string[] = [];
  for (const entry of entries) {
    const r = patternSchema.safeParse(entry);
    if (!r.success) throw new Error(r.error.issues[0]?.message ?? `bad 'allowed-hosts' entry`);
    if (!out.includes(r.data)) out.push(r.data);
  }
  return out;
}

/**
 * A host name as the agent sent it, made comparable: lower case, no trailing dot, no IPv6 brackets, an IP
 * address in its canonical spelling.
 */
export function normalizeHost(host: string): string {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return canonicalAddress(h) ?? h;
}

export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const h = normalizeHost(host);
  return patterns.some((p) =>
    p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p,
  );
}

/**
 * A refused host as it may be shown in a summary or comment: the agent chose it, so anything that is not a plain
 * host name (markup, a mention, control characters) is not repeated.
 */
export function shownHost(host: string): string {
  const h = normalizeHost(host);
  if (h.length <= 253 && NAME.test(h)) return h;
  if (/^[0-9a-f:.]{2,45}$/.test(h)) return h;
  return '(not a host name)';
}

/** Where an allowed name may be connected: its addresses out on the internet, and those the entries name. */
export interface Reachable {
  /** In the resolver's order. */
  addresses: string[];
  /** The addresses refused, and why: each lies inside the runner and no entry names it. */
  inward: { address: string; kind: InwardKind }[];
}

/**
 * Splits what an allowed name resolved to into the addresses the proxy may connect to and those it may not: an
 * address inside the runner is reachable only when `patterns` holds that address itself. Pure.
 */
export function reachableAddresses(resolved: readonly string[], patterns: readonly string[]): Reachable {
  const named = new Set(patterns.map((p) => canonicalAddress(p)).filter((a) => a !== undefined));
  const out: Reachable = { addresses: [], inward: [] };
  for (const raw of resolved) {
    const address = canonicalAddress(raw) ?? raw;
    const kind = inwardKind(address);
    if (kind === undefined || named.has(address)) out.addresses.push(address);
    else out.inward.push({ address, kind });
  }
  return out;
}
