/**
 * Vertex AI behind the model proxy: the metadata server stand-in (answers, header rules, the agent-uid check),
 * the agent's environment (no credential of any kind), and the action-side token minting through the real
 * google-auth-library against local token endpoints.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { prepareVertex, startModelAccess, vertexUpstream } from '../../src/host/model-access.js';
import { homeAt } from '../../src/gemini/home.js';
import { buildEnv } from '../../src/gemini/spawn.js';
import { proxyConfigSchema } from '../../src/proxy/config.js';
import { launchModelProxy } from '../../src/proxy/launch.js';
import { loopbackPeerUid, metadataAnswer, peerUidIn } from '../../src/proxy/metadata.js';
import { startModelProxy } from '../../src/proxy/model-proxy.js';
import { VertexTokenSource } from '../../src/proxy/vertex-token.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { listenForTest } from '../harness/listen.js';

const PLACEHOLDER = `gemini-run-${randomBytes(16).toString('hex')}`;
const REAL = `ya29.real-${randomBytes(12).toString('hex')}`;
const FLAVOR = { 'metadata-flavor': 'Google' };
const TOKEN_PATH = '/computeMetadata/v1/instance/service-accounts/default/token';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server that records every request and answers with `answer`. */
async function recorder(
  answer: (s: Seen) => { status?: number; body: unknown } = () => ({ body: { ok: true } }),
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      const a = answer(s);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
      res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
    });
  });
  return { url: await listenForTest(server), seen };
}

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

describe('metadataAnswer', () => {
  const o = { placeholder: PLACEHOLDER, projectId: 'my-proj' };
  const ask = (pathname: string, headers: IncomingHttpHeaders = FLAVOR, method = 'GET') =>
    metadataAnswer({ method, pathname, headers }, o);

  it('hands out the placeholder as the token, in the shape google-auth-library reads', () => {
    const a = ask(TOKEN_PATH);
    expect(a.status).toBe(200);
    expect(a.headers['metadata-flavor']).toBe('Google');
    expect(JSON.parse(a.body)).toEqual({ access_token: PLACEHOLDER, expires_in: 3599, token_type: 'Bearer' });
  });
  it('answers the availability ping, the project id and the universe; 404 for anything else', () => {
    expect(ask('/computeMetadata/v1/instance').status).toBe(200);
    expect(ask('/computeMetadata/v1/instance/').status).toBe(200);
    expect(ask('/computeMetadata/v1/project/project-id').body).toBe('my-proj');
    expect(ask('/computeMetadata/v1/universe/universe-domain').body).toBe('googleapis.com');
    const other = ask('/computeMetadata/v1/instance/service-accounts/default/identity');
    expect(other.status).toBe(404);
    expect(other.headers['metadata-flavor']).toBe('Google');
    expect(
      metadataAnswer(
        { method: 'GET', pathname: '/computeMetadata/v1/project/project-id', headers: FLAVOR },
        { placeholder: PLACEHOLDER },
      ).status,
    ).toBe(404);
  });
  it('refuses without Metadata-Flavor: Google, forwarded requests and anything but GET', () => {
    expect(ask(TOKEN_PATH, {}).status).toBe(403);
    expect(ask(TOKEN_PATH, { 'metadata-flavor': 'google ' }).status).toBe(403);
    expect(ask(TOKEN_PATH, { ...FLAVOR, 'x-forwarded-for': '10.0.0.1' }).status).toBe(403);
    expect(ask(TOKEN_PATH, FLAVOR, 'POST').status).toBe(405);
    for (const a of [ask(TOKEN_PATH, {}), ask(TOKEN_PATH, FLAVOR, 'POST')]) {
      expect(a.body).not.toContain(PLACEHOLDER);
    }
  });
});

describe('the peer uid of a loopback connection', () => {
  it('reads the client end of the connection from a /proc/net/tcp table', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:A411 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1',
      '   1: 0100007F:A411 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2 1',
      '   2: 0100007F:C350 0100007F:A411 01 00000000:00000000 00:00000000 00000000  1001        0 3 1',
    ].join('\n');
    // Client 127.0.0.1:50000 (C350) -> server :42001 (A411): the client line is the uid-1001 one.
    expect(peerUidIn(table, 50000, 42001)).toBe(1001);
    expect(peerUidIn(table, 50001, 42001)).toBeUndefined();
  });
  it.skipIf(process.platform !== 'linux')('finds our own uid for a real connection', async () => {
    let found: number | undefined;
    const server = http.createServer((req, res) => {
      void loopbackPeerUid(req.socket).then((uid) => {
        found = uid;
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
    await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(found).toBe(process.getuid?.());
  });
  it('is undefined when the table cannot be read', async () => {
    expect(await loopbackPeerUid({ remotePort: 1, localPort: 2 }, '/nonexistent/tcp')).toBeUndefined();
  });
});

describe('the model proxy with the metadata stand-in', () => {
  async function proxy(metadata: { uids?: number[]; projectId?: string } | undefined) {
    const upstream = await recorder();
    const p = await startModelProxy({
      upstream: upstream.url,
      api: 'vertex',
      placeholder: PLACEHOLDER,
      credential: { kind: 'bearer', token: () => Promise.resolve(REAL) },
      ...(metadata ? { metadata } : {}),
    });
    onTestFinished(() => p.close());
    return { url: p.url, upstream };
  }

  it('serves the placeholder token; metadata paths never reach the upstream', async () => {
    const { url, upstream } = await proxy({ projectId: 'my-proj' });
    const ping = await get(`${url}/computeMetadata/v1/instance`, FLAVOR);
    expect(ping.status).toBe(200);
    expect(ping.headers['metadata-flavor']).toBe('Google');
    const token = await get(`${url}${TOKEN_PATH}?scopes=x`, FLAVOR);
    expect(JSON.parse(token.body).access_token).toBe(PLACEHOLDER);
    expect(token.body).not.toContain(REAL);
    expect((await get(`${url}${TOKEN_PATH}`)).status).toBe(403);
    expect(upstream.seen).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')(
    'answers only the allowed uid: ours passes, another uid is refused',
    async () => {
      const me = process.getuid!();
      const ok = await proxy({ uids: [me] });
      expect((await get(`${ok.url}${TOKEN_PATH}`, FLAVOR)).status).toBe(200);
      const other = await proxy({ uids: [me + 4242] });
      const refused = await get(`${other.url}${TOKEN_PATH}`, FLAVOR);
      expect(refused.status).toBe(403);
      expect(refused.body).not.toContain(PLACEHOLDER);
    },
  );

  it('the model call swaps the placeholder bearer for the real token', async () => {
    const { url, upstream } = await proxy({});
    const path = '/v1beta1/projects/p/locations/l/publishers/google/models/m:generateContent';
    const res = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${url}${path}`,
        { method: 'POST', headers: { authorization: `Bearer ${PLACEHOLDER}` }, agent: false },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode!));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(res).toBe(200);
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]!.url).toBe(path);
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${REAL}`);
    expect(JSON.stringify(upstream.seen[0])).not.toContain(PLACEHOLDER);
  });

  it('without the option, /computeMetadata/ is an ordinary path that needs the placeholder', async () => {
    const { url, upstream } = await proxy(undefined);
    expect((await get(`${url}${TOKEN_PATH}`, FLAVOR)).status).toBe(401);
    expect(upstream.seen).toEqual([]);
  });

  it('the proxy process serves it too (config line carries the metadata options)', async () => {
    expect(
      proxyConfigSchema.safeParse({
        upstream: 'https://aiplatform.googleapis.com',
        api: 'vertex',
        placeholder: PLACEHOLDER,
        credential: { kind: 'bearer', token: REAL },
        metadata: { projectId: 'p', uids: [1001] },
      }).success,
    ).toBe(true);
    const upstream = await recorder();
    const p = await launchModelProxy({
      upstream: upstream.url,
      api: 'vertex',
      placeholder: PLACEHOLDER,
      credential: { kind: 'bearer', token: () => Promise.resolve(REAL) },
      metadata: { uids: [process.getuid?.() ?? 0] },
      script: 'src/proxy/main.ts',
      execArgv: ['--import', 'tsx'],
    });
    onTestFinished(() => p.stop());
    expect(p.pid).toBeGreaterThan(0);
    const token = await get(`${p.url}${TOKEN_PATH}`, FLAVOR);
    expect(JSON.parse(token.body).access_token).toBe(PLACEHOLDER);
  });
});

describe('the agent environment for Vertex AI behind the proxy', () => {
  const source: NodeJS.ProcessEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/runner',
    GOOGLE_APPLICATION_CREDENTIALS: '/home/runner/work/_temp/gha-creds-abc.json',
    GOOGLE_GHA_CREDS_PATH: '/home/runner/work/_temp/gha-creds-abc.json',
    CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: '/home/runner/work/_temp/gha-creds-abc.json',
    CLOUDSDK_CORE_PROJECT: 'my-proj',
    GOOGLE_CLOUD_PROJECT: 'my-proj',
    GCLOUD_PROJECT: 'my-proj',
    GCP_PROJECT: 'my-proj',
    GOOGLE_CLOUD_LOCATION: 'us-central1',
    GCE_METADATA_IP: '169.254.169.254',
    GOOGLE_VERTEX_BASE_URL: 'https://psc.example.internal',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'SECRET-OIDC-REQUEST',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/oidc',
    HTTPS_PROXY: 'http://corp-proxy:3128',
  };
  const base = {
    home: homeAt('/runs/1/home'),
    telemetryFile: '/runs/1/telemetry.json',
    tmpDir: '/runs/1/tmp',
    sourceEnv: source,
  };
  const auth = { kind: 'vertex-ai', project: 'my-proj', location: 'us-central1' } as const;

  it('access token: the metadata host and the proxy, project and location, no credential of any kind', () => {
    const env = buildEnv({
      ...base,
      auth,
      modelEndpoint: {
        kind: 'vertex',
        baseUrl: 'http://127.0.0.1:40001',
        placeholder: PLACEHOLDER,
        metadataHost: '127.0.0.1:40001',
      },
    });
    expect(env).toMatchObject({
      GOOGLE_GENAI_USE_VERTEXAI: 'true',
      GOOGLE_CLOUD_PROJECT: 'my-proj',
      GOOGLE_CLOUD_LOCATION: 'us-central1',
      GOOGLE_VERTEX_BASE_URL: 'http://127.0.0.1:40001',
      GCE_METADATA_HOST: '127.0.0.1:40001',
    });
    for (const name of [
      'GOOGLE_APPLICATION_CREDENTIALS',
      'GOOGLE_GHA_CREDS_PATH',
      'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
      'CLOUDSDK_CORE_PROJECT',
      'GOOGLE_API_KEY',
      'GCE_METADATA_IP',
      'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
      'ACTIONS_ID_TOKEN_REQUEST_URL',
    ]) {
      expect(env[name], name).toBeUndefined();
    }
    expect(Object.values(env).join('\n')).not.toContain('gha-creds');
    // The placeholder is not in the environment at all: gemini gets it from the metadata stand-in.
    expect(Object.values(env).join('\n')).not.toContain(PLACEHOLDER);
    expect(env.NO_PROXY?.split(',')).toEqual(expect.arrayContaining(['127.0.0.1', 'localhost']));
  });

  it('express mode: the placeholder is the API key', () => {
    const env = buildEnv({
      ...base,
      auth,
      modelEndpoint: { kind: 'vertex', baseUrl: 'http://127.0.0.1:40001', placeholder: PLACEHOLDER },
    });
    expect(env.GOOGLE_API_KEY).toBe(PLACEHOLDER);
    expect(env.GCE_METADATA_HOST).toBeUndefined();
    expect(env.GOOGLE_APPLICATION_CREDENTIALS).toBeUndefined();
  });

  it('without a proxy (the CLI) Vertex AI still reads the environment credentials as before', () => {
    const env = buildEnv({ ...base, auth });
    expect(env.GOOGLE_APPLICATION_CREDENTIALS).toBe(source.GOOGLE_APPLICATION_CREDENTIALS);
    expect(env.GCE_METADATA_HOST).toBeUndefined();
  });

  it('the upstream is the regional endpoint gemini would use, or the configured base URL', () => {
    expect(vertexUpstream({}, 'us-central1')).toBe('https://us-central1-aiplatform.googleapis.com');
    expect(vertexUpstream({}, 'global')).toBe('https://aiplatform.googleapis.com');
    expect(vertexUpstream({}, undefined)).toBe('https://aiplatform.googleapis.com');
    expect(vertexUpstream({ GOOGLE_VERTEX_BASE_URL: 'https://psc.example' }, 'us-central1')).toBe(
      'https://psc.example',
    );
  });
});

describe('minting the Vertex AI token in the action (real google-auth-library, local endpoints)', () => {
  /**
   * What google-github-actions/auth writes for Workload Identity Federation: an external_account config whose
   * subject token comes from the GitHub OIDC URL; here every endpoint is local.
   */
  async function wifConfig(o: { impersonate: boolean }) {
    const oidc = await recorder(() => ({ body: { value: 'github-oidc-jwt' } }));
    const sts = await recorder(() => ({
      body: {
        access_token: o.impersonate ? 'ya29.federated' : REAL,
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        token_type: 'Bearer',
        expires_in: 3599,
      },
    }));
    const iam = await recorder(() => ({
      body: { accessToken: REAL, expireTime: new Date(Date.now() + 3600_000).toISOString() },
    }));
    const dir = await mkdtemp(join(tmpdir(), 'vertex-wif-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'gha-creds-test.json');
    await writeFile(
      file,
      JSON.stringify({
        type: 'external_account',
        audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/gh',
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        token_url: `${sts.url}/v1/token`,
        credential_source: {
          url: `${oidc.url}/oidc?audience=x`,
          headers: { Authorization: 'Bearer request-token' },
          format: { type: 'json', subject_token_field_name: 'value' },
        },
        ...(o.impersonate
          ? {
              service_account_impersonation_url: `${iam.url}/v1/projects/-/serviceAccounts/sa@p.iam.gserviceaccount.com:generateAccessToken`,
            }
          : {}),
      }),
      { mode: 0o600 },
    );
    return { file, oidc, sts, iam };
  }

  it('Workload Identity Federation: OIDC token -> STS -> access token', async () => {
    const { file, oidc, sts } = await wifConfig({ impersonate: false });
    const source = new VertexTokenSource({ GOOGLE_APPLICATION_CREDENTIALS: file });
    expect(await source.token()).toBe(REAL);
    expect(oidc.seen[0]!.headers.authorization).toBe('Bearer request-token');
    expect(sts.seen[0]!.body).toContain('subject_token=github-oidc-jwt');
    // Cached: a second call mints nothing.
    expect(await source.token()).toBe(REAL);
    expect(sts.seen).toHaveLength(1);
  });

  it('Workload Identity Federation with service-account impersonation', async () => {
    const { file, iam } = await wifConfig({ impersonate: true });
    expect(await new VertexTokenSource({ GOOGLE_APPLICATION_CREDENTIALS: file }).token()).toBe(REAL);
    expect(iam.seen[0]!.headers.authorization).toBe('Bearer ya29.federated');
  });

  it('a refused exchange ends the run before anything starts, with the reason', async () => {
    const { file } = await wifConfig({ impersonate: false });
    const refused = await recorder(() => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The audience does not match' },
    }));
    const config = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...config, token_url: `${refused.url}/v1/token` }));
    await expect(
      prepareVertex({ kind: 'vertex-ai', project: 'p' }, { GOOGLE_APPLICATION_CREDENTIALS: file }),
    ).rejects.toThrow(
      /Vertex AI: could not get an access token from GOOGLE_APPLICATION_CREDENTIALS.*invalid_grant/,
    );
  });

  it('a service-account key (openssl-generated) is read and signed; the token request is its JWT bearer grant', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vertex-sa-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const pem = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', pem],
      {
        stdio: 'ignore',
      },
    );
    const { readFile } = await import('node:fs/promises');
    const keyFile = join(dir, 'sa.json');
    await writeFile(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        project_id: 'my-proj',
        private_key_id: 'abc123',
        private_key: await readFile(pem, 'utf8'),
        client_email: 'sa@my-proj.iam.gserviceaccount.com',
        client_id: '1',
        token_uri: 'https://oauth2.googleapis.com/token',
      }),
    );
    // google-auth-library posts a service account's grant to the hard-coded https://oauth2.googleapis.com/token
    // (token_uri is ignored), so this test stops at the request: its transporter is swapped for a recorder.
    const source = new VertexTokenSource({ GOOGLE_APPLICATION_CREDENTIALS: keyFile });
    const seen: { url: string; body: string }[] = [];
    const client = await (
      await (
        source as unknown as {
          googleAuth(): Promise<{ getClient(): Promise<{ transporter: { request: unknown } }> }>;
        }
      ).googleAuth()
    ).getClient();
    client.transporter.request = (opts: { url: string | URL; data?: unknown }) => {
      seen.push({ url: String(opts.url), body: String(opts.data) });
      return Promise.resolve({
        data: { access_token: REAL, expires_in: 3599, token_type: 'Bearer' },
        status: 200,
        headers: new Headers(),
        config: opts,
      });
    };
    expect(await source.token()).toBe(REAL);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('https://oauth2.googleapis.com/token');
    expect(seen[0]!.body).toContain('grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer');
  });
});

describe('startModelAccess for Vertex AI', () => {
  it('starts the proxy with the metadata stand-in for the agent uid, and masks every minted token', async () => {
    const masked: string[] = [];
    const upstream = await recorder();
    const access = await startModelAccess({
      auth: { kind: 'vertex-ai', project: 'my-proj', location: 'us-central1' },
      vertex: { token: () => Promise.resolve(REAL) },
      env: { GOOGLE_VERTEX_BASE_URL: upstream.url },
      log: createMemoryLogger(),
      mask: (s) => masked.push(s),
    });
    onTestFinished(() => access.stop());
    const ep = access.endpoint!;
    expect(ep.kind).toBe('vertex');
    expect(ep.metadataHost).toBe(new URL(ep.baseUrl).host);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${ep.baseUrl}/v1beta1/projects/my-proj/locations/us-central1/publishers/google/models/m:countTokens`,
        { method: 'POST', headers: { authorization: `Bearer ${ep.placeholder}` }, agent: false },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode!));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(200);
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${REAL}`);
    expect(masked).toContain(REAL);
    const token = await get(`${ep.baseUrl}${TOKEN_PATH}`, FLAVOR);
    expect(JSON.parse(token.body).access_token).toBe(ep.placeholder);
    const project = await get(`${ep.baseUrl}/computeMetadata/v1/project/project-id`, FLAVOR);
    expect(project.body).toBe('my-proj');
    // anything but a model call is refused by the proxy, never forwarded, and counted
    expect(access.refusals()).toEqual({ count: 0, first: [] });
    const other = await get(`${ep.baseUrl}/v1beta1/projects/my-proj/locations/us-central1/cachedContents`, {
      authorization: `Bearer ${ep.placeholder}`,
    });
    expect(other.status).toBe(403);
    expect(upstream.seen).toHaveLength(1);
    expect(access.refusals()).toEqual({
      count: 1,
      first: [{ method: 'GET', path: '/v1beta1/projects/my-proj/locations/us-central1/cachedContents' }],
    });
  });

  it("isolation: none with gcloud's ADC file in the shared HOME: gemini uses it directly (it would bypass the metadata stand-in)", async () => {
    const home = await mkdtemp(join(tmpdir(), 'vertex-home-'));
    onTestFinished(() => rm(home, { recursive: true, force: true }));
    await mkdir(join(home, '.config', 'gcloud'), { recursive: true });
    await writeFile(join(home, '.config', 'gcloud', 'application_default_credentials.json'), '{}');
    const auth = { kind: 'vertex-ai', project: 'my-proj', location: 'us-central1' } as const;
    const vertex = { token: () => Promise.resolve(REAL) };
    const log = createMemoryLogger();
    const shared = await startModelAccess({ auth, vertex, env: { HOME: home }, log, mask: () => undefined });
    onTestFinished(() => shared.stop());
    expect(shared.endpoint).toBeUndefined();
    expect(log.lines.join('\n')).toContain('application_default_credentials.json');
    // With a user of its own the agent has its own HOME: the proxy is used.
    const isolated = await startModelAccess({
      auth,
      vertex,
      agentUid: 4242,
      env: { HOME: home },
      log,
      mask: () => undefined,
    });
    onTestFinished(() => isolated.stop());
    expect(isolated.endpoint?.kind).toBe('vertex');
  });

  it('express mode (GOOGLE_API_KEY): the proxy holds the key', async () => {
    const upstream = await recorder();
    const masked: string[] = [];
    const access = await startModelAccess({
      auth: { kind: 'vertex-ai', project: 'my-proj', location: 'us-central1' },
      env: { GOOGLE_VERTEX_BASE_URL: upstream.url, GOOGLE_API_KEY: 'AIza-vertex-express-key' },
      log: createMemoryLogger(),
      mask: (s) => masked.push(s),
    });
    onTestFinished(() => access.stop());
    expect(access.endpoint?.metadataHost).toBeUndefined();
    expect(masked).toContain('AIza-vertex-express-key');
    expect(await prepareVertex({ kind: 'vertex-ai' }, { GOOGLE_API_KEY: 'k' })).toBeUndefined();
  });
});
