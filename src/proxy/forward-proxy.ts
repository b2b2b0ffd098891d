/**
 * The agent's only way out under `network: restricted`: an HTTP(S) forward proxy on loopback that the agent's
 * HTTPS_PROXY / HTTP_PROXY name. TLS goes through CONNECT, matched on the host name asked for and tunnelled
 * untouched (no interception: the agent's TLS is end to end); plain HTTP comes in absolute form and is matched on
 * its URL's host, and must carry no other `Host:` header (domain fronting: an allowed name on the connection, another
 * host in the request). An allowed name is resolved once, by the proxy, and connected to the very addresses it
 * checked (no second lookup a rebinding DNS server could answer differently): only those out on the internet, or
 * inside the runner (loopback, link-local and cloud metadata, private, CGNAT…) when `allowed-hosts` names that
 * address itself (egress-hosts.ts). Anything else is refused with a 403 whose body says what to change, and
 * remembered: every refused host and port, why, how often, and when first, for the run's summary.
 *
 * The packet filter (src/isolation/egress-filter.ts) is what makes this the only way out: it drops everything
 * else the agent's uid sends. The proxy runs as the action's user, outside the filter.
 *
 * On a runner that may only go out through a corporate proxy (HTTPS_PROXY / HTTP_PROXY, NO_PROXY respected), an
 * allowed request is passed on through it — a CONNECT tunnel inside its tunnel, a plain request in absolute form —
 * with the credentials of its URL; a refused one never reaches it. The corporate proxy then resolves the name (this
 * host may not be able to), so the address check is its network's, not ours.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { hostAllowed, normalizeHost, reachableAddresses, shownHost } from './egress-hosts.js';
import { proxyAuthorization, proxyFor } from './upstream.js';

/** Why a request was refused: a name not allowed, a name that resolves inside the runner, a fronted Host. */
export type RefusalReason = 'not allowed' | 'inward address' | 'host header';

export interface BlockedHost {
  /** As shown: a plain host name, or '(not a host name)'. */
  host: string;
  port: number;
  count: number;
  /** ISO time of the first refusal. */
  first: string;
  why: RefusalReason;
}

export interface ForwardProxyOptions {
  /** Host patterns (egress-hosts.ts) the agent may reach. */
  allowed: readonly string[];
  /** `host:port` pairs always let through: the model proxy, which some clients reach through HTTP_PROXY too. */
  alwaysAllowed?: readonly string[];
  /**
   * What an allowed name resolves to; default (and for a name it returns undefined for): the system's resolver.
   * Tests map their host names to their servers here instead of in /etc/hosts. Its answer is checked like the
   * resolver's.
   */
  resolve?: (host: string) => string | undefined;
  onBlocked?: (b: { host: string; port: number; why: RefusalReason }) => void;
  now?: () => Date;
  /** The environment whose HTTPS_PROXY / HTTP_PROXY / NO_PROXY an allowed request goes out through. */
  env?: NodeJS.ProcessEnv;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, for the agent's HTTPS_PROXY / HTTP_PROXY. */
  url: string;
  port: number;
  /** Refused hosts so far, most refused first. */
  blocked(): BlockedHost[];
  close(): Promise<void>;
}

/** Distinct refused hosts remembered; past that only the count grows (an agent could try a million names). */
const MAX_DISTINCT = 100;
const OVERFLOW_HOST = '(other hosts)';

function refusalBody(host: string, port: number, why: RefusalReason, detail = ''): string {
  const at = `${shownHost(host)}:${port}`;
  switch (why) {
    case 'not allowed':
      return `gemini-run: ${at} is not an allowed host of this run (network: restricted). Add it to the workflow's 'allowed-hosts' if the agent needs it.\n`;
    case 'inward address':
      return `gemini-run: ${at} resolves to ${detail}, inside the runner, which the agent may not reach (network: restricted). Add that address itself to the workflow's 'allowed-hosts' if the agent needs it.\n`;
    case 'host header':
      return `gemini-run: a request for ${at} may not name another host in its Host header (network: restricted).\n`;
  }
}

/** `host:port` of a CONNECT target; IPv6 in brackets. Undefined for anything else. Exported for tests. */
export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s@]+):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: normalizeHost(m[1] as string), port };
}

class Tally {
  private readonly hosts = new Map<string, BlockedHost>();
  constructor(private readonly now: () => Date) {}
  add(host: string, port: number, why: RefusalReason): void {
    let shown = shownHost(host);
    const keyOf = (h: string): string => `${h}:${port}:${why}`;
    if (!this.hosts.has(keyOf(shown)) && this.hosts.size >= MAX_DISTINCT) shown = OVERFLOW_HOST;
    const seen = this.hosts.get(keyOf(shown));
    if (seen) seen.count++;
    else this.hosts.set(keyOf(shown), { host: shown, port, count: 1, first: this.now().toISOString(), why });
  }
  list(): BlockedHost[] {
    return [...this.hosts.values()].map((b) => ({ ...b })).sort((a, b) => b.count - a.count);
  }
}

/** A lookup that answers with addresses already resolved and checked: the connection makes no lookup of its own. */
function fixedLookup(addresses: readonly string[]): LookupFunction {
  const all = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  };
}

export async function startForwardProxy(o: ForwardProxyOptions): Promise<ForwardProxy> {
  const tally = new Tally(o.now ?? (() => new Date()));
  const sockets = new Set<Duplex>();
  const always = (host: string, port: number): boolean => (o.alwaysAllowed ?? []).includes(`${host}:${port}`);
  const refuse = (host: string, port: number, why: RefusalReason, detail?: string): string => {
    tally.add(host, port, why);
    o.onBlocked?.({ host: shownHost(host), port, why });
    return refusalBody(host, port, why, detail);
  };
  const env = o.env ?? {};
  const via = (url: string): URL | undefined => proxyFor(new URL(url), env);
  /** Resolves an allowed name once and keeps the addresses it may be connected to (egress-hosts.ts). */
  const destination = async (host: string, port: number): Promise<Destination> => {
    if (always(host, port)) return { ok: true, lookup: fixedLookup([host]) };
    let resolved: string[];
    try {
      const mapped = isIP(host) ? host : o.resolve?.(host);
      resolved = mapped
        ? [mapped]
        : (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return { ok: false, status: 502, body: `gemini-run: ${shownHost(host)} does not resolve\n` };
    }
    const r = reachableAddresses(resolved, o.allowed);
    if (r.addresses.length > 0) return { ok: true, lookup: fixedLookup(r.addresses) };
    const detail = r.inward.map((i) => `${i.address} (${i.kind})`).join(', ') || 'no address';
    return { ok: false, status: 403, body: refuse(host, port, 'inward address', detail) };
  };
  const gate: Gate = {
    allows: (host, port) => always(host, port) || hostAllowed(host, o.allowed),
    refuse,
    destination,
    via,
  };

  const server = createServer((req, res) => void forwardPlain(req, res, gate));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const to = parseAuthority(req.url ?? '');
    if (!to) return answer(client, 400, 'gemini-run: CONNECT needs host:port\n');
    if (!gate.allows(to.host, to.port)) return answer(client, 403, refuse(to.host, to.port, 'not allowed'));
    void tunnel(client, head, to, gate, sockets);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    blocked: () => tally.list(),
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      })),
  };
}

/** An allowed CONNECT: resolved and checked (unless a corporate proxy resolves it), then tunnelled untouched. */
async function tunnel(
  client: Duplex,
  head: Buffer,
  to: { host: string; port: number },
  gate: Gate,
  sockets: Set<Duplex>,
): Promise<void> {
  const chained = gate.via(`https://${authorityOf(to.host, to.port)}`);
  let lookup: LookupFunction | undefined;
  if (!chained) {
    const d = await gate.destination(to.host, to.port);
    if (!d.ok) return answer(client, d.status, d.body);
    lookup = d.lookup;
  }
  if (client.destroyed) return;
  const upstream = openTunnel(to.host, to.port, chained, lookup, (error) => {
    if (error) {
      const why = error instanceof ChainRefused ? ` (${error.message})` : '';
      answer(client, 502, `gemini-run: ${shownHost(to.host)}:${to.port} did not answer${why}\n`);
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    // Once open, a reset on either side ends both.
    upstream.on('error', () => client.destroy());
  });
  sockets.add(upstream);
  upstream.on('close', () => sockets.delete(upstream));
  client.on('close', () => upstream.destroy());
}

function answer(client: Duplex, status: 400 | 403 | 502, body: string): void {
  if (client.destroyed) return;
  const reason = status === 403 ? 'Forbidden' : status === 400 ? 'Bad Request' : 'Bad Gateway';
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Where an allowed request may go: the checked addresses (as a lookup), or the answer that refuses it. */
type Destination = { ok: true; lookup: LookupFunction } | { ok: false; status: 403 | 502; body: string };

interface Gate {
  /** The name (or the model proxy's own host and port) is one the agent may ask for. */
  allows(host: string, port: number): boolean;
  refuse(host: string, port: number, why: RefusalReason, detail?: string): string;
  /** Resolves an allowed name once and checks its addresses. */
  destination(host: string, port: number): Promise<Destination>;
  /** The corporate proxy a URL goes out through, if any. */
  via(url: string): URL | undefined;
}

function authorityOf(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The corporate proxy refused the tunnel (an answer other than 200): said to the agent as a 502 with its status. */
class ChainRefused extends Error {}

/**
 * A socket to `host:port`, directly or as a tunnel through the corporate `proxy` (CONNECT with its credentials);
 * `ready` is called once, with no error when bytes can flow to the target.
 */
function openTunnel(
  host: string,
  port: number,
  proxy: URL | undefined,
  lookup: LookupFunction | undefined,
  ready: (e?: Error) => void,
): Socket {
  let settled = false;
  const settle = (e?: Error): void => {
    if (settled) return;
    settled = true;
    ready(e);
  };
  const secure = proxy?.protocol === 'https:';
  const to = proxy
    ? { host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(proxy.port || (secure ? 443 : 80)) }
    : { host, port, ...(lookup ? { lookup } : {}) };
  const sock: Socket = secure ? tlsConnect({ ...to, servername: to.host }) : connect(to);
  sock.on('error', (e) => settle(e));
  sock.once(secure ? 'secureConnect' : 'connect', () => {
    if (!proxy) return settle();
    const authority = authorityOf(host, port);
    const auth = proxyAuthorization(proxy)['proxy-authorization'];
    sock.write(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth ? `Proxy-Authorization: ${String(auth)}\r\n` : ''}\r\n`,
    );
    let got = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      got = Buffer.concat([got, chunk]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0 && got.length <= 16 * 1024) return;
      sock.off('data', onData);
      sock.pause();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(got.subarray(0, Math.max(end, 0)).toString('latin1'))?.[1];
      if (status !== '200') {
        settle(new ChainRefused(`the runner's proxy answered ${status ?? 'no status'} to the tunnel`));
        sock.destroy();
        return;
      }
      const rest = got.subarray(end + 4);
      if (rest.length) sock.unshift(rest);
      settle();
    };
    sock.on('data', onData);
  });
  return sock;
}

/** The authority a `Host:` header names, as `host:port` (port 80 unless given), or undefined if it names none. */
function hostHeaderAuthority(value: string): string | undefined {
  const v = value.trim();
  if (v === '' || /[/?#@\\\s]/.test(v)) return undefined;
  try {
    const u = new URL(`http://${v}/`);
    return `${normalizeHost(u.hostname)}:${u.port || '80'}`;
  } catch {
    return undefined;
  }
}

/** Plain HTTP in absolute form (`GET http://host/path`): the URL's host decides, and the Host header agrees. */
async function forwardPlain(req: IncomingMessage, res: ServerResponse, gate: Gate): Promise<void> {
  const send = (status: number, body: string): void => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(body);
  };
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return send(400, 'gemini-run: this is a forward proxy; send absolute URLs (http://host/path)\n');
  }
  if (url.protocol !== 'http:')
    return send(400, 'gemini-run: only http:// URLs are forwarded; use CONNECT for TLS\n');
  const host = normalizeHost(url.hostname);
  const port = Number(url.port || 80);
  if (!gate.allows(host, port)) return send(403, gate.refuse(host, port, 'not allowed'));
  // One Host header, naming the URL's own authority (or none): anything else is fronting.
  const hostHeaders = req.rawHeaders.filter(
    (_, i) => i % 2 === 0 && req.rawHeaders[i]!.toLowerCase() === 'host',
  );
  const named = req.headers.host;
  if (hostHeaders.length > 1 || (named !== undefined && hostHeaderAuthority(named) !== `${host}:${port}`)) {
    req.resume();
    return send(403, gate.refuse(host, port, 'host header'));
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
  headers.host = authorityOf(host, port).replace(/:80$/, '');
  const chained = gate.via(`http://${authorityOf(host, port)}/`);
  let direct: { host: string; port: number; path: string; lookup: LookupFunction } | undefined;
  if (!chained) {
    const d = await gate.destination(host, port);
    if (!d.ok) {
      req.resume();
      return send(d.status, d.body);
    }
    direct = { host, port, path: `${url.pathname}${url.search}`, lookup: d.lookup };
  }
  const through = chained && {
    host: chained.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(chained.port || (chained.protocol === 'https:' ? 443 : 80)),
    // Absolute form to the corporate proxy, with its credentials.
    path: `http://${authorityOf(host, port)}${url.pathname}${url.search}`,
  };
  if (chained) Object.assign(headers, proxyAuthorization(chained));
  const requestOf = chained?.protocol === 'https:' ? httpsRequest : httpRequest;
  // A pooled socket (keyed by name) is one connected to an address checked for an earlier request: as good.
  const up = requestOf({ ...(through || direct), method: req.method, headers }, (upRes) => {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(upRes.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
    res.writeHead(upRes.statusCode ?? 502, out);
    upRes.pipe(res);
  });
  up.on('error', () => {
    if (!res.headersSent) send(502, `gemini-run: ${shownHost(host)}:${port} did not answer\n`);
    else res.destroy();
  });
  req.pipe(up);
}
