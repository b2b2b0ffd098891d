/**
 * egress-proxy-overhead-ms: what the forward proxy of `network: restricted` adds to the time to first byte of a
 * fresh HTTPS-style fetch, the way a package manager opens one: a new connection, CONNECT to an allowed host name,
 * then the request through the tunnel. Direct: a new connection straight to the server and the same request.
 * The server is a loopback HTTP server; the proxy maps the allowed name to it through its resolver hook, so no
 * DNS is timed on either side. Pairs alternate which goes first, after a warm-up. Figure: the median of the
 * per-pair differences (through the proxy minus direct); baseline: the median direct TTFB; ratio: median
 * proxied / median direct. Target: ≤ 2 ms (one extra loopback round trip and a pipe).
 * `node --import tsx test/bench/egress-proxy-overhead.bench.ts` (REQUESTS=<n> to change the count).
 */
import http from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { startForwardProxy } from '../../src/proxy/forward-proxy.js';
import { bench, median } from './lib.js';

const REQUESTS = Math.max(10, Number(process.env.REQUESTS ?? 300));
const WARMUP = 30;
const HOST = 'registry.bench.test';

const server = http.createServer((_, res) => res.end('{"name":"left-pad","versions":{}}'));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const proxy = await startForwardProxy({
  // The server is on loopback: named, as a workflow names an address inside the runner it means to reach.
  allowed: [HOST, '127.0.0.1'],
  resolve: (h) => (h === HOST ? '127.0.0.1' : undefined),
});

// The promises below settle the outer ones (resolve/reject): nothing is left unawaited.
const REQUEST = `GET /left-pad HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`;

/** From t0 to the first byte of the answer on `socket`, which is ready to carry the request. */
function firstByte(socket: Socket, t0: number): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('data', () => {
      resolve(performance.now() - t0);
      socket.destroy();
    });
    socket.once('error', reject);
    socket.write(REQUEST);
  });
}

function direct(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => void firstByte(s, t0).then(resolve, reject));
    s.once('error', reject);
  });
}

function proxied(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxy.port,
      method: 'CONNECT',
      path: `${HOST}:${port}`,
      agent: false,
    });
    req.once('connect', (res, socket) => {
      if (res.statusCode !== 200) return reject(new Error(`CONNECT answered ${res.statusCode}`));
      void firstByte(socket, t0).then(resolve, reject);
    });
    req.once('error', reject);
    req.end();
  });
}

try {
  for (let i = 0; i < WARMUP; i++) {
    await direct();
    await proxied();
  }
  const directs: number[] = [];
  const proxieds: number[] = [];
  const diffs: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    let d: number;
    let p: number;
    if (i % 2) {
      p = await proxied();
      d = await direct();
    } else {
      d = await direct();
      p = await proxied();
    }
    directs.push(d);
    proxieds.push(p);
    diffs.push(p - d);
  }
  const base = median(directs);
  bench(
    'egress-proxy-overhead-ms',
    median(diffs),
    'ms',
    `median over ${REQUESTS} alternating pairs of time to first byte of a fresh connection through the forward proxy (CONNECT to an allowed name, then the request) minus straight to the server (after ${WARMUP} warm-ups); baseline: the straight median`,
    { baseline: base, ratio: median(proxieds) / base },
  );
} finally {
  await proxy.close();
  server.closeAllConnections();
  server.close();
}
