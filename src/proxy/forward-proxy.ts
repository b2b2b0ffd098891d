/**
 * The agent's only way out under `network: restricted`: an HTTP(S) forward proxy on loopback that the agent's
 * HTTPS_PROXY / HTTP_PROXY name. TLS goes through CONNECT, matched on the host name asked for and tunnelled
 * untouched (no interception: the agent's TLS is end to end); plain HTTP comes in absolute form and is matched on
 * its URL's host. Anything else is refused with a 403 whose body says what to change, and remembered: every
 * refused host and port, how often, and when first, for the run's summary.
 *
 * The packet filter (src/isolation/egress-filter.ts) is what makes this the only way out: it drops everything
 * else the agent's uid sends. The proxy runs as the action's user, outside the filter.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { hostAllowed, normalizeHost, shownHost } from './egress-hosts.js';

export interface BlockedHost {
  /** As shown: a plain host name, or '(not a host name)'. */
  host: string;
  port: number;
  count: number;
  /** ISO time of the first refusal. */
  first: string;
}

export interface ForwardProxyOptions {
  /** Host patterns (egress-hosts.ts) the agent may reach. */
  allowed: readonly string[];
  /** `host:port` pairs always let through: the model proxy, which some clients reach through HTTP_PROXY too. */
  alwaysAllowed?: readonly string[];
  /**
   * Where an allowed name is connected to; default: the name itself (the system's resolver). Tests map their host
   * names to loopback servers here instead of in /etc/hosts.
   */
  resolve?: (host: string) => string | undefined;
  onBlocked?: (b: { host: string; port: number }) => void;
  now?: () => Date;
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

function refusalBody(host: string, port: number): string {
  return `gemini-run: ${shownHost(host)}:${port} is not an allowed host of this run (network: restricted). Add it to the workflow's 'allowed-hosts' if the agent needs it.\n`;
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
  add(host: string, port: number): void {
    let shown = shownHost(host);
    if (!this.hosts.has(`${shown}:${port}`) && this.hosts.size >= MAX_DISTINCT) shown = OVERFLOW_HOST;
    const key = `${shown}:${port}`;
    const seen = this.hosts.get(key);
    if (seen) seen.count++;
    else this.hosts.set(key, { host: shown, port, count: 1, first: this.now().toISOString() });
  }
  list(): BlockedHost[] {
    return [...this.hosts.values()].map((b) => ({ ...b })).sort((a, b) => b.count - a.count);
  }
}

export async function startForwardProxy(o: ForwardProxyOptions): Promise<ForwardProxy> {
  const tally = new Tally(o.now ?? (() => new Date()));
  const sockets = new Set<Duplex>();
  const allows = (host: string, port: number): boolean =>
    (o.alwaysAllowed ?? []).includes(`${host}:${port}`) || hostAllowed(host, o.allowed);
  const refuse = (host: string, port: number): string => {
    tally.add(host, port);
    o.onBlocked?.({ host: shownHost(host), port });
    return refusalBody(host, port);
  };
  const target = (host: string): string => o.resolve?.(host) ?? host;

  const server = createServer((req, res) => forwardPlain(req, res, { allows, refuse, target }));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const to = parseAuthority(req.url ?? '');
    if (!to) return answer(client, 400, 'gemini-run: CONNECT needs host:port\n');
    if (!allows(to.host, to.port)) return answer(client, 403, refuse(to.host, to.port));
    const upstream: Socket = connect({ host: target(to.host), port: to.port });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      if (upstream.connecting)
        answer(client, 502, `gemini-run: ${shownHost(to.host)}:${to.port} did not answer\n`);
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
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

function answer(client: Duplex, status: 400 | 403 | 502, body: string): void {
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

interface Gate {
  allows(host: string, port: number): boolean;
  refuse(host: string, port: number): string;
  target(host: string): string;
}

/** Plain HTTP in absolute form (`GET http://host/path`): the URL's host decides. */
function forwardPlain(req: IncomingMessage, res: ServerResponse, gate: Gate): void {
  const send = (status: number, body: string): void => {
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
  if (!gate.allows(host, port)) return send(403, gate.refuse(host, port));
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
  const up = httpRequest(
    { host: gate.target(host), port, method: req.method, path: `${url.pathname}${url.search}`, headers },
    (upRes) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(upRes.headers))
        if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
      res.writeHead(upRes.statusCode ?? 502, out);
      upRes.pipe(res);
    },
  );
  up.on('error', () => {
    if (!res.headersSent) send(502, `gemini-run: ${shownHost(host)}:${port} did not answer\n`);
    else res.destroy();
  });
  req.pipe(up);
}
