/**
 * proxy-overhead-ms: what the loopback model-credential proxy adds to the time to first byte of a streamed
 * model call. A local upstream answers every POST (a 30 KB JSON body, the size of a CLI request with its
 * system prompt) with `text/event-stream` headers and a first SSE event at once, then a second event 20 ms
 * later. The client sends the same request directly to the upstream and through the proxy, alternately
 * (which goes first flips every round), both over keep-alive sockets as the CLI's fetch does, after a warm-up.
 * TTFB is request start to the first body chunk (the first event). Figure: the median of the per-pair
 * differences (proxied minus direct); baseline: the median direct TTFB; ratio: median proxied / median direct.
 * The proxy is the separate process that ships: dist/proxy.js when built, else src/proxy/main.ts under tsx
 * (same code; tsx only changes module loading), with usage counting and the token limit on (every event carries
 * usageMetadata). Target: ≤ 2 ms.
 * `node --import tsx test/bench/proxy-overhead.bench.ts` (REQUESTS=<n> to change the count).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchModelProxy } from '../../src/proxy/launch.js';
import { bench } from './lib.js';

const REQUESTS = Math.max(10, Number(process.env.REQUESTS ?? 200));
const WARMUP = 20;
const KEY = `AIza${randomBytes(18).toString('hex')}`;
const PLACEHOLDER = `gemini-run-${randomBytes(16).toString('hex')}`;
const BODY = JSON.stringify({
  systemInstruction: { parts: [{ text: 'You are an interactive CLI agent. '.repeat(900) }] },
  contents: [{ role: 'user', parts: [{ text: 'Fix the failing test.' }] }],
});
const PATH = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse';
// Each event carries its usage, as the model API's do: the proxy reads it off every answer it forwards.
const EVENT = `data: ${JSON.stringify({
  candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] } }],
  usageMetadata: { promptTokenCount: 7500, candidatesTokenCount: 1, totalTokenCount: 7501 },
})}\r\n\r\n`;

const upstream = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(EVENT);
    setTimeout(() => res.end(EVENT), 20);
  });
});
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const direct = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

const dist = new URL('../../dist/proxy.js', import.meta.url).pathname;
const shipped = existsSync(dist);
const proxy = await launchModelProxy({
  upstream: direct,
  api: 'gemini-api',
  placeholder: PLACEHOLDER,
  credential: { kind: 'api-key', apiKey: KEY },
  // Counting and enforcing on, as in a run with max-tokens: a limit never reached, the model allow-list.
  tokenLimit: 1e12,
  models: ['gemini-2.5-flash', 'gemini-2.5-flash-lite'],
  script: shipped ? dist : new URL('../../src/proxy/main.ts', import.meta.url).pathname,
  execArgv: shipped ? [] : ['--import', 'tsx'],
});

/** Request start → first body chunk, in ms; the whole body is read so the socket returns to the pool. */
function ttfb(base: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    const t0 = performance.now();
    let first = 0;
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: PATH,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-goog-api-key': PLACEHOLDER },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode} from ${base}`));
        res.on('data', () => (first ||= performance.now() - t0));
        res.on('end', () => resolve(first));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(BODY);
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const directAgent = new http.Agent({ keepAlive: true });
const proxiedAgent = new http.Agent({ keepAlive: true });
try {
  for (let i = 0; i < WARMUP; i++) {
    await ttfb(direct, directAgent);
    await ttfb(proxy.url, proxiedAgent);
  }
  const directs: number[] = [];
  const proxieds: number[] = [];
  const diffs: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    let d: number;
    let p: number;
    if (i % 2) {
      p = await ttfb(proxy.url, proxiedAgent);
      d = await ttfb(direct, directAgent);
    } else {
      d = await ttfb(direct, directAgent);
      p = await ttfb(proxy.url, proxiedAgent);
    }
    directs.push(d);
    proxieds.push(p);
    diffs.push(p - d);
  }
  const base = median(directs);
  console.log(
    `# proxy-overhead: ${shipped ? 'dist/proxy.js' : 'src/proxy/main.ts (tsx)'}, ${REQUESTS} pairs`,
  );
  bench(
    'proxy-overhead-ms',
    median(diffs),
    'ms',
    `median over ${REQUESTS} alternating pairs of time to first byte through the proxy (usage counted, a token limit set) minus straight to the upstream (keep-alive, after ${WARMUP} warm-ups); baseline: the straight median`,
    { baseline: base, ratio: median(proxieds) / base },
  );
} finally {
  directAgent.destroy();
  proxiedAgent.destroy();
  await proxy.stop();
  upstream.closeAllConnections();
  upstream.close();
}
