/**
 * Offline Google for the real gemini 0.42.0 under `oauth-personal`.
 *
 * One 127.0.0.1 server plays three roles:
 * - an HTTPS proxy (`HTTPS_PROXY`): CONNECT to a Google host is answered and the tunnel is TLS-terminated with a
 *   leaf certificate signed by a throw-away test CA (`NODE_EXTRA_CA_CERTS`), so the CLI's hard-coded
 *   `https://oauth2.googleapis.com/{token,tokeninfo}` and `https://www.googleapis.com/oauth2/v2/userinfo`
 *   reach the fake below; CONNECT to any other host is refused (no network in tests);
 * - Google's OAuth endpoints: authorization-code exchange, refresh (refusable), tokeninfo, userinfo;
 * - the Code Assist API on plain http (`CODE_ASSIST_ENDPOINT`): loadCodeAssist, onboardUser,
 *   streamGenerateContent (SSE, `{response:{candidates}}` wrapper), generateContent, countTokens,
 *   listExperiments, retrieveUserQuota, recordCodeAssistMetrics; a consumer-account refusal is switchable.
 *
 * The certificates are made with the `openssl` binary, shared by the proxies open at one time, in a temp dir
 * that the last close() removes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

/** The hosts the leaf certificate covers; CONNECT to anything else is refused. */
export const GOOGLE_HOSTS = [
  'oauth2.googleapis.com',
  'www.googleapis.com',
  'accounts.google.com',
  'cloudcode-pa.googleapis.com',
] as const;

export interface TestCertificates {
  dir: string;
  /** PEM of the test CA: point NODE_EXTRA_CA_CERTS here. */
  caFile: string;
  key: string;
  cert: string;
}

let certs: TestCertificates | undefined;

/** Generates (once per process) a test CA and a leaf certificate for GOOGLE_HOSTS with the openssl binary. */
export function testCertificates(): TestCertificates {
  if (certs) return certs;
  const dir = mkdtempSync(join(tmpdir(), 'gemini-run-ca-'));
  const run = (args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=gemini-run test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  run(['req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${GOOGLE_HOSTS[0]}`]);
  writeFileSync(
    join(dir, 'leaf.ext'),
    [
      `subjectAltName=${[...GOOGLE_HOSTS, 'localhost'].map((h) => `DNS:${h}`).join(',')},IP:127.0.0.1`,
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      '',
    ].join('\n'),
  );
  run([
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
  ]);
  certs = {
    dir,
    caFile: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'leaf.key'), 'utf8'),
    cert: readFileSync(join(dir, 'leaf.pem'), 'utf8'),
  };
  // Only the CA certificate must stay on disk (NODE_EXTRA_CA_CERTS); the keys live in memory from here on.
  for (const f of ['ca.key', 'leaf.key', 'leaf.csr', 'leaf.ext', 'ca.srl', 'leaf.pem'])
    rmSync(join(dir, f), { force: true });
  return certs;
}

/** Open proxies; the last one to close removes the certificate dir (vitest workers end without 'exit'). */
let open = 0;

function releaseCertificates(): void {
  if (open > 0 || !certs) return;
  rmSync(certs.dir, { recursive: true, force: true });
  certs = undefined;
}

export interface RecordedRequest {
  host: string;
  method: string;
  path: string;
  body: string;
}

export interface OAuthProxyConfig {
  /** Authorization codes the token endpoint accepts; anything else is `invalid_grant`. */
  validCodes: string[];
  email: string;
  /** When set, refresh-token grants fail with `invalid_grant` and this description. */
  refuseRefresh?: string;
  /** When set, loadCodeAssist answers like Google's refusal of a consumer account, with this reasonMessage. */
  refuseAccount?: string;
  /** Text of every model answer. */
  reply: string;
  /** Lifetime of issued access tokens. */
  expiresInS: number;
}

const DEFAULT_CONFIG: OAuthProxyConfig = {
  validCodes: ['4/0-good-code'],
  email: 'operator@example.com',
  reply: 'pong from the fake Code Assist',
  expiresInS: 3599,
};

export const CONSUMER_REFUSAL_MESSAGE =
  'Gemini Code Assist for individuals is no longer available for this account. Use a Gemini API key or a Code Assist Standard or Enterprise subscription.';

export class OAuthProxy {
  readonly requests: RecordedRequest[] = [];
  /** CONNECT targets that were refused (anything not in GOOGLE_HOSTS). */
  readonly refusedTunnels: string[] = [];
  readonly config: OAuthProxyConfig;
  /** Access tokens this server issued or was seeded with, and not revoked. */
  private readonly accessTokens = new Set<string>();
  private readonly refreshTokens = new Set<string>();
  private readonly sockets = new Set<Socket>();
  private counter = 0;
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    private readonly tls: https.Server,
    readonly caFile: string,
    config: Partial<OAuthProxyConfig>,
  ) {
    this.config = { ...DEFAULT_CONFIG, ...config };
  }

  static async start(config: Partial<OAuthProxyConfig> = {}): Promise<OAuthProxy> {
    const c = testCertificates();
    // The handlers are bound after construction; the servers only dispatch to them.
    const bound: { proxy?: OAuthProxy } = {};
    const handler = (req: IncomingMessage, res: ServerResponse) => void bound.proxy?.handle(req, res);
    const tls = https.createServer({ key: c.key, cert: c.cert }, handler);
    const server = http.createServer(handler);
    const proxy = new OAuthProxy(server, tls, c.caFile, config);
    bound.proxy = proxy;
    server.on('connection', (s: Socket) => proxy.track(s));
    server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) =>
      proxy.tunnel(req, socket, head),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open++;
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The environment that routes a gemini process here (merge into its allow-listed env). */
  env(): Record<string, string> {
    return {
      HTTPS_PROXY: this.url,
      https_proxy: this.url,
      NODE_EXTRA_CA_CERTS: this.caFile,
      CODE_ASSIST_ENDPOINT: this.url,
    };
  }

  /** Creds as `oauth_creds.json` holds them, with tokens this server accepts. */
  seedCreds(o: { expired?: boolean } = {}): {
    access_token: string;
    refresh_token: string;
    scope: string;
    token_type: string;
    expiry_date: number;
  } {
    const access = this.mint('ya29.seeded');
    const refresh = this.mintRefresh();
    return {
      access_token: access,
      refresh_token: refresh,
      scope:
        'https://www.googleapis.com/auth/cloud-platform openid https://www.googleapis.com/auth/userinfo.email',
      token_type: 'Bearer',
      expiry_date: o.expired ? Date.now() - 3_600_000 : Date.now() + 3_600_000,
    };
  }

  /**
   * A runner host's `gemini-run login` in `host` (what GEMINI_RUN_HOST_HOME names): expired creds this server
   * will refresh, and the account. Returns the creds written.
   */
  async seedHostLogin(host: string): Promise<ReturnType<OAuthProxy['seedCreds']>> {
    await mkdir(join(host, '.gemini'), { recursive: true, mode: 0o700 });
    const seeded = this.seedCreds({ expired: true });
    await writeFile(join(host, '.gemini', 'oauth_creds.json'), JSON.stringify(seeded), { mode: 0o600 });
    await writeFile(
      join(host, '.gemini', 'google_accounts.json'),
      JSON.stringify({ active: 'operator@example.com', old: [] }),
    );
    return seeded;
  }

  /** The creds in a host's `oauth_creds.json` now (after a run wrote them back, or not). */
  async hostCreds(host: string): Promise<ReturnType<OAuthProxy['seedCreds']>> {
    return JSON.parse(await readFile(join(host, '.gemini', 'oauth_creds.json'), 'utf8')) as ReturnType<
      OAuthProxy['seedCreds']
    >;
  }

  /** Whether an access token is currently accepted (e.g. one found in a rewritten creds file). */
  accepts(accessToken: string): boolean {
    return this.accessTokens.has(accessToken);
  }

  requestsTo(host: string, pathPrefix = ''): RecordedRequest[] {
    return this.requests.filter((r) => r.host === host && r.path.startsWith(pathPrefix));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.tls.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (!this.closed) {
      this.closed = true;
      open--;
      releaseCertificates();
    }
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
  }

  private mint(prefix = 'ya29.fake'): string {
    const token = `${prefix}-${++this.counter}-${randomBytes(6).toString('hex')}`;
    this.accessTokens.add(token);
    return token;
  }

  private mintRefresh(): string {
    const token = `1//refresh-${++this.counter}-${randomBytes(6).toString('hex')}`;
    this.refreshTokens.add(token);
    return token;
  }

  private tunnel(req: IncomingMessage, socket: Socket, head: Buffer): void {
    this.track(socket);
    const target = req.url ?? '';
    const host = target.replace(/:\d+$/, '');
    if (target === `127.0.0.1:${this.port}` || target === `localhost:${this.port}`) {
      // gaxios tunnels even a plain-http CODE_ASSIST_ENDPOINT through HTTPS_PROXY (live, 0.42.0): serve the
      // tunnel with the plain http server, i.e. with this same fake.
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) socket.unshift(head);
      this.server.emit('connection', socket);
      return;
    }
    if (!(GOOGLE_HOSTS as readonly string[]).includes(host)) {
      this.refusedTunnels.push(target);
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    // The TLS server wraps the raw socket exactly as if it had accepted it itself.
    this.tls.emit('connection', socket);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    // Absolute-form request line = a plain-http proxy request; otherwise the Host header names the target.
    const raw = req.url ?? '/';
    const url = raw.startsWith('http')
      ? new URL(raw)
      : new URL(raw, `http://${req.headers.host ?? '127.0.0.1'}`);
    const host = url.hostname;
    const path = `${url.pathname}${url.search}`;
    this.requests.push({ host, method: req.method ?? 'GET', path, body });
    try {
      if (host === 'oauth2.googleapis.com' && url.pathname === '/token') return this.token(body, res);
      if (host === 'oauth2.googleapis.com' && url.pathname.startsWith('/tokeninfo')) {
        // google-auth-library POSTs with the token as a Bearer header; older clients used the query string.
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const token =
          bearer ??
          url.searchParams.get('access_token') ??
          new URLSearchParams(body).get('access_token') ??
          '';
        return this.tokenInfo(token, res);
      }
      if (host === 'www.googleapis.com' && url.pathname.startsWith('/oauth2/')) {
        return json(res, 200, { id: '1234567890', email: this.config.email, verified_email: true });
      }
      if (url.pathname.startsWith('/v1internal')) return this.codeAssist(url.pathname, body, res);
      json(res, 404, { error: { code: 404, message: `fake google: no route for ${host}${url.pathname}` } });
    } catch (e) {
      json(res, 500, { error: { code: 500, message: String(e) } });
    }
  }

  private token(body: string, res: ServerResponse): void {
    const form = new URLSearchParams(body);
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      if (!this.config.validCodes.includes(form.get('code') ?? '')) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
      }
      return json(res, 200, this.issue(this.mintRefresh()));
    }
    if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (this.config.refuseRefresh !== undefined || !this.refreshTokens.has(refresh)) {
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: this.config.refuseRefresh ?? 'Token has been expired or revoked.',
        });
      }
      // Google does not return a new refresh token on refresh.
      const { refresh_token: _drop, ...rest } = this.issue(refresh);
      return json(res, 200, rest);
    }
    json(res, 400, {
      error: 'unsupported_grant_type',
      error_description: `Invalid grant_type: ${grant ?? ''}`,
    });
  }

  private issue(refresh: string): Record<string, string | number> {
    return {
      access_token: this.mint(),
      expires_in: this.config.expiresInS,
      refresh_token: refresh,
      scope:
        'https://www.googleapis.com/auth/cloud-platform openid https://www.googleapis.com/auth/userinfo.email',
      token_type: 'Bearer',
    };
  }

  private tokenInfo(token: string, res: ServerResponse): void {
    if (!this.accessTokens.has(token))
      return json(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
    json(res, 200, {
      azp: 'fake-client.apps.googleusercontent.com',
      aud: 'fake-client.apps.googleusercontent.com',
      sub: '1234567890',
      scope:
        'https://www.googleapis.com/auth/cloud-platform openid https://www.googleapis.com/auth/userinfo.email',
      exp: String(Math.floor(Date.now() / 1000) + this.config.expiresInS),
      expires_in: this.config.expiresInS,
      email: this.config.email,
      email_verified: 'true',
      access_type: 'offline',
    });
  }

  private codeAssist(pathname: string, body: string, res: ServerResponse): void {
    const method = pathname.split(':').pop() ?? '';
    const reply = {
      candidates: [
        { content: { role: 'model', parts: [{ text: this.config.reply }] }, finishReason: 'STOP' },
      ],
    };
    const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
    switch (method) {
      case 'loadCodeAssist':
        if (this.config.refuseAccount !== undefined) {
          return json(res, 200, {
            allowedTiers: [],
            ineligibleTiers: [
              {
                reasonCode: 'INELIGIBLE_ACCOUNT',
                reasonMessage: this.config.refuseAccount,
                tierId: 'free-tier',
                tierName: 'Gemini Code Assist for individuals',
              },
            ],
          });
        }
        return json(res, 200, {
          currentTier: {
            id: 'standard-tier',
            name: 'Gemini Code Assist Standard',
            hasOnboardedPreviously: true,
          },
          allowedTiers: [{ id: 'standard-tier', name: 'Gemini Code Assist Standard', isDefault: true }],
          cloudaicompanionProject: 'fake-project',
        });
      case 'onboardUser':
        // With a refusal, the CLI onboards the default tier; a done LRO without a project makes it throw the
        // ineligible tiers' reasonMessage (IneligibleTierError), which is what Google's refusal looks like.
        return json(
          res,
          200,
          this.config.refuseAccount !== undefined
            ? { done: true, response: {} }
            : {
                done: true,
                response: { cloudaicompanionProject: { id: 'fake-project' } },
              },
        );
      case 'streamGenerateContent?alt=sse':
      case 'streamGenerateContent': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify({ traceId: 'trace-1', response: { ...reply, usageMetadata: usage, modelVersion: 'gemini-2.5-flash' } })}\r\n\r\n`,
        );
        res.end();
        return;
      }
      case 'generateContent':
        return json(res, 200, { traceId: 'trace-2', response: { ...reply, usageMetadata: usage } });
      case 'countTokens':
        return json(res, 200, { totalTokens: 10 });
      case 'listExperiments':
        return json(res, 200, { flags: [], experimentIds: [] });
      case 'retrieveUserQuota':
        return json(res, 200, { buckets: [] });
      case 'recordCodeAssistMetrics':
      case 'fetchAdminControls':
      case 'getCodeAssistGlobalUserSetting':
      case 'setCodeAssistGlobalUserSetting':
        return json(res, 200, {});
      default:
        void body;
        return json(res, 404, {
          error: { code: 404, message: `fake code assist: unknown method ${method}` },
        });
    }
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
