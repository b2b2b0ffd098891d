import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { PROXY_CHILD_ENV, launchModelProxy } from '../../src/proxy/launch.js';
import { startModelProxy, type ModelProxyOptions } from '../../src/proxy/model-proxy.js';
import { bypassesProxy, probeUpstream, proxyFor } from '../../src/proxy/upstream.js';
import type { HealthNote } from '../../src/proxy/upstream-health.js';
import type { RefusedCall } from '../../src/proxy/model-routes.js';
import type { ServedTokens } from '../../src/proxy/usage-meter.js';
import { testCertificates } from '../harness/oauth-proxy.js';

const KEY = `AIza${randomBytes(18).toString('hex')}`;
const PLACEHOLDER = `gemini-run-${randomBytes(16).toString('hex')}`;
const MAIN_TS = 'src/proxy/main.ts';
const TSX = ['--import', 'tsx'];

/** Google's daily-quota 429 as the CLI's quota detection expects it: pretty-printed, trailing newline. */
const QUOTA_BODY = `${JSON.stringify(
  {
    error: {
      code: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
              quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
              quotaDimensions: { location: 'global', model: 'gemini-2.5-pro' },
              quotaValue: '50',
            },
          ],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' },
      ],
    },
  },
  null,
  2,
)}\n`;
const OVERLOADED_BODY = `{\n  "error": {\n    "code": 503,\n    "message": "The model is overloaded. Please try again later.",\n    "status": "UNAVAILABLE"\n  }\n}\n`;

afterEach(() => {
  vi.unstubAllEnvs();
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void | Promise<void>;

/** A local stand-in for the model API: records every request, then lets `handler` answer it. */
/** How a helper's server is stopped with its test: concurrent tests pass their own context's onTestFinished. */
type Finished = (fn: () => Promise<void>) => void;

async function startUpstream(
  handler: Handler = (_q, res) => void res.end('{"ok":true}'),
  finished: Finished = onTestFinished,
) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      void handler(req, res, s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  finished(() => close());
  return { url: `http://127.0.0.1:${port}`, port, seen, server, close };
}

async function proxyTo(
  upstream: string,
  extra: Partial<ModelProxyOptions> = {},
  finished: Finished = onTestFinished,
) {
  const lines: string[] = [];
  const p = await startModelProxy({
    upstream,
    api: 'gemini-api',
    placeholder: PLACEHOLDER,
    credential: { kind: 'api-key', apiKey: KEY },
    log: (l) => lines.push(l),
    ...extra,
  });
  finished(() => p.close());
  return { ...p, lines };
}

interface Reply {
  status: number;
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Arrival time of each chunk (performance.now()). */
  chunks: { at: number; text: string }[];
  /** The response ended without its end (reset mid-body). */
  aborted: boolean;
  sentAt: number;
}

function call(
  base: string,
  path: string,
  o: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    onData?: (text: string) => void;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    const sentAt = performance.now();
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
        headers: o.headers,
        agent: false,
      },
      (res) => {
        const chunks: { at: number; data: Buffer }[] = [];
        res.on('data', (data: Buffer) => {
          chunks.push({ at: performance.now(), data });
          o.onData?.(data.toString());
        });
        res.on('error', () => undefined);
        res.on('close', () =>
          resolve({
            status: res.statusCode!,
            rawHeaders: res.rawHeaders,
            headers: res.headers,
            body: Buffer.concat(chunks.map((c) => c.data)),
            chunks: chunks.map((c) => ({ at: c.at, text: c.data.toString() })),
            aborted: !res.complete,
            sentAt,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

const withKey = (extra: Record<string, string> = {}) => ({ 'x-goog-api-key': PLACEHOLDER, ...extra });

/** Everything the agent side can see of a reply, as one string to search for secrets. */
const visible = (r: Reply): string => `${r.status}\n${r.rawHeaders.join('\n')}\n${r.body.toString('latin1')}`;

describe('model proxy: credentials', () => {
  const PATH = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';

  it.each([
    ['x-goog-api-key', `${PATH}?alt=sse`, withKey()],
    ['?key=', `${PATH}?alt=sse&key=${PLACEHOLDER}`, {}],
    ['Authorization: Bearer', `${PATH}?alt=sse`, { authorization: `Bearer ${PLACEHOLDER}` }],
  ])(
    'swaps the placeholder in %s for the real key, keeping path prefix, query and body',
    async (_, path, h) => {
      const up = await startUpstream();
      const proxy = await proxyTo(`${up.url}/prefix/`);
      const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'ünï {"key":"x"} 😀' }] }] });
      const r = await call(proxy.url, path, { body, headers: { 'content-type': 'application/json', ...h } });
      expect(r.status).toBe(200);
      expect(r.body.toString()).toBe('{"ok":true}');
      expect(up.seen).toHaveLength(1);
      const s = up.seen[0]!;
      expect(s.method).toBe('POST');
      expect(s.url).toBe(`/prefix${PATH}?alt=sse`);
      expect(s.headers['x-goog-api-key']).toBe(KEY);
      expect(s.headers.authorization).toBeUndefined();
      expect(s.headers.host).toBe(`127.0.0.1:${up.port}`);
      expect(s.headers['content-type']).toBe('application/json');
      expect(s.body.toString()).toBe(body);
      expect(JSON.stringify(s)).not.toContain(PLACEHOLDER);
      expect(proxy.lines.join('\n')).not.toMatch(new RegExp(`${KEY}|${PLACEHOLDER}`));
    },
  );

  it.each([
    ['no credential', PATH, {}],
    ['a wrong x-goog-api-key', PATH, { 'x-goog-api-key': 'not-the-placeholder-at-all' }],
    ['a wrong ?key=', `${PATH}?key=${PLACEHOLDER.slice(0, -1)}x`, {}],
    ['a wrong bearer token', PATH, { authorization: `Bearer ${PLACEHOLDER}x` }],
    ['the real key itself', PATH, { 'x-goog-api-key': KEY }],
  ])('answers %s with a Google-shaped 401 and forwards nothing', async (_, path, headers) => {
    const up = await startUpstream();
    const proxy = await proxyTo(up.url);
    const r = await call(proxy.url, path, { body: '{}', headers });
    expect(r.status).toBe(401);
    const err = JSON.parse(r.body.toString()) as { error: { code: number; status: string; message: string } };
    expect(err.error.code).toBe(401);
    expect(err.error.status).toBe('UNAUTHENTICATED');
    expect(err.error.message).toMatch(/^gemini-run model proxy: /);
    expect(visible(r)).not.toContain(KEY);
    expect(up.seen).toHaveLength(0);
  });

  it('refuses an absolute-form target, so it never works as an open proxy carrying the key', async () => {
    const up = await startUpstream();
    const proxy = await proxyTo(up.url);
    const r = await call(proxy.url, `http://evil.example${PATH}`, { headers: withKey(), body: '{}' });
    expect(r.status).toBe(403);
    expect(up.seen).toHaveLength(0);
  });

  it('strips hop-by-hop headers both ways and keeps the others', async () => {
    const up = await startUpstream((_q, res) => {
      res.writeHead(200, { 'keep-alive': 'timeout=77', 'x-upstream': 'yes', 'content-type': 'text/plain' });
      res.end('ok');
    });
    const proxy = await proxyTo(up.url);
    const r = await call(proxy.url, '/v1beta/models/m:countTokens', {
      body: '{}',
      headers: withKey({
        connection: 'keep-alive, x-drop-me',
        'x-drop-me': '1',
        te: 'trailers',
        'proxy-authorization': 'Basic Zm9vOmJhcg==',
        'x-goog-api-client': 'gl-node/20',
      }),
    });
    expect(r.status).toBe(200);
    const h = up.seen[0]!.headers;
    for (const gone of ['x-drop-me', 'te', 'proxy-authorization']) expect(h[gone]).toBeUndefined();
    expect(h.connection).not.toContain('x-drop-me');
    expect(h['x-goog-api-client']).toBe('gl-node/20');
    expect(r.headers['x-upstream']).toBe('yes');
    // Node's own server may announce its keep-alive; the upstream's must not leak through.
    expect(r.headers['keep-alive']).not.toBe('timeout=77');
  });

  it('sends a bearer token from the token source and keeps it and its errors from the agent', async () => {
    const token = `ya29.${randomBytes(24).toString('hex')}`;
    const up = await startUpstream((_q, res) => {
      res.writeHead(403, { 'content-type': 'application/json', 'x-echo': token });
      res.end(
        JSON.stringify({ error: { code: 403, message: `token ${token} lacks scope`, status: 'DENIED' } }),
      );
    });
    const proxy = await proxyTo(up.url, {
      api: 'vertex',
      credential: { kind: 'bearer', token: () => Promise.resolve(token) },
    });
    const r = await call(proxy.url, '/v1/projects/p/locations/l/publishers/google/models/m:generateContent', {
      body: '{}',
      headers: withKey(),
    });
    expect(up.seen[0]!.headers.authorization).toBe(`Bearer ${token}`);
    expect(up.seen[0]!.headers['x-goog-api-key']).toBeUndefined();
    expect(r.status).toBe(403);
    expect(visible(r)).not.toContain(token);
    expect(r.body.toString()).toContain('token *** lacks scope');

    const failing = await proxyTo(up.url, {
      api: 'vertex',
      credential: { kind: 'bearer', token: () => Promise.reject(new Error(`refresh token ${KEY} refused`)) },
    });
    const f = await call(failing.url, '/v1/publishers/google/models/m:generateContent', {
      body: '{}',
      headers: withKey(),
    });
    expect(f.status).toBe(401);
    expect(visible(f)).not.toContain(KEY);
    expect(visible(f)).not.toContain('refused');
    expect(up.seen).toHaveLength(1);
  });

  it('refuses bad options with one line and no secret', async () => {
    const base = { upstream: 'http://127.0.0.1:1', api: 'gemini-api', placeholder: PLACEHOLDER } as const;
    const key = { kind: 'api-key', apiKey: KEY } as const;
    await expect(startModelProxy({ ...base, placeholder: 'short', credential: key })).rejects.toThrow(/16/);
    await expect(startModelProxy({ ...base, placeholder: KEY, credential: key })).rejects.toThrow(/differ/);
    await expect(
      startModelProxy({ ...base, upstream: `http://x/?key=${KEY}`, credential: key }),
    ).rejects.toThrow(/^model proxy: the upstream must not carry credentials, a query or a fragment$/);
  });
});

describe('model proxy: only the model calls of a run', () => {
  const TOKEN = `ya29.${randomBytes(24).toString('hex')}`;
  const bearer = { kind: 'bearer', token: () => Promise.resolve(TOKEN) } as const;
  const VERTEX = '/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro';
  const kinds = [
    {
      name: 'API key (Gemini API)',
      extra: { api: 'gemini-api' } as const,
      header: ['x-goog-api-key', KEY],
      allowed: [
        ['POST', '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'],
        ['POST', '/v1beta/models/gemini-2.5-flash-lite:generateContent'],
        ['POST', '/v1beta/models/gemini-2.5-flash:countTokens'],
      ],
    },
    {
      name: 'OAuth (Code Assist)',
      extra: { api: 'code-assist', credential: bearer } as const,
      header: ['authorization', `Bearer ${TOKEN}`],
      allowed: [
        ['POST', '/v1internal:loadCodeAssist'],
        ['POST', '/v1internal:listExperiments'],
        ['POST', '/v1internal:retrieveUserQuota'],
        ['POST', '/v1internal:streamGenerateContent?alt=sse'],
        ['POST', '/v1internal:generateContent'],
        ['POST', '/v1internal:countTokens'],
        ['POST', '/v1internal:recordCodeAssistMetrics'],
      ],
    },
    {
      name: 'Vertex AI',
      extra: { api: 'vertex', credential: bearer } as const,
      header: ['authorization', `Bearer ${TOKEN}`],
      allowed: [
        ['POST', `${VERTEX}:streamGenerateContent?alt=sse`],
        ['POST', `${VERTEX}:generateContent`],
        ['POST', '/v1beta1/publishers/google/models/gemini-2.5-pro:countTokens'],
      ],
    },
  ];
  const forbidden = [
    ['GET', '/v1beta/files'],
    ['POST', '/upload/v1beta/files?uploadType=multipart'],
    ['DELETE', '/v1beta/files/abc'],
    ['GET', '/v1beta/cachedContents'],
    ['POST', '/v1beta/cachedContents'],
    ['GET', '/v1beta/tunedModels'],
    ['GET', '/v1beta/models'],
    ['POST', '/v1beta/models/m:embedContent'],
    ['GET', '/v1beta/batches'],
    ['GET', '/v1beta/operations'],
    ['GET', '/v1beta/corpora'],
    ['GET', '/v1internal:getCodeAssistGlobalUserSetting'],
    ['POST', '/v1internal:setCodeAssistGlobalUserSetting'],
    ['GET', `${VERTEX.replace(/\/publishers.*/, '')}/cachedContents`],
    ['DELETE', `${VERTEX}:generateContent`],
    ['PUT', '/v1beta/models/m:generateContent'],
    ['POST', '/v1beta/models/m/../../files:generateContent'],
    ['POST', '/v1beta/models/m%2F..%2Ffiles:generateContent'],
    ['POST', '/v1beta//models/m:generateContent'],
    ['POST', '/v1beta/models/m:generateContent?alt=sse&key=AIzaAgentOwnKey0000000000000000000000'],
    ['POST', 'http://evil.example/v1beta/models/m:generateContent'],
  ];

  it.each(kinds)('$name: the model calls are forwarded with the real credential', async (k) => {
    const up = await startUpstream();
    const proxy = await proxyTo(up.url, k.extra);
    for (const [method, target] of k.allowed) {
      const r = await call(proxy.url, target!, {
        method,
        body: '{"contents":[]}',
        headers: { authorization: `Bearer ${PLACEHOLDER}`, 'content-type': 'application/json' },
      });
      expect(r.status, `${method} ${target}`).toBe(200);
    }
    expect(up.seen.map((s) => `${s.method} ${s.url}`)).toEqual(k.allowed.map(([m, t]) => `${m} ${t}`));
    for (const s of up.seen) {
      expect(s.headers[k.header[0]!]).toBe(k.header[1]);
      expect(JSON.stringify(s)).not.toContain(PLACEHOLDER);
    }
    expect(proxy.refusals()).toEqual({ count: 0, first: [] });
  });

  it.each(kinds)(
    '$name: anything else is refused with a 403 in Google shape, never forwarded, and counted',
    async (k) => {
      const up = await startUpstream();
      const told: string[] = [];
      const proxy = await proxyTo(up.url, {
        ...k.extra,
        onRefused: (c) => told.push(`${c.method} ${c.path}`),
      });
      for (const [method, target] of [
        ...forbidden,
        ...kinds.filter((o) => o !== k).flatMap((o) => o.allowed),
      ]) {
        for (const placement of ['header', 'query']) {
          const viaQuery = placement === 'query';
          const sep = target!.includes('?') ? '&' : '?';
          const r = await call(proxy.url, viaQuery ? `${target}${sep}key=${PLACEHOLDER}` : target!, {
            method,
            body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
            headers: viaQuery ? {} : withKey(),
          });
          expect(r.status, `${method} ${target}`).toBe(403);
          const err = JSON.parse(r.body.toString()) as {
            error: { code: number; status: string; message: string };
          };
          expect(err.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
          expect(err.error.message).toMatch(/^gemini-run model proxy: only the model calls of a run/);
          expect(visible(r)).not.toContain(KEY);
          expect(visible(r)).not.toContain(TOKEN);
        }
      }
      expect(up.seen).toEqual([]);
      const n = 2 * (forbidden.length + kinds.filter((o) => o !== k).flatMap((o) => o.allowed).length);
      const tally = proxy.refusals();
      expect(tally.count).toBe(n);
      expect(told).toHaveLength(n);
      expect(tally.first.map((c) => `${c.method} ${c.path}`)).toEqual(told.slice(0, 5));
      expect(tally.first[0]).toEqual({ method: 'GET', path: '/v1beta/files' });
      // the query (which carries a key) is never part of what is shown
      expect(told.join('\n')).not.toMatch(/key=|AIza|\?/);
      expect(proxy.lines.join('\n')).not.toContain(PLACEHOLDER);
      // the model calls still work after all that
      const [method, target] = k.allowed[0]!;
      expect((await call(proxy.url, target!, { method, body: '{}', headers: withKey() })).status).toBe(200);
      expect(up.seen).toHaveLength(1);
    },
  );

  it('a caller without the placeholder gets a 401 and is not counted; once fenced, a non-model call is still a 403', async () => {
    const up = await startUpstream();
    const proxy = await proxyTo(up.url);
    expect((await call(proxy.url, '/v1beta/files', {})).status).toBe(401);
    expect(proxy.refusals().count).toBe(0);
    proxy.fence();
    expect((await call(proxy.url, '/v1beta/files', { headers: withKey() })).status).toBe(403);
    expect(
      (await call(proxy.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() })).status,
    ).toBe(400);
    expect(proxy.refusals().count).toBe(1);
    expect(up.seen).toEqual([]);
  });
});

describe('model proxy: the fence', () => {
  it('once fenced, refuses every model call without reaching the upstream, in a shape the CLI does not retry', async () => {
    const up = await startUpstream();
    const p = await proxyTo(up.url);
    expect(
      (await call(p.url, '/v1beta/models/m:streamGenerateContent', { headers: withKey(), body: '{}' }))
        .status,
    ).toBe(200);
    p.fence();
    p.fence();
    const r = await call(p.url, '/v1beta/models/m:streamGenerateContent', { headers: withKey(), body: '{}' });
    expect(r.status).toBe(400);
    const body = JSON.parse(r.body.toString()) as {
      error: { code: number; status: string; message: string };
    };
    expect(body.error).toMatchObject({ code: 400, status: 'FAILED_PRECONDITION' });
    expect(body.error.message).toContain('gemini-run stopped the agent');
    expect(up.seen).toHaveLength(1);
    // a caller without this run's placeholder still learns nothing more than before
    expect((await call(p.url, '/v1beta/models', {})).status).toBe(401);
    expect(p.lines.filter((l) => l.includes('fenced'))).toHaveLength(1);
  });
});

describe("model proxy: the run's models and tokens", () => {
  const FLASH = '/v1beta/models/gemini-2.5-flash';
  /** An SSE answer whose events carry cumulative usage, as the model API's do: `totals` per event. */
  const sseAnswer = (totals: number[]) => (_q: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const t of totals)
      res.write(
        `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'x' }] } }], usageMetadata: { promptTokenCount: 5, totalTokenCount: t } })}\r\n\r\n`,
      );
    res.end();
  };
  const unary = (total: number) =>
    JSON.stringify({ candidates: [], usageMetadata: { totalTokenCount: total } });

  it('counts the usage of every answer it forwards, streamed, unary or gzipped, and tells it', async () => {
    const up = await startUpstream((q, res) => {
      if (q.url!.includes('stream')) return sseAnswer([10, 40, 70])(q, res);
      if (q.url!.includes('countTokens')) return void res.end('{"totalTokens": 900}');
      const body = gzipSync(unary(25));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(body);
    });
    const told: ServedTokens[] = [];
    const p = await proxyTo(up.url, { onUsage: (u) => told.push(u) });
    const s = await call(p.url, `${FLASH}:streamGenerateContent?alt=sse`, { headers: withKey(), body: '{}' });
    expect(s.status).toBe(200);
    const g = await call(p.url, `${FLASH}:generateContent`, {
      headers: withKey({ 'accept-encoding': 'gzip, zstd' }),
      body: '{}',
    });
    // Forwarded untouched (still gzip), counted decoded.
    expect(g.headers['content-encoding']).toBe('gzip');
    await call(p.url, `${FLASH}:countTokens`, { headers: withKey(), body: '{}' });
    // The upstream is never offered an encoding the reader could not decode.
    expect(up.seen[1]!.headers['accept-encoding']).toBe('gzip');
    await vi.waitFor(() => expect(p.usage()).toEqual({ tokens: 95, answers: 3, refusedAtLimit: 0 }));
    // Told once the answers settled (at most every 250 ms), not per chunk.
    await vi.waitFor(() => expect(told.at(-1)).toEqual(p.usage()));
    expect(told.length).toBeLessThan(3);
  });

  it('refuses every model call once the answers reached the limit, in the fence’s shape, and counts them', async () => {
    const up = await startUpstream(sseAnswer([30, 60]));
    const p = await proxyTo(up.url, { tokenLimit: 100 });
    const ask = () =>
      call(p.url, `${FLASH}:streamGenerateContent?alt=sse`, { headers: withKey(), body: '{}' });
    expect((await ask()).status).toBe(200);
    // 60 of 100: the next call is still served, and it may cross the limit (120 of 100).
    expect((await ask()).status).toBe(200);
    expect(p.usage().tokens).toBe(120);
    const refused = await Promise.all([ask(), ask(), ask()]);
    for (const r of refused) {
      expect(r.status).toBe(400);
      const error = (JSON.parse(r.body.toString()) as { error: { status: string; message: string } }).error;
      expect(error.status).toBe('FAILED_PRECONDITION');
      expect(error.message).toContain(
        "the run's token budget is spent (120 tokens served, the limit is 100)",
      );
    }
    expect(up.seen).toHaveLength(2);
    expect(p.usage()).toEqual({ tokens: 120, answers: 2, refusedAtLimit: 3 });
    // Not a model call: still the 403 of its own, not counted at the limit.
    expect((await call(p.url, '/v1beta/files', { headers: withKey() })).status).toBe(403);
    expect(p.usage().refusedAtLimit).toBe(3);
    expect(p.lines.filter((l) => l.includes('token limit reached'))).toHaveLength(1);
  });

  it('cuts the answers still streaming when another one reaches the limit', async () => {
    const hold: ServerResponse[] = [];
    const up = await startUpstream((q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (q.headers['x-test'] === 'big') {
        res.end(`data: ${JSON.stringify({ usageMetadata: { totalTokenCount: 500 } })}\r\n\r\n`);
        return;
      }
      // A slow answer: one event now, the rest never (until the test ends).
      res.write(`data: ${JSON.stringify({ usageMetadata: { totalTokenCount: 1 } })}\r\n\r\n`);
      hold.push(res);
    });
    const p = await proxyTo(up.url, { tokenLimit: 100 });
    const slow = [1, 2, 3].map(() =>
      call(p.url, `${FLASH}:streamGenerateContent?alt=sse`, { headers: withKey(), body: '{}' }),
    );
    await vi.waitFor(() => expect(hold).toHaveLength(3));
    const big = await call(p.url, `${FLASH}:streamGenerateContent?alt=sse`, {
      headers: withKey({ 'x-test': 'big' }),
      body: '{}',
    });
    expect(big.status).toBe(200);
    expect(big.aborted).toBe(false);
    for (const r of await Promise.all(slow)) {
      expect(r.status).toBe(200);
      expect(r.aborted).toBe(true);
    }
    expect(p.usage().tokens).toBe(503);
  });

  it('forwards only the run’s models: another is refused like a non-model call, and counted', async () => {
    const up = await startUpstream((_q, res) => void res.end(unary(7)));
    const refused: RefusedCall[] = [];
    const p = await proxyTo(up.url, {
      models: ['gemini-2.5-flash', 'gemini-2.5-flash-lite'],
      onRefused: (c) => refused.push(c),
    });
    expect((await call(p.url, `${FLASH}:generateContent`, { headers: withKey(), body: '{}' })).status).toBe(
      200,
    );
    for (const other of ['gemini-2.5-pro', 'gemini-3.1-pro-preview', 'gemini-2.5-flash-image']) {
      const r = await call(p.url, `/v1beta/models/${other}:generateContent`, {
        headers: withKey(),
        body: '{}',
      });
      expect(r.status).toBe(403);
      expect(r.body.toString()).toContain(
        "serves only the run's model and the Gemini CLI's own helper models",
      );
    }
    expect(up.seen).toHaveLength(1);
    expect(p.refusals().count).toBe(3);
    expect(refused[0]).toEqual({ method: 'POST', path: '/v1beta/models/gemini-2.5-pro:generateContent' });
  });

  it('Code Assist: reads the model from the body, forwards it re-serialised, refuses another or none', async () => {
    const up = await startUpstream(
      (_q, res) =>
        void res.end(
          JSON.stringify({ response: { candidates: [], usageMetadata: { totalTokenCount: 11 } } }),
        ),
    );
    const p = await proxyTo(up.url, {
      api: 'code-assist',
      credential: { kind: 'bearer', token: () => Promise.resolve(`ya29.${'t'.repeat(30)}`) },
      models: ['gemini-2.5-flash'],
    });
    const send = (body: string) =>
      call(p.url, '/v1internal:generateContent', {
        headers: { authorization: `Bearer ${PLACEHOLDER}`, 'content-type': 'application/json' },
        body,
      });
    expect((await send('{"model":"gemini-2.5-flash","project":"p","request":{"contents":[]}}')).status).toBe(
      200,
    );
    // A duplicate key: JSON.parse keeps the last, and only that one goes upstream.
    expect((await send('{"model":"gemini-2.5-pro","model":"gemini-2.5-flash","request":{}}')).status).toBe(
      200,
    );
    expect(up.seen[1]!.body.toString()).toBe('{"model":"gemini-2.5-flash","request":{}}');
    expect(up.seen[1]!.headers['content-length']).toBe(String(up.seen[1]!.body.length));
    expect((await send('{"model":"gemini-2.5-flash","model":"gemini-2.5-pro"}')).status).toBe(403);
    expect((await send('{"request":{"model":"models/gemini-2.5-pro"}}')).status).toBe(403);
    expect((await send('{"request":{"contents":[]}}')).status).toBe(403);
    expect((await send('not json')).status).toBe(400);
    expect(up.seen).toHaveLength(2);
    expect(p.refusals().first.map((c) => c.model)).toEqual(['gemini-2.5-pro', 'gemini-2.5-pro', 'none']);
    await vi.waitFor(() => expect(p.usage()).toMatchObject({ tokens: 22, answers: 2 }));
  });
});

describe('model proxy: responses', () => {
  it('streams SSE events as they come: the client has the first before the second is written', async () => {
    let clientHasFirst!: () => void;
    const firstArrived = new Promise<void>((r) => (clientHasFirst = r));
    let secondWaitedForFirst: boolean | undefined;
    const up = await startUpstream(async (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\r\n\r\n');
      // A buffering proxy would hold the first event until the end: stop waiting after a while and say so.
      secondWaitedForFirst = await Promise.race([
        firstArrived.then(() => true),
        sleep(10_000).then(() => false),
      ]);
      res.end('data: {"n":2}\r\n\r\n');
    });
    const proxy = await proxyTo(up.url);
    const r = await call(proxy.url, '/v1beta/models/m:streamGenerateContent?alt=sse', {
      body: '{}',
      headers: withKey(),
      onData: (text) => {
        if (text.includes('"n":1')) clientHasFirst();
      },
    });
    expect(secondWaitedForFirst).toBe(true);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    expect(r.body.toString()).toBe('data: {"n":1}\r\n\r\ndata: {"n":2}\r\n\r\n');
    const first = r.chunks.find((c) => c.text.includes('"n":1'))!;
    const second = r.chunks.find((c) => c.text.includes('"n":2'))!;
    expect(first.text).not.toContain('"n":2');
    expect(second.at).toBeGreaterThan(first.at);
  });

  it.each([
    [429, QUOTA_BODY, 'application/json; charset=UTF-8'],
    [503, OVERLOADED_BODY, 'application/json; charset=UTF-8'],
    [
      500,
      '{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}',
      'application/json',
    ],
  ])('passes a %i through with status, headers and body bytes unchanged', async (code, body, type) => {
    const up = await startUpstream((_q, res) => {
      res.writeHead(code, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
        'x-goog-trace': 'abc',
        vary: 'Origin',
      });
      res.end(body);
    });
    const proxy = await proxyTo(up.url);
    const r = await call(proxy.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
    expect(r.status).toBe(code);
    expect(r.body.equals(Buffer.from(body))).toBe(true);
    expect(r.headers['content-type']).toBe(type);
    expect(r.headers['x-goog-trace']).toBe('abc');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('keeps a compressed error body compressed and byte-identical when it holds no secret', async () => {
    const gz = gzipSync(QUOTA_BODY);
    const up = await startUpstream((_q, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gz);
    });
    const proxy = await proxyTo(up.url);
    const r = await call(proxy.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
    expect(r.status).toBe(429);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.body.equals(gz)).toBe(true);
  });

  it.each([false, true])(
    'takes the real key out of an error body that echoes it (gzip: %s)',
    async (gzip) => {
      const echo = `{"error":{"code":400,"message":"API key ${KEY} not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`;
      const up = await startUpstream((_q, res) => {
        res.writeHead(400, {
          'content-type': 'application/json',
          'x-echo': `key=${KEY}`,
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        });
        res.end(gzip ? gzipSync(echo) : echo);
      });
      const proxy = await proxyTo(up.url);
      const r = await call(proxy.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
      expect(r.status).toBe(400);
      expect(visible(r)).not.toContain(KEY);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.headers['x-echo']).toBeUndefined();
      expect(JSON.parse(r.body.toString())).toEqual({
        error: {
          code: 400,
          message: 'API key *** not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
        },
      });
      expect(proxy.lines.join('\n')).toContain('redacted');
    },
  );

  it('answers 502 in Google shape, quickly, when the upstream is down', async () => {
    const up = await startUpstream();
    await up.close();
    const proxy = await proxyTo(up.url);
    const t0 = performance.now();
    const r = await call(proxy.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.status).toBe(502);
    const err = JSON.parse(r.body.toString()) as { error: Record<string, unknown> };
    expect(err.error.code).toBe(502);
    expect(err.error.status).toBe('UNAVAILABLE');
    expect(err.error.message).toMatch(/^gemini-run model proxy: upstream unreachable: .*ECONNREFUSED/);
  });

  it('answers 502 when the upstream resets before answering, and cuts the stream when it resets mid-body', async () => {
    const up = await startUpstream(async (req, res, s) => {
      if (s.url.includes('early')) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\r\n\r\n');
      await sleep(50);
      req.socket.destroy();
    });
    const proxy = await proxyTo(up.url);
    const early = await call(proxy.url, '/v1beta/models/early:generateContent', {
      body: '{}',
      headers: withKey(),
    });
    expect(early.status).toBe(502);
    expect(JSON.parse(early.body.toString())).toMatchObject({ error: { code: 502, status: 'UNAVAILABLE' } });
    const mid = await call(proxy.url, '/v1beta/models/mid:streamGenerateContent', {
      body: '{}',
      headers: withKey(),
    });
    expect(mid.status).toBe(200);
    expect(mid.body.toString()).toBe('data: {"n":1}\r\n\r\n');
    expect(mid.aborted).toBe(true);
  });

  it.each(['before', 'after'])(
    'aborts the upstream call when the agent disconnects %s the headers',
    async (when) => {
      let upstreamClosed!: () => void;
      const closed = new Promise<void>((r) => (upstreamClosed = r));
      const up = await startUpstream((_q, res) => {
        res.once('close', () => {
          if (!res.writableFinished) upstreamClosed();
        });
        if (when === 'after') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: {}\r\n\r\n');
        }
      });
      const proxy = await proxyTo(up.url);
      const u = new URL(proxy.url);
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: '/v1beta/models/m:streamGenerateContent?alt=sse',
        method: 'POST',
        headers: withKey(),
      });
      req.on('error', () => undefined);
      req.on('response', (res) => res.once('data', () => req.destroy()));
      req.end('{}');
      if (when === 'before') {
        await vi.waitFor(() => expect(up.seen).toHaveLength(1));
        req.destroy();
      }
      const t0 = performance.now();
      await closed;
      expect(performance.now() - t0).toBeLessThan(2000);
    },
  );
});

describe('model proxy: a model API that is not there', () => {
  const model = '/v1beta/models/m:generateContent';

  it('refuses port 0 (which Node would make port 80) in one line, before listening', async () => {
    await expect(proxyTo('http://127.0.0.1:0')).rejects.toThrow(
      /^model proxy: the upstream names port 0 \(127\.0\.0\.1:0\): a port must be 1-65535/,
    );
  });

  it('probes the route the calls take: a closed port and an unknown host are fatal, a listener is not', async () => {
    const up = await startUpstream();
    expect(await probeUpstream(new URL(up.url), {})).toEqual({ ok: true });
    await up.close();
    expect(await probeUpstream(new URL(up.url), {})).toEqual({
      ok: false,
      fatal: true,
      error: 'ECONNREFUSED',
    });
    expect(await probeUpstream(new URL('https://model.gemini-run.invalid'), {})).toEqual({
      ok: false,
      fatal: true,
      error: 'ENOTFOUND',
    });
    // Nothing was asked of the upstream: the probe only connects.
    expect(up.seen).toHaveLength(0);
  });

  it('probes through HTTPS_PROXY: a refused tunnel is fatal and names the proxy', async () => {
    const corp = http.createServer();
    corp.on('connect', (_req: IncomingMessage, client: net.Socket) => {
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
    });
    const port = await new Promise<number>((r) =>
      corp.listen(0, '127.0.0.1', () => r((corp.address() as AddressInfo).port)),
    );
    onTestFinished(() => new Promise<void>((r) => (corp.closeAllConnections(), corp.close(() => r()))));
    const r = await probeUpstream(new URL('https://generativelanguage.googleapis.com'), {
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
    });
    expect(r).toEqual({
      ok: false,
      fatal: true,
      error: `the proxy refused a tunnel (HTTP 403) through the proxy 127.0.0.1:${port}`,
    });
  });

  it('tells of the first failed call, then gives the upstream up after 3 calls without an answer over 10 s', async () => {
    // Accepts every connection, then resets it: no answer at all.
    const resetting = net.createServer((socket) => socket.resetAndDestroy());
    const port = await new Promise<number>((r) =>
      resetting.listen(0, '127.0.0.1', () => r((resetting.address() as AddressInfo).port)),
    );
    onTestFinished(() => new Promise<void>((r) => resetting.close(() => r())));
    const notes: HealthNote[] = [];
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    onTestFinished(() => void vi.useRealTimers());
    const proxy = await proxyTo(`http://127.0.0.1:${port}`, { onHealth: (n) => notes.push(n) });
    for (const at of [0, 6_000, 16_000]) {
      vi.setSystemTime(at);
      const r = await call(proxy.url, model, { body: '{}', headers: withKey() });
      expect(r.status).toBe(502);
    }
    expect(notes.map((n) => n.kind)).toEqual(['first-failure', 'down']);
    expect(notes[0]!.message).toMatch(
      new RegExp(`^the model API at 127.0.0.1:${port} failed a call: no answer \\(`),
    );
    expect(notes[1]!.message).toMatch(
      new RegExp(`^the model API at 127.0.0.1:${port} is unavailable: 3 call\\(s\\) in 16 s failed`),
    );
    expect(notes[1]!.message).toMatch(/ECONNRESET|socket hang up/);
  });

  it('gives a model that answers 503 to every call up after 4 over 30 s; one good answer starts over', async () => {
    let healthy = false;
    const up = await startUpstream((_q, res) => {
      if (healthy) return void res.end('{}');
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(OVERLOADED_BODY);
    });
    const notes: HealthNote[] = [];
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    onTestFinished(() => void vi.useRealTimers());
    const proxy = await proxyTo(up.url, { onHealth: (n) => notes.push(n) });
    const at = async (t: number, expected: number) => {
      vi.setSystemTime(t);
      const r = await call(proxy.url, model, { body: '{}', headers: withKey() });
      expect(r.status).toBe(expected);
      // The CLI's overload detection reads Google's own body: relayed untouched.
      if (expected === 503) expect(r.body.toString()).toBe(OVERLOADED_BODY);
    };
    await at(0, 503);
    await at(5_000, 503);
    healthy = true;
    await at(6_000, 200);
    healthy = false;
    for (const t of [10_000, 15_000, 25_000, 35_000]) await at(t, 503);
    expect(notes.map((n) => n.kind)).toEqual(['first-failure', 'first-failure']);
    await at(40_000, 503);
    expect(notes.map((n) => n.kind)).toEqual(['first-failure', 'first-failure', 'down']);
    expect(notes[2]!.message).toMatch(
      /is unavailable: 5 call\(s\) in 30 s failed .*the last: HTTP 503 \(The model is overloaded\. Please try again later\.\)$/,
    );
  });
});

// Both cases wait real seconds for the proxy's silence bound: they wait at once (each stops its servers through its
// own context: the module's onTestFinished cannot tell concurrent tests apart).
describe.concurrent('model proxy: a model that stops answering', () => {
  const model = '/v1beta/models/m:streamGenerateContent';

  it('gives a call that hears nothing for the silence bound up as down, while the CLI would wait for ever', async ({
    onTestFinished: finished,
  }) => {
    // Takes the request, never answers (the fake's `hang`, a dead backend behind a load balancer).
    const up = await startUpstream(() => undefined, finished);
    const notes: { note: HealthNote; at: number }[] = [];
    const proxy = await proxyTo(
      up.url,
      { silenceMs: 1500, onHealth: (note) => notes.push({ note, at: performance.now() }) },
      finished,
    );
    const sent = performance.now();
    const pending = call(proxy.url, model, { body: '{}', headers: withKey() }).catch(() => undefined);
    await vi.waitFor(() => expect(notes).toHaveLength(1), { timeout: 5000, interval: 50 });
    expect(notes[0]!.note.kind).toBe('down');
    expect(notes[0]!.note.message).toMatch(
      new RegExp(
        `^the model API at 127\\.0\\.0\\.1:\\d+ stopped answering: a call has heard nothing for [12] s$`,
      ),
    );
    // Not before the bound; and the 1 s check tick adds at most a second.
    expect(notes[0]!.at - sent).toBeGreaterThanOrEqual(1400);
    await proxy.close();
    await pending;
  });

  it('leaves a slow stream alone: each chunk is heard, whatever the call lasts', async ({
    onTestFinished: finished,
  }) => {
    const up = await startUpstream(async (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 6; i++) {
        res.write(`data: {"i":${i}}\n\n`);
        await new Promise((r) => setTimeout(r, 500));
      }
      res.end();
    }, finished);
    const notes: HealthNote[] = [];
    const proxy = await proxyTo(up.url, { silenceMs: 1200, onHealth: (n) => notes.push(n) }, finished);
    const r = await call(proxy.url, model, { body: '{}', headers: withKey() });
    expect(r.status).toBe(200);
    expect(r.body.toString()).toContain('"i":5');
    // The whole call took ~3 s, longer than the bound, and was never silent for it.
    await new Promise((res) => setTimeout(res, 1500));
    expect(notes).toEqual([]);
  });
});

describe('model proxy: routing through an enterprise proxy', () => {
  it('reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY like @actions/http-client', () => {
    const env = {
      HTTPS_PROXY: 'http://corp:3128',
      HTTP_PROXY: 'corp2:8080',
      NO_PROXY: '.internal, svc:8443',
    };
    const g = new URL('https://generativelanguage.googleapis.com');
    expect(proxyFor(g, env)?.href).toBe('http://corp:3128/');
    expect(proxyFor(new URL('http://model.example'), env)?.href).toBe('http://corp2:8080/');
    expect(proxyFor(g, { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' })?.host).toBe(
      'lower:1',
    );
    expect(proxyFor(g, {})).toBeUndefined();
    expect(proxyFor(new URL('http://127.0.0.1:9'), env)).toBeUndefined();
    expect(bypassesProxy(new URL('https://a.b.internal'), '.internal')).toBe(true);
    expect(bypassesProxy(new URL('https://internal'), '*.internal')).toBe(true);
    expect(bypassesProxy(new URL('https://svc:8443'), 'svc:8443')).toBe(true);
    expect(bypassesProxy(new URL('https://svc'), 'svc:8443')).toBe(false);
    expect(bypassesProxy(new URL('https://notinternal'), 'internal')).toBe(false);
    expect(bypassesProxy(g, '*')).toBe(true);
    expect(bypassesProxy(new URL('http://[::1]:9'), '')).toBe(true);
  });

  it('sends a plain-http upstream call through HTTP_PROXY in absolute form', async () => {
    const up = await startUpstream();
    const viaProxy: Seen[] = [];
    const forward = http.createServer((req, res) => {
      viaProxy.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.alloc(0) });
      const target = new URL(req.url!);
      const out = http.request(
        {
          host: '127.0.0.1',
          port: up.port,
          path: target.pathname + target.search,
          method: req.method,
          headers: req.headers,
        },
        (r) => {
          res.writeHead(r.statusCode!, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(out);
    });
    await new Promise<void>((r) => forward.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => (forward.closeAllConnections(), forward.close(() => r()))));
    vi.stubEnv('HTTP_PROXY', `http://user:p%40ss@127.0.0.1:${(forward.address() as AddressInfo).port}`);
    vi.stubEnv('NO_PROXY', '');
    const proxy = await proxyTo('http://model.example.test/base');
    const r = await call(proxy.url, '/v1beta/models/m:streamGenerateContent?alt=sse', {
      body: '{}',
      headers: withKey(),
    });
    expect(r.status).toBe(200);
    expect(viaProxy[0]!.url).toBe(
      'http://model.example.test/base/v1beta/models/m:streamGenerateContent?alt=sse',
    );
    expect(viaProxy[0]!.headers.host).toBe('model.example.test');
    expect(viaProxy[0]!.headers['proxy-authorization']).toBe(
      `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
    );
    expect(up.seen[0]!.headers['x-goog-api-key']).toBe(KEY);
  });
  it('answers 502 when the enterprise proxy refuses the tunnel', async () => {
    const corp = http.createServer();
    corp.on('connect', (_req: IncomingMessage, client: net.Socket) => {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n');
    });
    await new Promise<void>((r) => corp.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => (corp.closeAllConnections(), corp.close(() => r()))));
    vi.stubEnv('HTTPS_PROXY', `http://127.0.0.1:${(corp.address() as AddressInfo).port}`);
    vi.stubEnv('NO_PROXY', '');
    const proxy = await proxyTo('https://generativelanguage.googleapis.com');
    const r = await call(proxy.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
    expect(r.status).toBe(502);
    expect(JSON.parse(r.body.toString())).toMatchObject({
      error: {
        message: expect.stringMatching(
          /refused a tunnel to generativelanguage.googleapis.com:443 \(HTTP 407\)/,
        ),
      },
    });
  });
});

describe('model proxy: as its own process', () => {
  afterAll(() => {
    try {
      rmSync(testCertificates().dir, { recursive: true, force: true });
    } catch {
      // never generated
    }
  });

  it('falls back to the in-process proxy when there is no bundle next to the code', async () => {
    const up = await startUpstream();
    const p = await launchModelProxy({
      upstream: up.url,
      api: 'gemini-api',
      placeholder: PLACEHOLDER,
      credential: { kind: 'api-key', apiKey: KEY },
    });
    onTestFinished(() => p.stop());
    expect(p.pid).toBeUndefined();
    const r = await call(p.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
    expect(r.status).toBe(200);
  });

  it('refuses a bundle without its proxy entry, rather than keep the credential in this process', async () => {
    const up = await startUpstream();
    const script = join(tmpdir(), `gemini-run-no-such-proxy-${process.pid}`, 'proxy.js');
    await expect(
      launchModelProxy({
        upstream: up.url,
        api: 'gemini-api',
        placeholder: PLACEHOLDER,
        credential: { kind: 'api-key', apiKey: KEY },
        script,
      }),
    ).rejects.toThrow(`the model proxy's entry ${script} is missing: rebuild dist/`);
  });

  it('runs main.ts as a child whose cmdline and environ hold no secret, and stop() ends it', async () => {
    const up = await startUpstream();
    vi.stubEnv('GEMINI_API_KEY', KEY);
    vi.stubEnv('GITHUB_TOKEN', 'ghs_secret');
    const lines: string[] = [];
    const p = await launchModelProxy({
      upstream: up.url,
      api: 'gemini-api',
      placeholder: PLACEHOLDER,
      credential: { kind: 'api-key', apiKey: KEY },
      script: MAIN_TS,
      execArgv: TSX,
      log: (l) => lines.push(l),
    });
    onTestFinished(() => p.stop());
    expect(p.pid).toBeGreaterThan(0);
    const cmdline = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8');
    const environ = readFileSync(`/proc/${p.pid}/environ`, 'utf8');
    expect(cmdline).toContain('main.ts');
    for (const secret of [KEY, PLACEHOLDER, 'ghs_secret']) {
      expect(cmdline).not.toContain(secret);
      expect(environ).not.toContain(secret);
    }
    const names = environ
      .split('\0')
      .filter(Boolean)
      .map((kv) => kv.split('=')[0]);
    expect(names).toContain('PATH');
    for (const name of names) expect(PROXY_CHILD_ENV).toContain(name);
    const r = await call(p.url, '/v1beta/models/m:generateContent?key=' + PLACEHOLDER, { body: '{}' });
    expect(r.status).toBe(200);
    expect(up.seen[0]!.headers['x-goog-api-key']).toBe(KEY);
    expect(up.seen[0]!.url).toBe('/v1beta/models/m:generateContent');
    await vi.waitFor(() =>
      expect(lines.join('\n')).toMatch(/POST \/v1beta\/models\/m:generateContent -> 200/),
    );
    // the fence travels as a stdin line: from then on nothing reaches the upstream
    p.fence();
    await vi.waitFor(async () => {
      const fenced = await call(p.url, '/v1beta/models/m:generateContent?key=' + PLACEHOLDER, { body: '{}' });
      expect(fenced.status).toBe(400);
      expect(fenced.body.toString()).toContain('FAILED_PRECONDITION');
    });
    expect(up.seen).toHaveLength(1);
    // a non-model call is refused by the child and reported to us as a stdout line
    expect(p.refusals()).toEqual({ count: 0, first: [] });
    const refused = await call(p.url, '/v1beta/files?key=' + PLACEHOLDER, {});
    expect(refused.status).toBe(403);
    expect(
      (await call(p.url, '/v1beta/cachedContents/c1', { method: 'DELETE', headers: withKey() })).status,
    ).toBe(403);
    await vi.waitFor(() => expect(p.refusals().count).toBe(2));
    expect(p.refusals().first).toEqual([
      { method: 'GET', path: '/v1beta/files' },
      { method: 'DELETE', path: '/v1beta/cachedContents/c1' },
    ]);
    expect(up.seen).toHaveLength(1);
    await p.stop();
    expect(() => process.kill(p.pid!, 0)).toThrow();
  });

  it('tunnels an https upstream through HTTPS_PROXY with CONNECT, trusting NODE_EXTRA_CA_CERTS', async () => {
    const certs = testCertificates();
    const seen: Seen[] = [];
    const tlsServer = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.alloc(0) });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {}\r\n\r\n');
    });
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    const connects: string[] = [];
    const corp = http.createServer();
    corp.on('connect', (req: IncomingMessage, client: net.Socket, head: Buffer) => {
      connects.push(req.url!);
      const upstream = net.connect((tlsServer.address() as AddressInfo).port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => corp.listen(0, '127.0.0.1', r));
    onTestFinished(
      () => new Promise<void>((r) => (tlsServer.closeAllConnections(), tlsServer.close(() => r()))),
    );
    onTestFinished(() => new Promise<void>((r) => (corp.closeAllConnections(), corp.close(() => r()))));
    vi.stubEnv('HTTPS_PROXY', `http://127.0.0.1:${(corp.address() as AddressInfo).port}`);
    vi.stubEnv('NO_PROXY', 'localhost');
    vi.stubEnv('NODE_EXTRA_CA_CERTS', certs.caFile);
    const p = await launchModelProxy({
      upstream: 'https://www.googleapis.com/prefix',
      api: 'gemini-api',
      placeholder: PLACEHOLDER,
      credential: { kind: 'api-key', apiKey: KEY },
      script: MAIN_TS,
      execArgv: TSX,
    });
    onTestFinished(() => p.stop());
    for (let i = 0; i < 2; i++) {
      const r = await call(p.url, '/v1beta/models/m:streamGenerateContent?alt=sse', {
        body: '{}',
        headers: withKey(),
      });
      expect(r.status).toBe(200);
      expect(r.body.toString()).toBe('data: {}\r\n\r\n');
    }
    expect(seen.map((s) => s.url)).toEqual(
      Array(2).fill('/prefix/v1beta/models/m:streamGenerateContent?alt=sse'),
    );
    expect(seen[0]!.headers['x-goog-api-key']).toBe(KEY);
    expect(seen[0]!.headers.host).toBe('www.googleapis.com');
    // One tunnel for both calls: the TLS session inside it is kept alive like a direct socket.
    expect(connects).toEqual(['www.googleapis.com:443']);
  });

  /** Runs main.ts directly, to see the protocol itself: exit codes, stderr, update lines. */
  function runMain() {
    const child = spawn(process.execPath, [...TSX, MAIN_TS], { env: { PATH: process.env.PATH } });
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    return { child, exited, out: () => stdout, err: () => stderr };
  }

  it('tells the action of the upstream’s health in lines of its own', async () => {
    const up = await startUpstream();
    await up.close();
    const notes: HealthNote[] = [];
    const p = await launchModelProxy({
      upstream: up.url,
      api: 'gemini-api',
      placeholder: PLACEHOLDER,
      credential: { kind: 'api-key', apiKey: KEY },
      script: MAIN_TS,
      execArgv: TSX,
      onHealth: (n) => notes.push(n),
    });
    onTestFinished(() => p.stop());
    const r = await call(p.url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
    expect(r.status).toBe(502);
    await vi.waitFor(() => expect(notes).toHaveLength(1));
    expect(notes[0]).toEqual({
      kind: 'first-failure',
      message: `the model API at 127.0.0.1:${up.port} failed a call: no answer (connect ECONNREFUSED 127.0.0.1:${up.port})`,
    });
  });

  it('takes the models and the token limit in its config, and tells the action its count in lines', async () => {
    const up = await startUpstream((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ usageMetadata: { totalTokenCount: 80 } })}\r\n\r\n`);
    });
    const told: ServedTokens[] = [];
    const p = await launchModelProxy({
      upstream: up.url,
      api: 'gemini-api',
      placeholder: PLACEHOLDER,
      credential: { kind: 'api-key', apiKey: KEY },
      script: MAIN_TS,
      execArgv: TSX,
      models: ['gemini-2.5-flash'],
      tokenLimit: 100,
      onUsage: (u) => told.push(u),
    });
    onTestFinished(() => p.stop());
    const ask = (model: string) =>
      call(p.url, `/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
        body: '{}',
        headers: withKey(),
      });
    expect((await ask('gemini-2.5-pro')).status).toBe(403);
    expect((await ask('gemini-2.5-flash')).status).toBe(200);
    expect((await ask('gemini-2.5-flash')).status).toBe(200);
    expect((await ask('gemini-2.5-flash')).status).toBe(400);
    await p.stop();
    // Final once stopped: every line the child wrote was read.
    expect(p.usage()).toEqual({ tokens: 160, answers: 2, refusedAtLimit: 1 });
    expect(told.at(-1)).toEqual(p.usage());
    expect(p.refusals().count).toBe(1);
  });

  it('exits 2 with one line naming the problem, never the secret, on a bad config line', async () => {
    for (const line of [
      `{"upstream":"ftp://x","placeholder":"${PLACEHOLDER}","credential":{"kind":"api-key","apiKey":"${KEY}"}}`,
      `{"upstream":"http://x","placeholder":"${PLACEHOLDER}","credential":{"kind":"api-key","apiKey":"${KEY}"`,
      `{"upstream":"http://x","placeholder":"short","credential":{"kind":"oauth","apiKey":"${KEY}"}}`,
    ]) {
      const m = runMain();
      m.child.stdin.end(`${line}\n`);
      expect(await m.exited).toBe(2);
      expect(m.out()).toBe('');
      expect(m.err().trim().split('\n')).toHaveLength(1);
      expect(m.err()).toMatch(/^model proxy config/);
      expect(m.err()).not.toContain(KEY);
    }
  });

  it('takes refreshed bearer tokens as stdin lines and exits 0 when stdin ends', async () => {
    const up = await startUpstream();
    const m = runMain();
    const [a, b] = [`ya29.a-${randomBytes(12).toString('hex')}`, `ya29.b-${randomBytes(12).toString('hex')}`];
    m.child.stdin.write(
      `${JSON.stringify({ upstream: up.url, api: 'gemini-api', placeholder: PLACEHOLDER, credential: { kind: 'bearer', token: a } })}\n`,
    );
    await vi.waitFor(() => expect(m.out()).toMatch(/\n$/), { timeout: 10_000 });
    const { url } = JSON.parse(m.out()) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await call(url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
    m.child.stdin.write(`${JSON.stringify({ token: b })}\n`);
    await vi.waitFor(async () => {
      await call(url, '/v1beta/models/m:generateContent', { body: '{}', headers: withKey() });
      expect(up.seen.at(-1)!.headers.authorization).toBe(`Bearer ${b}`);
    });
    expect(up.seen[0]!.headers.authorization).toBe(`Bearer ${a}`);
    m.child.stdin.end();
    expect(await m.exited).toBe(0);
    expect(m.err()).not.toMatch(new RegExp(`${a}|${b}`));
  });

  it('exits 0 on SIGTERM with stdin still open', async () => {
    const m = runMain();
    m.child.stdin.write(
      `${JSON.stringify({ upstream: 'http://127.0.0.1:1', api: 'gemini-api', placeholder: PLACEHOLDER, credential: { kind: 'api-key', apiKey: KEY } })}\n`,
    );
    await vi.waitFor(() => expect(m.out()).toMatch(/\n$/), { timeout: 10_000 });
    m.child.kill('SIGTERM');
    expect(await m.exited).toBe(0);
  });
});
