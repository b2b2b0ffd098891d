/**
 * The table from auth kind to what the model proxy needs: each kind's proxy (in this process, since no bundle is
 * next to src/) takes the agent's placeholder and presents the real credential to that kind's upstream.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AuthConfig } from '../../src/domain/types.js';
import { startModelAccess } from '../../src/host/model-access.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { listenForTest } from '../harness/listen.js';

async function upstream(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"totalTokens":1}');
    });
  });
  return { url: await listenForTest(server), seen };
}

function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

const ACCESS = 'ya29.access-real';
const creds = { access_token: ACCESS, refresh_token: '1//refresh', expiry_date: Date.now() + 3600_000 };

const kinds: {
  name: string;
  auth: AuthConfig;
  env: (upstream: string) => NodeJS.ProcessEnv;
  path: string;
  carry: (placeholder: string) => Record<string, string>;
  real: [header: string, value: string];
  api: string;
  metadata: boolean;
  told: RegExp;
}[] = [
  {
    name: 'API key',
    auth: { kind: 'api-key', apiKey: 'AIza-gemini-real' },
    env: (u) => ({ GOOGLE_GEMINI_BASE_URL: u }),
    path: '/v1beta/models/m:countTokens',
    carry: (p) => ({ 'x-goog-api-key': p }),
    real: ['x-goog-api-key', 'AIza-gemini-real'],
    api: 'gemini-api',
    metadata: false,
    told: /^The API key stays in the model proxy/,
  },
  {
    name: 'OAuth',
    auth: { kind: 'oauth', creds },
    env: (u) => ({ CODE_ASSIST_ENDPOINT: u }),
    path: '/v1internal:countTokens',
    carry: (p) => ({ authorization: `Bearer ${p}` }),
    real: ['authorization', `Bearer ${ACCESS}`],
    api: 'code-assist',
    metadata: false,
    told: /^The OAuth tokens stay in the model proxy/,
  },
  {
    name: 'Vertex AI on an access token',
    auth: { kind: 'vertex-ai', project: 'my-proj', location: 'us-central1' },
    env: (u) => ({ GOOGLE_VERTEX_BASE_URL: u }),
    path: '/v1beta1/projects/my-proj/locations/us-central1/publishers/google/models/m:countTokens',
    carry: (p) => ({ authorization: `Bearer ${p}` }),
    real: ['authorization', `Bearer ${ACCESS}`],
    api: 'vertex',
    metadata: true,
    told: /^The Vertex AI credentials stay with the action and its model proxy/,
  },
  {
    name: "Vertex AI's express mode",
    auth: { kind: 'vertex-ai', project: 'my-proj' },
    env: (u) => ({ GOOGLE_VERTEX_BASE_URL: u, GOOGLE_API_KEY: 'AIza-vertex-real' }),
    path: '/v1beta1/publishers/google/models/m:countTokens',
    carry: (p) => ({ 'x-goog-api-key': p }),
    real: ['x-goog-api-key', 'AIza-vertex-real'],
    api: 'vertex',
    metadata: false,
    told: /^The Vertex AI API key stays in the model proxy/,
  },
];

describe('startModelAccess, one path over the auth-kind table', () => {
  it.each(kinds)('$name: the proxy holds the credential', async (k) => {
    const up = await upstream();
    const log = createMemoryLogger();
    const masked: string[] = [];
    const access = await startModelAccess({
      auth: k.auth,
      vertex: { token: () => Promise.resolve(ACCESS) },
      agentUid: 4242,
      env: k.env(up.url),
      log,
      mask: (s) => masked.push(s),
    });
    onTestFinished(() => access.stop());
    const ep = access.endpoint!;
    expect(ep.kind).toBe(k.api);
    expect(ep.metadataHost !== undefined).toBe(k.metadata);
    expect(log.lines.find((l) => k.told.test(l))).toContain(ep.baseUrl);
    expect(await post(`${ep.baseUrl}${k.path}`, k.carry(ep.placeholder))).toBe(200);
    expect(up.seen).toHaveLength(1);
    expect(up.seen[0]![k.real[0]]).toBe(k.real[1]);
    expect(masked).toContain(k.real[1].replace('Bearer ', ''));
    expect(access.oauthCreds?.()).toEqual(k.auth.kind === 'oauth' ? k.auth.creds : undefined);
    await access.stop();
  });
});
