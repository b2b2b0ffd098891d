/**
 * A local stand-in for the runner's own services on a GitHub-hosted job: the Actions results service (artifacts
 * and cache, `ACTIONS_RESULTS_URL` + `ACTIONS_RUNTIME_TOKEN`) and the Azure blob storage its signed URLs point at.
 * The real `@actions/artifact` 6.2.1 and `@actions/cache` 6.3.0 run against it unchanged. It keeps its state
 * across runs of the action, as GitHub keeps artifacts and caches between workflow runs.
 *
 * What it implements, and where each call comes from (node_modules paths):
 * - Twirp `github.actions.results.api.v1.ArtifactService` (JSON, proto field names, bearer runtime token):
 *   `CreateArtifact`, `FinalizeArtifact` (@actions/artifact lib/internal/upload/upload-artifact.js),
 *   `ListArtifacts` (lib/internal/find/get-artifact.js, list-artifacts.js, download/download-artifact.js),
 *   `GetSignedArtifactURL` (download/download-artifact.js), `DeleteArtifact` (delete/delete-artifact.js); the
 *   request/response shapes are those of lib/generated/results/api/v1/artifact.js, the HTTP/retry behaviour that
 *   of lib/internal/shared/artifact-twirp-client.js, the token claims those read by shared/util.js.
 * - Twirp `github.actions.results.api.v1.CacheService` (cache service v2, `ACTIONS_CACHE_SERVICE_V2`):
 *   `GetCacheEntryDownloadURL`, `CreateCacheEntry`, `FinalizeCacheEntryUpload` (@actions/cache lib/cache.js,
 *   shapes in lib/generated/results/api/v1/cache.js, client in lib/internal/shared/cacheTwirpClient.js).
 * - Blob storage behind the signed URLs (@azure/storage-blob as those clients drive it): Put Block
 *   (`?comp=block&blockid=`) and Put Block List (`?comp=blocklist`, XML) from `BlockBlobClient.uploadStream`
 *   (artifact upload, lib/internal/upload/blob-upload.js); Put Blob (single shot, `x-ms-blob-type: BlockBlob`) from
 *   `uploadFile` (cache save, lib/internal/uploadUtils.js); Get Blob Properties (HEAD) and ranged Get Blob
 *   (`x-ms-range`, 206) from `getProperties` + `downloadToBuffer` (cache restore, lib/internal/downloadUtils.js);
 *   plain GET of a whole blob with `rscd` → Content-Disposition from @actions/http-client (artifact download,
 *   download-artifact.js `streamExtractExternal`).
 * The REST endpoints `findBy` uses are served by FakeGitHub (src/fake/github-api.ts) through `ArtifactsBackend`.
 *
 * Errors as GitHub gives them: a missing or wrong runtime token is a twirp `unauthenticated` 401, a token of
 * another run a `permission_denied` 403 (the clients turn them into "Failed request: (401) Unauthorized: ...");
 * a bad or expired blob signature is Azure's 403 `AuthenticationFailed` XML, a missing blob 404 `BlobNotFound`.
 *
 * Blob URLs: `@actions/cache` uses the Azure SDK (HEAD + ranged reads) only when the host ends in
 * `.blob.core.windows.net`, as GitHub's do; otherwise it falls back to one plain GET. With `blobHost: 'azure'`
 * the signed URLs name `<account>.blob.core.windows.net`, and the server doubles as the job's HTTP proxy
 * (`HTTP_PROXY`): it serves that host itself and tunnels everything else (CONNECT and absolute-form requests)
 * through to the real destination, so gemini, npm and loopback services behave as without a proxy. With
 * `blobHost: 'loopback'` the URLs are Azurite-style `http://127.0.0.1:<port>/<account>/...` and no proxy is needed.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { z } from 'zod';
import type { ArtifactsBackend, RestArtifact } from '../../src/fake/github-api.js';

const ARTIFACT_SERVICE = 'github.actions.results.api.v1.ArtifactService';
const CACHE_SERVICE = 'github.actions.results.api.v1.CacheService';
const ACCOUNT = 'productionresultssa0';
const BLOB_SUFFIX = '.blob.core.windows.net';
const AZURE_VERSION = '2025-11-05';

export interface ServiceCall {
  service: 'artifact' | 'cache' | 'blob' | 'proxy';
  method: string;
  /** Twirp method, blob operation (`put-block`, `put-block-list`, `put-blob`, `get`, `get-range`, `head`) or proxied host. */
  op: string;
  status: number;
}

interface Run {
  runId: number;
  repo: string;
  backendId: string;
  jobBackendId: string;
  deleted: boolean;
}

interface Blob {
  committed: Buffer | undefined;
  contentType: string;
  blocks: Map<string, Buffer>;
  etag: string;
  lastModified: Date;
}

interface Artifact {
  id: number;
  run: Run;
  name: string;
  blobPath: string;
  size: number;
  digest: string | null;
  createdAt: Date;
  expiresAt: Date;
  finalized: boolean;
}

interface CacheEntry {
  id: number;
  key: string;
  version: string;
  blobPath: string;
  size: number;
  createdAt: Date;
  finalized: boolean;
}

type Fault = { service: 'artifact' | 'cache' | 'blob'; op?: string; status: number; remaining: number };

class Twirp extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
  ) {
    super(msg);
  }
}

class BlobError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
  ) {
    super(msg);
  }
}

// ---- request shapes (proto field names, as the clients send them: toJson({ useProtoFieldName: true })) ----

const int64 = z.union([z.string(), z.number()]).transform((v) => Number(v));
const backendIds = {
  workflow_run_backend_id: z.string(),
  workflow_job_run_backend_id: z.string(),
};
const CreateArtifactRequest = z.object({
  ...backendIds,
  name: z.string().min(1),
  expires_at: z.string().optional(),
  version: z.number().int(),
  mime_type: z.string().optional(),
});
const FinalizeArtifactRequest = z.object({
  ...backendIds,
  name: z.string(),
  size: int64,
  hash: z.string().optional(),
});
const ListArtifactsRequest = z.object({
  ...backendIds,
  name_filter: z.string().optional(),
  id_filter: int64.optional(),
});
const ByNameRequest = z.object({ ...backendIds, name: z.string() });
const CacheMetadata = z.object({ repository_id: int64.optional(), scope: z.array(z.unknown()).optional() });
const GetCacheEntryDownloadURLRequest = z.object({
  metadata: CacheMetadata.optional(),
  key: z.string(),
  restore_keys: z.array(z.string()).optional(),
  version: z.string(),
});
const CreateCacheEntryRequest = z.object({
  metadata: CacheMetadata.optional(),
  key: z.string(),
  version: z.string(),
});
const FinalizeCacheEntryUploadRequest = z.object({
  metadata: CacheMetadata.optional(),
  key: z.string(),
  size_bytes: int64,
  version: z.string(),
});
const TokenClaims = z.object({ scp: z.string(), exp: z.number() });

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

export interface FakeActionsOptions {
  /** Blob URL style (see the module comment). Default `loopback`. */
  blobHost?: 'azure' | 'loopback';
}

export class FakeActionsServices implements ArtifactsBackend, AsyncDisposable {
  readonly calls: ServiceCall[] = [];
  /** Calls nobody planned for (an unknown twirp method or blob operation, a proxied request that failed). */
  readonly unexpected: string[] = [];

  private readonly secret = randomUUID();
  private readonly blobHost: 'azure' | 'loopback';
  private readonly runs = new Map<string, Run>();
  private readonly blobs = new Map<string, Blob>();
  private readonly artifacts: Artifact[] = [];
  private readonly caches: CacheEntry[] = [];
  private readonly faults: Fault[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private port = 0;
  private nextId = 5000;
  /** Days added to the wall clock: artifacts whose retention ran out in that time are expired. */
  private clockOffsetMs = 0;

  private constructor(opts: FakeActionsOptions) {
    this.blobHost = opts.blobHost ?? 'loopback';
  }

  static async start(opts: FakeActionsOptions = {}): Promise<FakeActionsServices> {
    const f = new FakeActionsServices(opts);
    const server = createServer((req, res) => void f.handle(req, res));
    server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => f.tunnel(req, socket, head));
    server.on('connection', (s: Socket) => {
      f.sockets.add(s);
      s.on('close', () => f.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    f.server = server;
    f.port = (server.address() as AddressInfo).port;
    return f;
  }

  /** `ACTIONS_RESULTS_URL` (the clients use its origin). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  // ---- the runner side ---------------------------------------------------------------------------------------

  /**
   * Registers workflow run `runId` of `repo` and returns the job's runtime token: a JWT whose `scp` claim carries
   * `Actions.Results:<run backend id>:<job backend id>`, as the runner's does (the clients read the ids from it).
   */
  runtimeToken(o: { runId: number; repo: string; ttlSeconds?: number }): string {
    const run = this.runOf(o.runId, o.repo);
    const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256', x5t: 'fake' }));
    const now = Math.floor(this.now() / 1000);
    const ids = `${run.backendId}:${run.jobBackendId}`;
    const payload = b64url(
      JSON.stringify({
        nameid: 'dddddddd-dddd-dddd-dddd-dddddddddddd',
        scp: `Actions.ExampleScope Actions.Results:${ids} Actions.UploadArtifacts:${ids}`,
        ac: JSON.stringify([{ Scope: 'refs/heads/main', Permission: 3 }]),
        iss: 'vstoken.actions.githubusercontent.com',
        aud: 'vstoken.actions.githubusercontent.com',
        nbf: now - 60,
        iat: now,
        exp: now + (o.ttlSeconds ?? 6 * 3600),
      }),
    );
    return `${header}.${payload}.${this.sign(`${header}.${payload}`).toString('base64url')}`;
  }

  /** Workflow run `runId` of `repo`, registered on first use. */
  private runOf(runId: number, repo: string): Run {
    let run = [...this.runs.values()].find((r) => r.runId === runId && r.repo === repo);
    if (!run) {
      run = { runId, repo, backendId: randomUUID(), jobBackendId: randomUUID(), deleted: false };
      this.runs.set(run.backendId, run);
    }
    return run;
  }

  /**
   * An artifact as a finished upload leaves it, without going through the artifact client (a test of hundreds of
   * runs): `zip` stored for run `runId` of `repo`, created at `createdAt`, expired once `expiresAt` has passed.
   * Returns its id.
   */
  seedArtifact(o: {
    repo: string;
    runId: number;
    name: string;
    zip: Buffer;
    createdAt: Date;
    expiresAt: Date;
  }): number {
    const run = this.runOf(o.runId, o.repo);
    const blobPath = `/actions-results/${run.backendId}/workflow-job-run-${run.jobBackendId}/artifacts/${createHash('sha256').update(o.name).digest('hex')}.zip`;
    const blob: Blob = {
      committed: undefined,
      contentType: 'application/zip',
      blocks: new Map(),
      etag: '',
      lastModified: o.createdAt,
    };
    this.commit(blob, o.zip, 'application/zip');
    this.blobs.set(blobPath, blob);
    const id = this.nextId++;
    this.artifacts.push({
      id,
      run,
      name: o.name,
      blobPath,
      size: o.zip.length,
      digest: `sha256:${createHash('sha256').update(o.zip).digest('hex')}`,
      createdAt: o.createdAt,
      expiresAt: o.expiresAt,
      finalized: true,
    });
    return id;
  }

  /** The environment a hosted runner gives a job's steps for these services. */
  jobEnv(o: { runId: number; repo: string }): Record<string, string> {
    const env: Record<string, string> = {
      ACTIONS_RESULTS_URL: this.url,
      ACTIONS_RUNTIME_TOKEN: this.runtimeToken(o),
      ACTIONS_CACHE_SERVICE_V2: 'True',
      ACTIONS_CACHE_URL: `http://127.0.0.1:${this.port}/legacy-cache-service-is-retired/`,
      GITHUB_RUN_ID: String(o.runId),
      RUNNER_ENVIRONMENT: 'github-hosted',
    };
    if (this.blobHost === 'azure') {
      env.HTTP_PROXY = `http://127.0.0.1:${this.port}`;
      env.NO_PROXY = '127.0.0.1,localhost';
    }
    return env;
  }

  /** Moves the services' clock on: artifacts past their retention are expired, as GitHub's cleanup does. */
  advanceDays(days: number): void {
    this.clockOffsetMs += days * 86_400_000;
  }

  /** The run is gone (deleted, or removed by the repository's log and artifact retention): the REST API 404s. */
  deleteRun(runId: number): void {
    for (const r of this.runs.values()) if (r.runId === runId) r.deleted = true;
  }

  /** The next `times` calls of a service (optionally one twirp method or blob operation) answer `status`. */
  failNext(o: { service: 'artifact' | 'cache' | 'blob'; op?: string; status: number; times?: number }): void {
    this.faults.push({
      service: o.service,
      status: o.status,
      remaining: o.times ?? 1,
      ...(o.op ? { op: o.op } : {}),
    });
  }

  /** Replaces a finalized cache entry's archive (a corrupt or truncated upload). */
  tamperCache(key: string, edit: (archive: Buffer) => Buffer): void {
    const entry = this.caches.find((c) => c.key === key && c.finalized);
    const blob = entry && this.blobs.get(entry.blobPath);
    if (!entry || !blob?.committed) throw new Error(`FakeActionsServices: no cache entry '${key}'`);
    blob.committed = edit(blob.committed);
    entry.size = blob.committed.length;
  }

  /** Finalized cache entries, newest last. */
  cacheEntries(): { key: string; version: string; size: number }[] {
    return this.caches
      .filter((c) => c.finalized)
      .map((c) => ({ key: c.key, version: c.version, size: c.size }));
  }

  /** The zip of a finalized artifact, as stored. */
  artifactZip(runId: number, name: string): Buffer | undefined {
    const a = this.artifacts.find((x) => x.run.runId === runId && x.name === name && x.finalized);
    return a ? this.blobs.get(a.blobPath)?.committed : undefined;
  }

  // ---- ArtifactsBackend (the REST side, served by FakeGitHub) -------------------------------------------------

  runArtifacts(repo: string, runId: number): RestArtifact[] | undefined {
    const run = [...this.runs.values()].find(
      (r) => r.runId === runId && r.repo.toLowerCase() === repo.toLowerCase(),
    );
    if (!run || run.deleted) return undefined;
    return this.artifacts.filter((a) => a.run === run && a.finalized).map((a) => this.rest(a));
  }

  artifact(repo: string, id: number): RestArtifact | undefined {
    const a = this.artifacts.find(
      (x) => x.id === id && x.finalized && x.run.repo.toLowerCase() === repo.toLowerCase(),
    );
    return a && !a.run.deleted ? this.rest(a) : undefined;
  }

  repoArtifacts(repo: string): RestArtifact[] {
    return this.artifacts
      .filter((a) => a.finalized && !a.run.deleted && a.run.repo.toLowerCase() === repo.toLowerCase())
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map((a) => this.rest(a));
  }

  signedZipUrl(_repo: string, id: number): string {
    const a = this.artifacts.find((x) => x.id === id);
    if (!a) throw new Error(`FakeActionsServices: no artifact ${id}`);
    return this.signedUrl(a.blobPath, 'r', 60, { rscd: `attachment; filename="${a.name}.zip"` });
  }

  private rest(a: Artifact): RestArtifact {
    return {
      id: a.id,
      name: a.name,
      sizeInBytes: a.size,
      digest: a.digest,
      createdAt: a.createdAt.toISOString(),
      expiresAt: a.expiresAt.toISOString(),
      expired: a.expiresAt.getTime() <= this.now(),
      runId: a.run.runId,
    };
  }

  // ---- HTTP ---------------------------------------------------------------------------------------------------

  private now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  private sign(text: string): Buffer {
    return createHmac('sha256', this.secret).update(text).digest();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const absolute = /^https?:\/\//i.test(req.url ?? '');
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const azureHost = url.hostname.endsWith(BLOB_SUFFIX);
    try {
      if (azureHost) return await this.blob(req, res, url, url.pathname);
      const self = ['127.0.0.1', 'localhost'].includes(url.hostname) && url.port === String(this.port);
      if (absolute && !self) return this.forward(req, res, url);
      if (url.pathname.startsWith(`/${ACCOUNT}/`)) {
        return await this.blob(req, res, url, url.pathname.slice(ACCOUNT.length + 1));
      }
      const twirp = /^\/twirp\/([\w.]+)\/(\w+)$/.exec(url.pathname);
      if (twirp && req.method === 'POST') return await this.twirp(req, res, twirp[1] ?? '', twirp[2] ?? '');
      this.unexpected.push(`${req.method} ${url.pathname}`);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    } catch (e) {
      this.unexpected.push(`${req.method} ${url.pathname}: ${String(e)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`FakeActionsServices bug: ${String(e)}`);
    }
  }

  /** CONNECT: the blob host is served here; anything else is tunnelled to where it was going. */
  private tunnel(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const [host = '', portText = '443'] = (req.url ?? '').split(':');
    const toSelf = host.endsWith(BLOB_SUFFIX);
    const upstream = connect(toSelf ? this.port : Number(portText), toSelf ? '127.0.0.1' : host);
    this.sockets.add(upstream);
    upstream.on('close', () => this.sockets.delete(upstream));
    this.calls.push({ service: 'proxy', method: 'CONNECT', op: host, status: 200 });
    upstream.once('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', () => {
      if (!socket.destroyed) socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      close();
    });
    socket.on('error', close);
  }

  /** An absolute-form request for another host (a client that honours HTTP_PROXY): passed through unchanged. */
  private forward(req: IncomingMessage, res: ServerResponse, url: URL): void {
    this.calls.push({ service: 'proxy', method: req.method ?? 'GET', op: url.host, status: 0 });
    const out = httpRequest(
      {
        host: url.hostname,
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', (e) => {
      this.unexpected.push(`proxy ${req.method} ${url.host}: ${e.message}`);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(out);
  }

  private takeFault(service: Fault['service'], op: string): number | undefined {
    const f = this.faults.find((x) => x.remaining > 0 && x.service === service && (!x.op || x.op === op));
    if (!f) return undefined;
    f.remaining--;
    return f.status;
  }

  // ---- twirp --------------------------------------------------------------------------------------------------

  private async twirp(
    req: IncomingMessage,
    res: ServerResponse,
    service: string,
    method: string,
  ): Promise<void> {
    const kind = service === ARTIFACT_SERVICE ? 'artifact' : service === CACHE_SERVICE ? 'cache' : undefined;
    const raw = await readBody(req);
    let status = 200;
    let body: unknown;
    try {
      if (!kind) throw new Twirp(404, 'bad_route', `no handler for path "/twirp/${service}/${method}"`);
      const run = this.authenticate(req.headers.authorization);
      const fault = this.takeFault(kind, method);
      if (fault) throw new Twirp(fault, fault === 429 ? 'resource_exhausted' : 'internal', 'injected fault');
      let input: unknown;
      try {
        input = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new Twirp(400, 'malformed', 'the request body is not JSON');
      }
      body = kind === 'artifact' ? this.artifactCall(method, input, run) : this.cacheCall(method, input);
    } catch (e) {
      if (!(e instanceof Twirp)) throw e;
      status = e.status;
      body = { code: e.code, msg: e.message };
      if (e.code === 'bad_route') this.unexpected.push(`twirp ${service}/${method}`);
    }
    this.calls.push({ service: kind ?? 'artifact', method: 'POST', op: method, status });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private authenticate(header: string | undefined): Run {
    const m = /^Bearer\s+([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(header ?? '');
    if (!m) throw new Twirp(401, 'unauthenticated', 'Unauthenticated: missing or malformed bearer token');
    const [, h, p, s] = m as unknown as [string, string, string, string];
    const expected = this.sign(`${h}.${p}`);
    const got = Buffer.from(s, 'base64url');
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      throw new Twirp(401, 'unauthenticated', 'Unauthenticated: token signature is invalid');
    }
    const claims = TokenClaims.parse(JSON.parse(Buffer.from(p, 'base64url').toString('utf8')));
    if (claims.exp * 1000 < this.now())
      throw new Twirp(401, 'unauthenticated', 'Unauthenticated: token expired');
    const scope = claims.scp.split(' ').find((x) => x.startsWith('Actions.Results:'));
    const run = scope && this.runs.get(scope.split(':')[1] ?? '');
    if (!run) throw new Twirp(403, 'permission_denied', 'token carries no Actions.Results scope');
    return run;
  }

  private parse<T>(schema: z.ZodType<T>, input: unknown): T {
    const r = schema.safeParse(input);
    if (!r.success) throw new Twirp(400, 'invalid_argument', z.prettifyError(r.error).replace(/\n/g, ' '));
    return r.data;
  }

  private ownRun(
    run: Run,
    ids: { workflow_run_backend_id: string; workflow_job_run_backend_id: string },
  ): void {
    if (
      ids.workflow_run_backend_id !== run.backendId ||
      ids.workflow_job_run_backend_id !== run.jobBackendId
    ) {
      throw new Twirp(403, 'permission_denied', 'the backend ids do not belong to this token');
    }
  }

  private artifactCall(method: string, input: unknown, run: Run): unknown {
    switch (method) {
      case 'CreateArtifact': {
        const r = this.parse(CreateArtifactRequest, input);
        this.ownRun(run, r);
        if (r.version < 4) throw new Twirp(400, 'invalid_argument', 'unsupported artifact version');
        if (this.artifacts.some((a) => a.run === run && a.name === r.name && a.finalized)) {
          throw new Twirp(
            409,
            'already_exists',
            'an artifact with this name already exists on the workflow run',
          );
        }
        const blobPath = `/actions-results/${run.backendId}/workflow-job-run-${run.jobBackendId}/artifacts/${createHash('sha256').update(r.name).digest('hex')}.zip`;
        const expiresAt = r.expires_at ? new Date(r.expires_at) : new Date(this.now() + 90 * 86_400_000);
        for (let i = this.artifacts.length - 1; i >= 0; i--) {
          const a = this.artifacts[i];
          if (a && a.run === run && a.name === r.name && !a.finalized) this.artifacts.splice(i, 1);
        }
        this.artifacts.push({
          id: this.nextId++,
          run,
          name: r.name,
          blobPath,
          size: 0,
          digest: null,
          createdAt: new Date(this.now()),
          expiresAt,
          finalized: false,
        });
        this.blobs.delete(blobPath);
        return { ok: true, signed_upload_url: this.signedUrl(blobPath, 'cw', 6 * 3600) };
      }
      case 'FinalizeArtifact': {
        const r = this.parse(FinalizeArtifactRequest, input);
        this.ownRun(run, r);
        const a = this.artifacts.find((x) => x.run === run && x.name === r.name && !x.finalized);
        if (!a) throw new Twirp(404, 'not_found', 'artifact not found');
        const data = this.blobs.get(a.blobPath)?.committed;
        if (!data) throw new Twirp(400, 'failed_precondition', 'the artifact blob was never committed');
        if (data.length !== r.size)
          throw new Twirp(400, 'invalid_argument', 'the artifact size does not match');
        const digest = `sha256:${createHash('sha256').update(data).digest('hex')}`;
        if (r.hash && r.hash !== digest)
          throw new Twirp(400, 'invalid_argument', 'the artifact hash does not match');
        a.size = data.length;
        a.digest = digest;
        a.finalized = true;
        return { ok: true, artifact_id: String(a.id) };
      }
      case 'ListArtifacts': {
        const r = this.parse(ListArtifactsRequest, input);
        this.ownRun(run, r);
        const list = this.artifacts.filter(
          (a) =>
            a.run === run &&
            a.finalized &&
            a.expiresAt.getTime() > this.now() &&
            (r.name_filter === undefined || a.name === r.name_filter) &&
            (r.id_filter === undefined || a.id === r.id_filter),
        );
        return {
          artifacts: list.map((a) => ({
            workflow_run_backend_id: run.backendId,
            workflow_job_run_backend_id: run.jobBackendId,
            database_id: String(a.id),
            name: a.name,
            size: String(a.size),
            created_at: a.createdAt.toISOString(),
            ...(a.digest ? { digest: a.digest } : {}),
          })),
        };
      }
      case 'GetSignedArtifactURL': {
        const r = this.parse(ByNameRequest, input);
        this.ownRun(run, r);
        const a = this.artifacts.find((x) => x.run === run && x.name === r.name && x.finalized);
        if (!a) throw new Twirp(404, 'not_found', 'artifact not found');
        return {
          signed_url: this.signedUrl(a.blobPath, 'r', 3600, { rscd: `attachment; filename="${a.name}.zip"` }),
        };
      }
      case 'DeleteArtifact': {
        const r = this.parse(ByNameRequest, input);
        this.ownRun(run, r);
        const i = this.artifacts.findIndex((x) => x.run === run && x.name === r.name && x.finalized);
        const a = this.artifacts[i];
        if (!a) throw new Twirp(404, 'not_found', 'artifact not found');
        this.artifacts.splice(i, 1);
        this.blobs.delete(a.blobPath);
        return { ok: true, artifact_id: String(a.id) };
      }
      default:
        throw new Twirp(404, 'bad_route', `no handler for path "/twirp/${ARTIFACT_SERVICE}/${method}"`);
    }
  }

  private cacheCall(method: string, input: unknown): unknown {
    switch (method) {
      case 'GetCacheEntryDownloadURL': {
        const r = this.parse(GetCacheEntryDownloadURLRequest, input);
        const ready = this.caches.filter((c) => c.finalized && c.version === r.version);
        let hit = ready.find((c) => c.key === r.key);
        for (const prefix of r.restore_keys ?? []) {
          if (hit) break;
          hit = ready.filter((c) => c.key.startsWith(prefix)).sort((a, b) => b.id - a.id)[0];
        }
        if (!hit) return { ok: false };
        return {
          ok: true,
          signed_download_url: this.signedUrl(hit.blobPath, 'r', 600),
          matched_key: hit.key,
        };
      }
      case 'CreateCacheEntry': {
        const r = this.parse(CreateCacheEntryRequest, input);
        if (this.caches.some((c) => c.key === r.key && c.version === r.version)) {
          throw new Twirp(
            409,
            'already_exists',
            'cache entry with the same key, version, and scope already exists',
          );
        }
        const id = this.nextId++;
        const blobPath = `/actions-cache/${createHash('sha256').update(`${r.key}|${r.version}|${id}`).digest('hex')}`;
        this.caches.push({
          id,
          key: r.key,
          version: r.version,
          blobPath,
          size: 0,
          createdAt: new Date(this.now()),
          finalized: false,
        });
        return { ok: true, signed_upload_url: this.signedUrl(blobPath, 'cw', 3600) };
      }
      case 'FinalizeCacheEntryUpload': {
        const r = this.parse(FinalizeCacheEntryUploadRequest, input);
        const c = this.caches.find((x) => x.key === r.key && x.version === r.version && !x.finalized);
        if (!c) throw new Twirp(404, 'not_found', 'cache entry not found');
        const data = this.blobs.get(c.blobPath)?.committed;
        if (!data || data.length !== r.size_bytes) {
          return { ok: false, message: 'the uploaded size does not match size_bytes' };
        }
        c.size = data.length;
        c.finalized = true;
        return { ok: true, entry_id: String(c.id) };
      }
      default:
        throw new Twirp(404, 'bad_route', `no handler for path "/twirp/${CACHE_SERVICE}/${method}"`);
    }
  }

  // ---- blob storage -------------------------------------------------------------------------------------------

  /** A SAS-style URL: `sp` permissions and `se` expiry, signed so that nothing else is accepted. */
  private signedUrl(
    path: string,
    sp: string,
    ttlSeconds: number,
    extra: Record<string, string> = {},
  ): string {
    const se = new Date(this.now() + ttlSeconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const q = new URLSearchParams({ sv: AZURE_VERSION, se, sr: 'b', sp, ...extra });
    q.set('sig', this.sign(`${path}\n${sp}\n${se}`).toString('hex'));
    const base =
      this.blobHost === 'azure'
        ? `http://${ACCOUNT}${BLOB_SUFFIX}`
        : `http://127.0.0.1:${this.port}/${ACCOUNT}`;
    return `${base}${path}?${q.toString()}`;
  }

  private checkSignature(path: string, q: URLSearchParams, need: 'r' | 'w'): void {
    const sp = q.get('sp') ?? '';
    const se = q.get('se') ?? '';
    const sig = q.get('sig') ?? '';
    const expected = this.sign(`${path}\n${sp}\n${se}`).toString('hex');
    const valid = sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
    if (!valid || !sp.includes(need) || Date.parse(se) < this.now()) {
      throw new BlobError(
        403,
        'AuthenticationFailed',
        'Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.',
      );
    }
  }

  private async blob(req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const q = url.searchParams;
    const comp = q.get('comp') ?? '';
    const range = req.headers['x-ms-range'] ?? req.headers.range;
    const op =
      method === 'PUT'
        ? comp === 'block'
          ? 'put-block'
          : comp === 'blocklist'
            ? 'put-block-list'
            : 'put-blob'
        : method === 'HEAD'
          ? 'head'
          : range
            ? 'get-range'
            : 'get';
    const body = await readBody(req);
    const reply = (status: number, headers: Record<string, string | number>, data?: Buffer) => {
      this.calls.push({ service: 'blob', method, op, status });
      res.writeHead(status, {
        'x-ms-request-id': randomUUID(),
        'x-ms-version': AZURE_VERSION,
        date: new Date().toUTCString(),
        ...headers,
      });
      res.end(method === 'HEAD' ? undefined : data);
    };
    try {
      const fault = this.takeFault('blob', op);
      if (fault) throw new BlobError(fault, fault === 503 ? 'ServerBusy' : 'InternalError', 'injected fault');
      this.checkSignature(path, q, method === 'PUT' ? 'w' : 'r');
      if (method === 'PUT') {
        const blob = this.blobs.get(path) ?? {
          committed: undefined,
          contentType: 'application/octet-stream',
          blocks: new Map<string, Buffer>(),
          etag: '',
          lastModified: new Date(),
        };
        this.blobs.set(path, blob);
        if (op === 'put-block') {
          const id = q.get('blockid');
          if (!id) throw new BlobError(400, 'InvalidQueryParameterValue', 'blockid is required');
          blob.blocks.set(id, body);
          return reply(201, { 'x-ms-request-server-encrypted': 'true', 'content-length': 0 });
        }
        if (op === 'put-block-list') {
          const ids = [
            ...body.toString('utf8').matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g),
          ].map((m) => m[2] ?? '');
          const parts = ids.map((id) => {
            const b = blob.blocks.get(id);
            if (!b) throw new BlobError(400, 'InvalidBlockList', 'The specified block list is invalid.');
            return b;
          });
          this.commit(blob, Buffer.concat(parts), req.headers['x-ms-blob-content-type']);
          return reply(
            201,
            this.etagHeaders(blob, { 'x-ms-request-server-encrypted': 'true', 'content-length': 0 }),
          );
        }
        if (req.headers['x-ms-blob-type'] !== 'BlockBlob') {
          throw new BlobError(
            400,
            'MissingRequiredHeader',
            'An HTTP header that is mandatory for this request is not specified.',
          );
        }
        this.commit(blob, body, req.headers['x-ms-blob-content-type'] ?? req.headers['content-type']);
        return reply(
          201,
          this.etagHeaders(blob, { 'x-ms-request-server-encrypted': 'true', 'content-length': 0 }),
        );
      }
      if (method !== 'GET' && method !== 'HEAD') {
        throw new BlobError(
          405,
          'UnsupportedHttpVerb',
          'The resource doesn\u2019t support the specified HTTP verb.',
        );
      }
      const blob = this.blobs.get(path);
      const data = blob?.committed;
      if (!blob || !data) throw new BlobError(404, 'BlobNotFound', 'The specified blob does not exist.');
      const headers: Record<string, string | number> = this.etagHeaders(blob, {
        'content-type': q.get('rsct') ?? blob.contentType,
        'accept-ranges': 'bytes',
        'x-ms-blob-type': 'BlockBlob',
        'x-ms-lease-status': 'unlocked',
        'x-ms-lease-state': 'available',
        'x-ms-server-encrypted': 'true',
        'x-ms-creation-time': blob.lastModified.toUTCString(),
      });
      const rscd = q.get('rscd');
      if (rscd) headers['content-disposition'] = rscd;
      const m = typeof range === 'string' ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
      if (range && method === 'GET') {
        if (!m)
          throw new BlobError(
            416,
            'InvalidRange',
            'The range specified is invalid for the current size of the resource.',
          );
        const start = Number(m[1]);
        const end = Math.min(m[2] ? Number(m[2]) : data.length - 1, data.length - 1);
        if (start >= data.length || end < start) {
          throw new BlobError(
            416,
            'InvalidRange',
            'The range specified is invalid for the current size of the resource.',
          );
        }
        const slice = data.subarray(start, end + 1);
        return reply(
          206,
          {
            ...headers,
            'content-length': slice.length,
            'content-range': `bytes ${start}-${end}/${data.length}`,
            'x-ms-blob-content-length': data.length,
          },
          slice,
        );
      }
      return reply(200, { ...headers, 'content-length': data.length }, data);
    } catch (e) {
      if (!(e instanceof BlobError)) throw e;
      const xml = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${e.code}</Code><Message>${e.message}\nRequestId:${randomUUID()}\nTime:${new Date().toISOString()}</Message></Error>`;
      reply(
        e.status,
        {
          'content-type': 'application/xml',
          'x-ms-error-code': e.code,
          'content-length': Buffer.byteLength(xml),
        },
        Buffer.from(xml),
      );
    }
  }

  private commit(blob: Blob, data: Buffer, contentType: string | string[] | undefined): void {
    blob.committed = data;
    blob.blocks.clear();
    if (typeof contentType === 'string' && contentType) blob.contentType = contentType;
    blob.lastModified = new Date();
    blob.etag = `"0x${createHash('md5').update(data).update(String(Date.now())).digest('hex').slice(0, 15).toUpperCase()}"`;
  }

  private etagHeaders(blob: Blob, extra: Record<string, string | number>): Record<string, string | number> {
    return { etag: blob.etag, 'last-modified': blob.lastModified.toUTCString(), ...extra };
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (b: Buffer) => chunks.push(b));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
