/**
 * How the model proxy reaches its upstream: directly over keep-alive sockets, or through the enterprise proxy
 * named by HTTPS_PROXY / HTTP_PROXY (NO_PROXY respected), with the conventions of @actions/http-client so the
 * action's model traffic and its GitHub traffic take the same route. Built on node:http/https rather than
 * undici so the bundle needs no new dependency and the bytes stream through untouched.
 */
import http, { type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';

/** A stalled connect must end in a 502, not a hang; once connected, a slow model may think for minutes. */
const CONNECT_TIMEOUT_MS = 15_000;

/**
 * Pooled sockets idle longer than this are closed (undici's default, which the CLI itself uses): a socket
 * the far end dropped meanwhile would fail the next call with a reset. Node applies an agent's `timeout` to
 * free sockets only; an active call may stay silent for as long as the model thinks.
 */
const POOL = { keepAlive: true, scheduling: 'lifo', timeout: 4_000 } as const;

/** The proxy for `target`, or undefined to go direct. Loopback targets never use a proxy. */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv): URL | undefined {
  const raw =
    target.protocol === 'https:'
      ? env.https_proxy || env.HTTPS_PROXY
      : target.protocol === 'http:'
        ? env.http_proxy || env.HTTP_PROXY
        : undefined;
  if (!raw || bypassesProxy(target, env.no_proxy || env.NO_PROXY || '')) return undefined;
  try {
    const url = new URL(raw.includes('://') ? raw : `http://${raw}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    throw new Error('the proxy variable of this environment (HTTPS_PROXY or HTTP_PROXY) is not a URL');
  }
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** NO_PROXY entries: `*`, `host`, `.suffix`, `*.suffix`, each optionally with `:port`. */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = bareHost(target);
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host))
    return true;
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[(.*)\](:\d+)?$/, '$1$2'));
    const name = (m?.[1] ?? '').replace(/^\*?\./, '');
    if (m?.[2] && Number(m[2]) !== portOf(target)) continue;
    if (name && (host === name || host.endsWith(`.${name}`))) return true;
  }
  return false;
}

export function proxyAuthorization(proxy: URL): OutgoingHttpHeaders {
  if (!proxy.username && !proxy.password) return {};
  const userinfo = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(userinfo).toString('base64')}` };
}

/**
 * An https.Agent whose sockets are TLS sessions inside a CONNECT tunnel, so they are pooled and kept alive
 * like direct ones (a handshake through the enterprise proxy per model call would add tens of ms).
 */
class TunnelingAgent extends https.Agent {
  constructor(private readonly proxy: URL) {
    super(POOL);
  }

  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const done = callback ?? (() => undefined);
    // On failure Node's agent reads only the error, whatever the callback's declared stream type says.
    const fail = (e: Error): void => (done as (e: Error) => void)(e);
    const authority = `${options.host}:${options.port}`;
    const connect = (this.proxy.protocol === 'https:' ? https : http).request({
      host: bareHost(this.proxy),
      port: portOf(this.proxy),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyAuthorization(this.proxy) },
      agent: false,
      servername: this.proxy.protocol === 'https:' ? bareHost(this.proxy) : undefined,
    });
    connect.setTimeout(CONNECT_TIMEOUT_MS, () =>
      connect.destroy(new Error(`the proxy did not open a tunnel to ${authority} in time`)),
    );
    connect.once('connect', (res, socket) => {
      connect.setTimeout(0);
      if (res.statusCode !== 200) {
        socket.destroy();
        fail(new Error(`the proxy refused a tunnel to ${authority} (HTTP ${res.statusCode})`));
        return;
      }
      socket.setNoDelay(true);
      const secure = tls.connect({
        ...(options as tls.ConnectionOptions),
        socket,
        servername: options.servername ?? String(options.host),
      });
      done(null, secure);
    });
    connect.once('error', fail);
    connect.end();
    return undefined;
  }
}

export interface Upstream {
  /** Starts a request for `path` (path and query) on the upstream origin; the caller writes the body. */
  request(method: string, path: string, headers: OutgoingHttpHeaders): ClientRequest;
  close(): void;
}

export function createUpstream(origin: URL, env: NodeJS.ProcessEnv): Upstream {
  const secure = origin.protocol === 'https:';
  const proxy = proxyFor(origin, env);
  const host = bareHost(origin);
  const port = portOf(origin);
  let agent: http.Agent;
  let start: (method: string, path: string, headers: OutgoingHttpHeaders) => ClientRequest;
  if (!proxy || secure) {
    agent = proxy ? new TunnelingAgent(proxy) : new (secure ? https : http).Agent(POOL);
    const lib = secure ? https : http;
    start = (method, path, headers) =>
      lib.request({ host, port, method, path, headers, agent, servername: secure ? host : undefined });
  } else {
    // Plain-http upstream through a proxy: absolute-form request target, as HTTP/1.1 forward proxies expect.
    const viaTls = proxy.protocol === 'https:';
    agent = new (viaTls ? https : http).Agent(POOL);
    const auth = proxyAuthorization(proxy);
    start = (method, path, headers) =>
      (viaTls ? https : http).request({
        host: bareHost(proxy),
        port: portOf(proxy),
        method,
        path: `${origin.origin}${path}`,
        headers: { ...headers, ...auth },
        agent,
      });
  }
  return {
    request(method, path, headers) {
      const req = start(method, path, headers);
      req.on('socket', (socket) => {
        socket.setNoDelay?.(true);
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => req.destroy(new Error(`no connection to ${origin.host} in ${CONNECT_TIMEOUT_MS / 1000} s`)),
          CONNECT_TIMEOUT_MS,
        );
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      return req;
    },
    close: () => agent.destroy(),
  };
}

/** Errors that say the upstream will not answer any call: nothing listens, no such host, no route to it. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_NONAME',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const PROBE_TIMEOUT_MS = 5_000;

export type ProbeResult =
  | { ok: true }
  /** `fatal`: the run cannot work (refused, unknown host, unreachable, the proxy refused the tunnel). */
  | { ok: false; fatal: boolean; error: string };

/**
 * Opens one connection to the upstream by the route its calls take: a TCP connection to it, or through the
 * proxy of `env` (a CONNECT tunnel for https, a connection to the proxy for plain http). No request is sent.
 * Never throws; a timeout is not fatal (a slow network may still answer).
 */
export function probeUpstream(origin: URL, env: NodeJS.ProcessEnv): Promise<ProbeResult> {
  let proxy: URL | undefined;
  try {
    proxy = proxyFor(origin, env);
  } catch (e) {
    return Promise.resolve({ ok: false, fatal: true, error: (e as Error).message });
  }
  const target = proxy ?? origin;
  const via = proxy ? ` through the proxy ${bareHost(proxy)}:${portOf(proxy)}` : '';
  return new Promise((resolve) => {
    let done = false;
    const settle = (r: ProbeResult): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const failed = (e: NodeJS.ErrnoException): void =>
      settle({
        ok: false,
        fatal: UNREACHABLE.has(e.code ?? ''),
        error: `${e.code ?? e.message.slice(0, 200)}${via}`,
      });
    let stopTrying = (): void => undefined;
    const timer = setTimeout(() => {
      stopTrying();
      settle({ ok: false, fatal: false, error: `no connection in ${PROBE_TIMEOUT_MS / 1000} s${via}` });
    }, PROBE_TIMEOUT_MS);
    if (proxy && origin.protocol === 'https:') {
      const authority = `${bareHost(origin)}:${portOf(origin)}`;
      const tunnel = (proxy.protocol === 'https:' ? https : http).request({
        host: bareHost(proxy),
        port: portOf(proxy),
        method: 'CONNECT',
        path: authority,
        headers: { host: authority, ...proxyAuthorization(proxy) },
        agent: false,
      });
      tunnel.once('connect', (res, s) => {
        s.destroy();
        if (res.statusCode === 200) settle({ ok: true });
        else
          settle({
            ok: false,
            fatal: true,
            error: `the proxy refused a tunnel (HTTP ${res.statusCode})${via}`,
          });
      });
      tunnel.once('error', failed);
      tunnel.end();
      stopTrying = () => tunnel.destroy();
      return;
    }
    const socket = net.connect({ host: bareHost(target), port: portOf(target) });
    stopTrying = () => socket.destroy();
    socket.once('connect', () => {
      socket.destroy();
      settle({ ok: true });
    });
    socket.once('error', failed);
  });
}
