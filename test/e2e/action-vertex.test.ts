/**
 * The action with `use-vertex-ai: true` and what google-github-actions/auth leaves for Workload Identity
 * Federation (GOOGLE_APPLICATION_CREDENTIALS naming an external_account config), against the real 0.42.0 and
 * local stand-ins for GitHub's OIDC endpoint, Google's STS and Vertex AI. The action mints the token (the real
 * google-auth-library, bundled in dist/index.js), the agent runs as its own uid on the placeholder it gets from
 * the proxy's metadata stand-in; only the action's uid ever reaches the token endpoints.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loopbackPeerUid } from '../../src/proxy/metadata.js';
import { ActionWorld } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { FakeVertex } from '../harness/fake-vertex.js';

const REAL_TOKEN = 'ya29.vertex-from-sts-' + 's'.repeat(24);
const OIDC_REQUEST_TOKEN = 'oidc-request-token-' + 'q'.repeat(20);
const root = process.getuid?.() === 0;

interface TokenCall {
  path: string;
  uid: number | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** GitHub's OIDC token URL and Google's STS, in one local server that records who called. */
async function tokenEndpoints(o: { refuse?: string } = {}) {
  const calls: TokenCall[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      void loopbackPeerUid(req.socket).then((uid) => {
        calls.push({ path: req.url ?? '', uid, headers: req.headers, body });
        res.setHeader('content-type', 'application/json');
        if (req.url?.startsWith('/oidc')) {
          res.end(JSON.stringify({ value: 'github-oidc-jwt' }));
        } else if (o.refuse) {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: 'invalid_grant', error_description: o.refuse }));
        } else {
          res.end(
            JSON.stringify({
              access_token: REAL_TOKEN,
              issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
              token_type: 'Bearer',
              expires_in: 3599,
            }),
          );
        }
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A runner's corporate proxy: CONNECT only (google-auth-library tunnels every request through HTTPS_PROXY), with
 * credentials, and the only way to names under `.corp.test` (each resolves to 127.0.0.1 here and nowhere else).
 */
async function corporateProxy() {
  const tunnels: string[] = [];
  const auth = `Basic ${Buffer.from('corp:s3cret').toString('base64')}`;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: Socket) => {
    const [host = '', port = ''] = (req.url ?? '').split(':');
    tunnels.push(`${req.url} ${req.headers['proxy-authorization'] === auth ? 'auth' : 'no-auth'}`);
    if (req.headers['proxy-authorization'] !== auth || !host.endsWith('.corp.test'))
      return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n');
    const up = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.pipe(client);
      client.pipe(up);
    });
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://corp:s3cret@127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The external_account config google-github-actions/auth writes (its credential_source is GitHub's OIDC URL). */
async function writeWifConfig(dir: string, endpoints: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'gha-creds-0123456789abcdef.json');
  await writeFile(
    file,
    JSON.stringify({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/gh/providers/gh',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${endpoints}/v1/token`,
      credential_source: {
        url: `${endpoints}/oidc?audience=gh`,
        headers: { Authorization: `Bearer ${OIDC_REQUEST_TOKEN}` },
        format: { type: 'json', subject_token_field_name: 'value' },
      },
    }),
    { mode: 0o600 },
  );
  return file;
}

describe.skipIf(!root)('the action with use-vertex-ai behind the model proxy (as root)', () => {
  let world: ActionWorld;
  const worldOf = useActionWorld({ noUnexpectedCalls: true });
  beforeEach(() => {
    world = worldOf();
  });

  it('the action mints the token from the WIF config; the agent calls Vertex on a placeholder', async () => {
    const endpoints = await tokenEndpoints();
    const vertex = await FakeVertex.start({
      description: 'vertex',
      steps: [{ text: 'Nothing to change here.' }],
    });
    try {
      const creds = await writeWifConfig(join(world.tmp, 'gha-creds'), endpoints.url);
      const r = await world.run({
        script: 'plain-answer',
        mode: 'headless',
        inputs: {
          'gemini-api-key': '',
          'use-vertex-ai': 'true',
          'google-cloud-project': 'my-proj',
          'google-cloud-location': 'us-central1',
        },
        env: {
          GOOGLE_APPLICATION_CREDENTIALS: creds,
          GOOGLE_GHA_CREDS_PATH: creds,
          CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: creds,
          GOOGLE_VERTEX_BASE_URL: vertex.url,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: OIDC_REQUEST_TOKEN,
        },
      });
      expect(r.main.exitCode, r.main.stdout + r.main.stderr).toBe(0);
      expect(r.main.outputs.status).toBe('no-changes');
      expect(r.main.stdout).toContain('The Vertex AI credentials stay with the action');

      // Only the action's uid reached the OIDC and token endpoints.
      expect(endpoints.calls.length).toBeGreaterThanOrEqual(2);
      for (const c of endpoints.calls) expect(c.uid, c.path).toBe(process.getuid?.());

      const modelCalls = vertex.requests.filter((x) => x.servedAs);
      expect(modelCalls.some((x) => x.path.includes(':streamGenerateContent'))).toBe(true);
      for (const x of vertex.requests) expect(x.headers.authorization).toBe(`Bearer ${REAL_TOKEN}`);

      const visible = world.published
        .join('\n')
        .split('\n')
        .filter((l) => !l.startsWith('::add-mask::'))
        .join('\n');
      expect(visible).not.toContain(REAL_TOKEN);
      expect(visible).not.toContain(OIDC_REQUEST_TOKEN);
      expect(r.main.stdout).toContain(`::add-mask::${REAL_TOKEN}`);
    } finally {
      await vertex.close();
      await endpoints.close();
    }
  });

  it('on a runner behind HTTPS_PROXY, the token is asked through it; a refused exchange ends auth-failed before gemini starts, with the reason', async () => {
    const endpoints = await tokenEndpoints({ refuse: 'The audience in the token does not match' });
    const corp = await corporateProxy();
    const vertex = await FakeVertex.start({ description: 'vertex', steps: [{ text: 'unused' }] });
    try {
      // The token endpoints by a name only the corporate proxy resolves: an answer proves the bundled library's
      // proxy agent (loaded by a dynamic import inside dist/index.js) carried the request.
      const port = new URL(endpoints.url).port;
      const creds = await writeWifConfig(join(world.tmp, 'gha-creds'), `http://sts.corp.test:${port}`);
      const r = await world.run({
        script: 'plain-answer',
        mode: 'headless',
        inputs: { 'gemini-api-key': '', 'use-vertex-ai': 'true', 'google-cloud-project': 'my-proj' },
        env: {
          GOOGLE_APPLICATION_CREDENTIALS: creds,
          GOOGLE_VERTEX_BASE_URL: vertex.url,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: OIDC_REQUEST_TOKEN,
          HTTPS_PROXY: corp.url,
          NO_PROXY: '',
        },
      });
      expect(r.main.exitCode).toBe(1);
      expect(r.main.outputs.status).toBe('auth-failed');
      expect(r.main.stdout).toMatch(/::error::.*Vertex AI: could not get an access token/);
      expect(r.main.stdout).toContain('The audience in the token does not match');
      expect(vertex.requests).toHaveLength(0);
      // Both calls (GitHub's OIDC URL, then STS) went through the proxy, with its credentials.
      expect(endpoints.calls.map((c) => c.path.split('?')[0])).toEqual(['/oidc', '/v1/token']);
      expect(new Set(corp.tunnels)).toEqual(new Set([`sts.corp.test:${port} auth`]));
      expect(world.published.join('\n')).not.toContain('s3cret');
    } finally {
      await vertex.close();
      await corp.close();
      await endpoints.close();
    }
  });
});
