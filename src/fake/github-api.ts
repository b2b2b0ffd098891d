/**
 * A local, stateful stand-in for GitHub's REST API, reached by the real Octokit through `GITHUB_API_URL`.
 *
 * It keeps repositories, issues, pull requests (sharing the issue number sequence, as on GitHub), issue
 * comments, review comments, labels, reactions and collaborator permissions in memory, and answers in GitHub's
 * shapes. Every request is recorded. A request to a route it does not know gets a 404 AND lands in
 * `unexpected`, so `assertNoUnexpected()` makes a test fail on any call nobody planned for. A wrong or
 * missing token gets a 401, so tests prove the token is actually sent.
 *
 * GitHub behaviours mirrored on purpose, because our code must cope with them:
 * - `GET /pulls?head=branch` without an `owner:` prefix ignores the filter and lists every PR;
 * - creating a second open PR for the same head answers 422 "A pull request already exists";
 * - `PATCH /pulls/{n}` cannot change `draft` (only GraphQL can), so a `draft` field there is ignored; the
 *   two GraphQL mutations that can (`markPullRequestReadyForReview`, `convertPullRequestToDraft`) are served;
 * - creating a PR whose head branch does not exist (when a `resolveBranch` is configured) answers 422;
 * - the workflow-artifact endpoints (served when an `ArtifactsBackend` is attached, e.g. the fake Actions services
 *   of test/harness/fake-actions.ts) answer 403 "Resource not accessible by integration" when the token lacks
 *   `actions: read`, 404 for a run that does not exist (any more), list an expired artifact with `expired: true`
 *   and answer 410 to its download; a download is a 302 to a short-lived signed blob URL.
 * - a PR, issue or comment body over 65,536 characters answers 422 "body is too long (maximum is 65536
 *   characters)";
 * - with `forbidPullCreation`, creating a PR answers GitHub's 403 "GitHub Actions is not permitted to create or
 *   approve pull requests." (the repository setting that is off by default in new organisations);
 * - GraphQL `viewer { login }` names the token's identity (`GET /user` is 403 for an installation token);
 * - a comment a maintainer hid (`minimizeComment`) looks the same over REST; only GraphQL `nodes(ids:)` with
 *   `isMinimized`/`minimizedReason` on IssueComment or PullRequestReviewComment says so, and an id that resolves
 *   to nothing is null in `nodes` with a NOT_FOUND error beside the data.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exec } from '../util/exec.js';

export type RepoRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface FakeUser {
  login: string;
  type?: 'User' | 'Bot' | 'Organization';
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/repos/o/r/issues/1/comments`. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  /** The Authorization header carried the configured token. */
  authorized: boolean;
  /** When the request arrived (ms since the epoch), to order it against other fakes' records. */
  at: number;
}

export type FaultKind = 'bad-gateway' | 'server-error' | 'secondary-rate-limit' | 'rate-limit';

export interface FakeGitHubOptions {
  /** The only token accepted, as `token X` or `Bearer X`. */
  token: string;
  /** Base of `html_url`s. Default `https://github.com`. */
  serverUrl?: string;
  /** The identity behind the token: author of everything created through the API. */
  tokenUser?: FakeUser;
  /**
   * Resolves a branch of a repository (`owner/name`) to its head sha, e.g. from a bare origin. Without it,
   * every branch exists and shas are made up.
   */
  resolveBranch?: (repo: string, branch: string) => string | undefined | Promise<string | undefined>;
  /** Creating a pull request answers 403, as when Actions may not create pull requests in the repository. */
  forbidPullCreation?: boolean;
}

/** A workflow artifact the way the REST API shows it. */
export interface RestArtifact {
  id: number;
  name: string;
  sizeInBytes: number;
  /** `sha256:<hex>` of the zip, as FinalizeArtifact recorded it. */
  digest: string | null;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
  runId: number;
}

/** Where the REST artifact endpoints get their data: the fake Actions results service. */
export interface ArtifactsBackend {
  /** The run's artifacts (expired ones included, flagged), or undefined when the run does not exist (any more). */
  runArtifacts(repo: string, runId: number): RestArtifact[] | undefined;
  artifact(repo: string, id: number): RestArtifact | undefined;
  /** A signed blob URL of the artifact's zip, valid for a minute, as GitHub's redirect target. */
  signedZipUrl(repo: string, id: number): string;
}

/** Levels of a GITHUB_TOKEN permission scope. */
export type TokenPermission = 'none' | 'read' | 'write';
/** GitHub's limit on an issue, PR or comment body, in characters. */
export const MAX_BODY_CHARS = 65_536; // GitHub's documented limit; kept here, not imported, so the fake checks our code rather than echoing it

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: string;
  userType: string;
  createdAt: string;
  updatedAt: string;
}

export interface FakePull {
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  draft: boolean;
  head: string;
  headRepo: string | null;
  base: string;
  user: string;
  labels: string[];
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  updatedAt: string;
  state: 'open' | 'closed';
  labels: string[];
  user: string;
  isPullRequest: boolean;
}

export interface FakeReaction {
  content: string;
  /** `comment:<id>` or `issue:<number>`. */
  target: string;
  user: string;
}

interface StoredUser {
  login: string;
  type: string;
  id: number;
}

interface StoredPull {
  headRef: string;
  headOwner: string;
  /** `owner/name` of the head repository; null when the fork was deleted. */
  headRepo: string | null;
  baseRef: string;
  draft: boolean;
}

interface StoredIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  user: StoredUser;
  state: 'open' | 'closed';
  labels: string[];
  createdAt: string;
  updatedAt: string;
  pull?: StoredPull;
}

interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: StoredUser;
  createdAt: string;
  updatedAt: string;
  /** Why a maintainer hid it (GraphQL's lowercase `minimizedReason`), when hidden. */
  minimized?: string;
}

interface StoredReviewComment {
  id: number;
  pull: number;
  body: string;
  user: StoredUser;
  path: string;
  line: number | null;
  createdAt: string;
  minimized?: string;
}

interface StoredRepo {
  id: number;
  owner: string;
  name: string;
  defaultBranch: string;
  private: boolean;
  nextNumber: number;
  issues: Map<number, StoredIssue>;
  comments: StoredComment[];
  reviewComments: StoredReviewComment[];
  permissions: Map<string, { user: StoredUser; role: RepoRole; roleName: string }>;
}

interface Fault {
  method: string | undefined;
  path: string | RegExp;
  remaining: number;
  kind: FaultKind;
  retryAfter: number;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  params: Record<string, string>;
  repo: StoredRepo;
}

type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

const DOCS = 'https://docs.github.com/rest';

class HttpReply extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

function fail(status: number, message: string, errors?: unknown[]): never {
  throw new HttpReply({
    status,
    body: { message, ...(errors ? { errors } : {}), documentation_url: DOCS, status: String(status) },
  });
}

function validationFailed(message: string): never {
  fail(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message }]);
}

/** 422 for a body over GitHub's limit, in GitHub's words. */
function checkBodyLength(body: string | undefined, resource: string): void {
  if (body !== undefined && body.length > MAX_BODY_CHARS) {
    fail(422, 'Validation Failed', [
      {
        resource,
        code: 'custom',
        field: 'body',
        message: `body is too long (maximum is ${MAX_BODY_CHARS} characters)`,
      },
    ]);
  }
}

function asRecord(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) fail(400, 'Problems parsing JSON');
  return body as Record<string, unknown>;
}

function optString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string')
    fail(422, `Invalid request.\n\nFor '${key}', ${JSON.stringify(v)} is not a string.`);
  return v;
}

function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

function nodeId(kind: string, id: number): string {
  return Buffer.from(`${kind}:${id}`).toString('base64').replace(/=+$/, '');
}

/** Roles map to the legacy `permission` field the way GitHub does it. */
function legacyPermission(role: RepoRole): 'admin' | 'write' | 'read' | 'none' {
  if (role === 'admin') return 'admin';
  if (role === 'maintain' || role === 'write') return 'write';
  if (role === 'triage' || role === 'read') return 'read';
  return 'none';
}

export class FakeGitHub implements AsyncDisposable {
  readonly requests: RecordedRequest[] = [];
  readonly unexpected: RecordedRequest[] = [];
  readonly reactions: FakeReaction[] = [];

  private readonly token: string;
  private readonly serverUrl: string;
  private readonly tokenUser: StoredUser;
  private readonly resolveBranch: FakeGitHubOptions['resolveBranch'];
  /** See FakeGitHubOptions.forbidPullCreation; may be switched during a test. */
  forbidPullCreation: boolean;
  private readonly repos = new Map<string, StoredRepo>();
  private readonly users = new Map<string, StoredUser>();
  private readonly faults: Fault[] = [];
  private artifacts: ArtifactsBackend | undefined;
  private actionsPermission: TokenPermission = 'read';
  private readonly routes: { method: string; pattern: RegExp; keys: string[]; handler: Handler }[] = [];
  private server: Server | undefined;
  private baseUrl = '';
  private nextId = 1000;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  constructor(opts: FakeGitHubOptions) {
    this.token = opts.token;
    this.serverUrl = (opts.serverUrl ?? 'https://github.com').replace(/\/$/, '');
    this.tokenUser = this.user(opts.tokenUser ?? { login: 'github-actions[bot]', type: 'Bot' });
    this.resolveBranch = opts.resolveBranch;
    this.forbidPullCreation = opts.forbidPullCreation ?? false;
    this.defineRoutes();
  }

  /** The API base URL (`GITHUB_API_URL`). Only valid after `start()`. */
  get url(): string {
    if (!this.server) throw new Error('FakeGitHub is not started');
    return this.baseUrl;
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  // ---- seeding -------------------------------------------------------------------------------------------

  /** Adds a repository; the first one added is the default for every other seeding and reading method. */
  addRepo(o: { owner: string; name: string; defaultBranch?: string; private?: boolean }): string {
    const full = `${o.owner}/${o.name}`;
    this.repos.set(full.toLowerCase(), {
      id: this.id(),
      owner: o.owner,
      name: o.name,
      defaultBranch: o.defaultBranch ?? 'main',
      private: o.private ?? false,
      nextNumber: 1,
      issues: new Map(),
      comments: [],
      reviewComments: [],
      permissions: new Map(),
    });
    return full;
  }

  addIssue(o: {
    repo?: string;
    title: string;
    body?: string | null;
    user?: FakeUser | string;
    labels?: string[];
    state?: 'open' | 'closed';
  }): number {
    const repo = this.repoOf(o.repo);
    const issue = this.newIssue(repo, o.title, o.body ?? null, this.user(o.user ?? 'octocat'));
    issue.labels = [...(o.labels ?? [])];
    issue.state = o.state ?? 'open';
    return issue.number;
  }

  /** Seeds a PR, e.g. one opened by someone else or from a fork (`headRepo: 'someone/fork'`, or null). */
  addPull(o: {
    repo?: string;
    title: string;
    body?: string | null;
    head: string;
    headRepo?: string | null;
    base?: string;
    draft?: boolean;
    user?: FakeUser | string;
    state?: 'open' | 'closed';
  }): number {
    const repo = this.repoOf(o.repo);
    const issue = this.newIssue(repo, o.title, o.body ?? null, this.user(o.user ?? 'octocat'));
    const headRepo = o.headRepo === undefined ? `${repo.owner}/${repo.name}` : o.headRepo;
    issue.state = o.state ?? 'open';
    issue.pull = {
      headRef: o.head,
      headOwner: headRepo?.split('/')[0] ?? 'ghost',
      headRepo,
      baseRef: o.base ?? repo.defaultBranch,
      draft: o.draft ?? false,
    };
    return issue.number;
  }

  addComment(o: { repo?: string; issue: number; body: string; user?: FakeUser | string }): number {
    const repo = this.repoOf(o.repo);
    if (!repo.issues.has(o.issue)) throw new Error(`FakeGitHub: no issue #${o.issue}`);
    const now = this.now();
    const comment: StoredComment = {
      id: this.id(),
      issue: o.issue,
      body: o.body,
      user: this.user(o.user ?? 'octocat'),
      createdAt: now,
      updatedAt: now,
    };
    repo.comments.push(comment);
    return comment.id;
  }

  /** Someone edits an issue (or PR) through the web UI: its updated_at moves on. */
  editIssue(number: number, o: { title?: string; body?: string }, repoName?: string): void {
    const issue = this.repoOf(repoName).issues.get(number);
    if (!issue) throw new Error(`FakeGitHub: no issue #${number}`);
    if (o.title !== undefined) issue.title = o.title;
    if (o.body !== undefined) issue.body = o.body;
    issue.updatedAt = this.now();
  }

  /** Someone adds a label in the web UI: like any change to the issue, it moves updated_at on. */
  labelIssue(number: number, label: string, repoName?: string): void {
    const issue = this.repoOf(repoName).issues.get(number);
    if (!issue) throw new Error(`FakeGitHub: no issue #${number}`);
    if (!issue.labels.includes(label)) issue.labels.push(label);
    issue.updatedAt = this.now();
  }

  /** Someone edits a comment: its updated_at moves on. */
  editComment(id: number, body: string, repoName?: string): void {
    const comment = this.repoOf(repoName).comments.find((c) => c.id === id);
    if (!comment) throw new Error(`FakeGitHub: no comment ${id}`);
    comment.body = body;
    comment.updatedAt = this.now();
  }

  /** Someone deletes a comment. */
  deleteComment(id: number, repoName?: string): void {
    const repo = this.repoOf(repoName);
    const i = repo.comments.findIndex((c) => c.id === id);
    if (i === -1) throw new Error(`FakeGitHub: no comment ${id}`);
    repo.comments.splice(i, 1);
  }

  /**
   * A maintainer hides (minimizes) an issue, PR or review comment, as "Hide" in the web UI does. `reason` is what
   * GraphQL's `minimizedReason` reads back: abuse, off-topic, outdated, resolved, duplicate or spam.
   */
  minimizeComment(id: number, reason = 'off-topic', repoName?: string): void {
    const repo = this.repoOf(repoName);
    const comment = repo.comments.find((c) => c.id === id) ?? repo.reviewComments.find((c) => c.id === id);
    if (!comment) throw new Error(`FakeGitHub: no comment ${id}`);
    comment.minimized = reason;
  }

  addReviewComment(o: {
    repo?: string;
    pull: number;
    body: string;
    path: string;
    line?: number;
    user?: FakeUser | string;
  }): number {
    const repo = this.repoOf(o.repo);
    if (!repo.issues.get(o.pull)?.pull) throw new Error(`FakeGitHub: no pull request #${o.pull}`);
    const c: StoredReviewComment = {
      id: this.id(),
      pull: o.pull,
      body: o.body,
      path: o.path,
      line: o.line ?? null,
      user: this.user(o.user ?? 'octocat'),
      createdAt: this.now(),
    };
    repo.reviewComments.push(c);
    return c.id;
  }

  /**
   * Gives `login` a role on the repository: a built-in one, or a custom role (its own `role_name`) inheriting a
   * built-in base. Users never given one get a 404, like a login that does not exist.
   */
  setPermission(
    login: string | FakeUser,
    role: RepoRole | { custom: string; base: RepoRole },
    repoName?: string,
  ): void {
    const repo = this.repoOf(repoName);
    const user = this.user(login);
    const entry =
      typeof role === 'string'
        ? { user, role, roleName: role }
        : { user, role: role.base, roleName: role.custom };
    repo.permissions.set(user.login.toLowerCase(), entry);
  }

  /** Serves the workflow-artifact endpoints from `backend` (without one they are unknown routes). */
  serveArtifacts(backend: ArtifactsBackend): void {
    this.artifacts = backend;
  }

  /** The token's `actions` permission (a job's `permissions: actions: ...`); default `read`. */
  setActionsPermission(level: TokenPermission): void {
    this.actionsPermission = level;
  }

  /**
   * The next `times` requests matching method and path (exact path, or a RegExp tested against it) fail with
   * a 502, a 500, a secondary-rate-limit 403 or a primary-rate-limit 403, each with `retry-after` seconds.
   */
  failNext(o: {
    method?: string;
    path: string | RegExp;
    times?: number;
    kind: FaultKind;
    retryAfter?: number;
  }): void {
    this.faults.push({
      method: o.method?.toUpperCase(),
      path: o.path,
      remaining: o.times ?? 1,
      kind: o.kind,
      retryAfter: o.retryAfter ?? 1,
    });
  }

  // ---- reading -------------------------------------------------------------------------------------------

  pulls(repoName?: string): FakePull[] {
    const repo = this.repoOf(repoName);
    return [...repo.issues.values()]
      .filter((i) => i.pull)
      .map((i) => {
        const p = i.pull as StoredPull;
        return {
          number: i.number,
          title: i.title,
          body: i.body,
          state: i.state,
          draft: p.draft,
          head: p.headRef,
          headRepo: p.headRepo,
          base: p.baseRef,
          user: i.user.login,
          labels: [...i.labels],
        };
      });
  }

  issue(number: number, repoName?: string): FakeIssue | undefined {
    const i = this.repoOf(repoName).issues.get(number);
    if (!i) return undefined;
    return {
      number: i.number,
      title: i.title,
      body: i.body,
      updatedAt: i.updatedAt,
      state: i.state,
      labels: [...i.labels],
      user: i.user.login,
      isPullRequest: i.pull !== undefined,
    };
  }

  comments(issue: number, repoName?: string): FakeComment[] {
    return this.repoOf(repoName)
      .comments.filter((c) => c.issue === issue)
      .map((c) => ({
        id: c.id,
        issue: c.issue,
        body: c.body,
        user: c.user.login,
        userType: c.user.type,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
      }));
  }

  /** Throws listing every request to an endpoint the fake does not know (or to a repository it does not have). */
  assertNoUnexpected(): void {
    if (this.unexpected.length === 0) return;
    const list = this.unexpected.map((r) => `${r.method} ${r.path}`).join(', ');
    throw new Error(`FakeGitHub got ${this.unexpected.length} unexpected request(s): ${list}`);
  }

  // ---- internals -----------------------------------------------------------------------------------------

  private id(): number {
    return this.nextId++;
  }

  /** A clock that moves one second per event, so ordering by timestamp is deterministic. */
  private now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private user(u: FakeUser | string): StoredUser {
    const login = typeof u === 'string' ? u : u.login;
    const known = this.users.get(login.toLowerCase());
    if (known) return known;
    const type = typeof u === 'string' ? (login.endsWith('[bot]') ? 'Bot' : 'User') : (u.type ?? 'User');
    const user: StoredUser = { login, type, id: this.id() };
    this.users.set(login.toLowerCase(), user);
    return user;
  }

  private repoOf(name?: string): StoredRepo {
    const repo = name ? this.repos.get(name.toLowerCase()) : this.repos.values().next().value;
    if (!repo) throw new Error(`FakeGitHub: no repository ${name ?? '(none added)'}`);
    return repo;
  }

  private newIssue(repo: StoredRepo, title: string, body: string | null, user: StoredUser): StoredIssue {
    const now = this.now();
    const issue: StoredIssue = {
      id: this.id(),
      number: repo.nextNumber++,
      title,
      body,
      user,
      state: 'open',
      labels: [],
      createdAt: now,
      updatedAt: now,
    };
    repo.issues.set(issue.number, issue);
    return issue;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query,
      body: undefined,
      status: 0,
      authorized: false,
      at: Date.now(),
    };
    this.requests.push(record);
    let reply: Reply;
    try {
      const raw = await readBody(req);
      if (raw.length > 0) {
        try {
          record.body = JSON.parse(raw) as unknown;
        } catch {
          record.body = raw;
          fail(400, 'Problems parsing JSON');
        }
      }
      record.authorized = this.isAuthorized(req.headers.authorization);
      if (!record.authorized) fail(401, 'Bad credentials');
      const fault = this.takeFault(method, url.pathname);
      reply = fault ?? (await this.route(method, url, record));
    } catch (e) {
      if (!(e instanceof HttpReply)) {
        reply = { status: 500, body: { message: `FakeGitHub bug: ${String(e)}` } };
      } else {
        reply = e.reply;
      }
    }
    record.status = reply.status;
    const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-media-type': 'github.v3; format=json',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-github-request-id': `FAKE:${this.requests.length}`,
      ...reply.headers,
    });
    res.end(payload);
  }

  private isAuthorized(header: string | undefined): boolean {
    if (!header) return false;
    const m = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
    return m?.[1] === this.token;
  }

  private takeFault(method: string, path: string): Reply | undefined {
    const fault = this.faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.method === undefined || f.method === method) &&
        (typeof f.path === 'string' ? f.path === path : f.path.test(path)),
    );
    if (!fault) return undefined;
    fault.remaining--;
    const retry = { 'retry-after': String(fault.retryAfter) };
    switch (fault.kind) {
      case 'bad-gateway':
        return { status: 502, body: { message: 'Server Error' } };
      case 'server-error':
        return { status: 500, body: { message: 'Server Error' } };
      case 'secondary-rate-limit':
        return {
          status: 403,
          headers: retry,
          body: {
            message:
              'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID FAKE.',
            documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
            status: '403',
          },
        };
      case 'rate-limit':
        return {
          status: 403,
          headers: {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + fault.retryAfter),
          },
          body: { message: 'API rate limit exceeded for installation ID 1.', documentation_url: DOCS },
        };
    }
  }

  private async route(method: string, url: URL, record: RecordedRequest): Promise<Reply> {
    if (method === 'POST' && url.pathname === '/graphql') return this.graphql(record);
    for (const r of this.routes) {
      if (r.method !== method) continue;
      const m = r.pattern.exec(url.pathname);
      if (!m) continue;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
      const repo = this.repos.get(`${params.owner}/${params.repo}`.toLowerCase());
      if (!repo) {
        // A repository the test never added is a mistake in the code under test, not a GitHub answer to expect.
        this.unexpected.push(record);
        fail(404, 'Not Found');
      }
      return r.handler({
        method,
        path: url.pathname,
        query: url.searchParams,
        body: record.body,
        params,
        repo,
      });
    }
    this.unexpected.push(record);
    fail(404, 'Not Found');
  }

  private on(method: string, template: string, handler: Handler): void {
    const keys: string[] = [];
    const source = template.replace(/:(\w+)/g, (_, k: string) => {
      keys.push(k);
      return '([^/]+)';
    });
    this.routes.push({ method, pattern: new RegExp(`^${source}/?$`), keys, handler });
  }

  private defineRoutes(): void {
    const R = '/repos/:owner/:repo';
    this.on('GET', R, (c) => ({ status: 200, body: this.repoJson(c.repo) }));

    this.on('GET', `${R}/issues/:number`, (c) => ({
      status: 200,
      body: this.issueJson(c.repo, this.issueAt(c)),
    }));
    this.on('PATCH', `${R}/issues/:number`, (c) => {
      const issue = this.issueAt(c);
      const b = asRecord(c.body);
      const title = optString(b, 'title');
      checkBodyLength(optString(b, 'body'), 'Issue');
      if (title !== undefined) issue.title = title;
      if ('body' in b) issue.body = optString(b, 'body') ?? null;
      const state = optString(b, 'state');
      if (state === 'open' || state === 'closed') issue.state = state;
      if (Array.isArray(b.labels)) issue.labels = b.labels.map(String);
      issue.updatedAt = this.now();
      return { status: 200, body: this.issueJson(c.repo, issue) };
    });

    this.on('GET', `${R}/issues/:number/comments`, (c) => {
      const issue = this.issueAt(c);
      const all = c.repo.comments
        .filter((x) => x.issue === issue.number)
        .map((x) => this.commentJson(c.repo, x));
      return this.paginate(c, all);
    });
    this.on('POST', `${R}/issues/:number/comments`, (c) => {
      const issue = this.issueAt(c);
      const body = optString(asRecord(c.body), 'body');
      if (body === undefined) fail(422, 'Invalid request.\n\n"body" wasn\'t supplied.');
      checkBodyLength(body, 'IssueComment');
      const now = this.now();
      const comment: StoredComment = {
        id: this.id(),
        issue: issue.number,
        body,
        user: this.tokenUser,
        createdAt: now,
        updatedAt: now,
      };
      c.repo.comments.push(comment);
      return { status: 201, body: this.commentJson(c.repo, comment) };
    });
    this.on('GET', `${R}/issues/comments/:id`, (c) => ({
      status: 200,
      body: this.commentJson(c.repo, this.commentAt(c)),
    }));
    this.on('PATCH', `${R}/issues/comments/:id`, (c) => {
      const comment = this.commentAt(c);
      const body = optString(asRecord(c.body), 'body');
      if (body === undefined) fail(422, 'Invalid request.\n\n"body" wasn\'t supplied.');
      checkBodyLength(body, 'IssueComment');
      comment.body = body;
      comment.updatedAt = this.now();
      return { status: 200, body: this.commentJson(c.repo, comment) };
    });
    this.on('POST', `${R}/issues/comments/:id/reactions`, (c) => {
      const comment = this.commentAt(c);
      return this.react(c, `comment:${comment.id}`);
    });
    this.on('POST', `${R}/issues/:number/reactions`, (c) => this.react(c, `issue:${this.issueAt(c).number}`));

    this.on('GET', `${R}/issues/:number/labels`, (c) =>
      this.paginate(c, this.labelsJson(this.issueAt(c).labels)),
    );
    this.on('POST', `${R}/issues/:number/labels`, (c) => {
      const issue = this.issueAt(c);
      const raw = Array.isArray(c.body) ? c.body : asRecord(c.body).labels;
      if (!Array.isArray(raw)) fail(422, 'Invalid request.\n\n"labels" wasn\'t supplied.');
      for (const l of raw.map((x) => (typeof x === 'string' ? x : String(asRecord(x).name)))) {
        if (!issue.labels.includes(l)) issue.labels.push(l);
      }
      return { status: 200, body: this.labelsJson(issue.labels) };
    });
    this.on('DELETE', `${R}/issues/:number/labels/:name`, (c) => {
      const issue = this.issueAt(c);
      const name = c.params.name ?? '';
      if (!issue.labels.includes(name)) fail(404, 'Label does not exist');
      issue.labels = issue.labels.filter((l) => l !== name);
      return { status: 200, body: this.labelsJson(issue.labels) };
    });

    this.on('GET', `${R}/pulls`, async (c) => {
      const state = c.query.get('state') ?? 'open';
      const head = c.query.get('head');
      const base = c.query.get('base');
      let pulls = [...c.repo.issues.values()].filter((i) => i.pull);
      if (state !== 'all') pulls = pulls.filter((i) => i.state === state);
      // GitHub ignores a head filter without an `owner:` prefix and lists everything; code must not rely on it.
      if (head?.includes(':')) {
        const [owner, ref] = splitOnce(head, ':');
        pulls = pulls.filter(
          (i) => i.pull?.headOwner.toLowerCase() === owner.toLowerCase() && i.pull.headRef === ref,
        );
      }
      if (base) pulls = pulls.filter((i) => i.pull?.baseRef === base);
      const direction = c.query.get('direction') ?? 'desc';
      pulls.sort((a, b) => (direction === 'asc' ? a.number - b.number : b.number - a.number));
      const json = await Promise.all(pulls.map((i) => this.pullJson(c.repo, i)));
      return this.paginate(c, json);
    });
    this.on('POST', `${R}/pulls`, async (c) => {
      const b = asRecord(c.body);
      const title = optString(b, 'title');
      const headSpec = optString(b, 'head');
      const base = optString(b, 'base');
      if (this.forbidPullCreation) {
        fail(403, 'GitHub Actions is not permitted to create or approve pull requests.');
      }
      if (!title || !headSpec || !base)
        fail(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'missing_field' }]);
      checkBodyLength(optString(b, 'body'), 'PullRequest');
      const [headOwner, headRef] = headSpec.includes(':')
        ? splitOnce(headSpec, ':')
        : [c.repo.owner, headSpec];
      if (headOwner.toLowerCase() !== c.repo.owner.toLowerCase()) {
        validationFailed(
          `head: cross-repository pull requests are not supported by FakeGitHub (${headSpec})`,
        );
      }
      const full = `${c.repo.owner}/${c.repo.name}`;
      const existing = [...c.repo.issues.values()].find(
        (i) =>
          i.state === 'open' &&
          i.pull?.headRef === headRef &&
          i.pull.headOwner.toLowerCase() === headOwner.toLowerCase(),
      );
      if (existing) validationFailed(`A pull request already exists for ${headOwner}:${headRef}.`);
      if (this.resolveBranch) {
        const headSha = await this.resolveBranch(full, headRef);
        const baseSha = await this.resolveBranch(full, base);
        if (!headSha)
          fail(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
        if (!baseSha)
          fail(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
        if (headSha === baseSha) validationFailed(`No commits between ${base} and ${headRef}`);
      }
      const issue = this.newIssue(c.repo, title, optString(b, 'body') ?? null, this.tokenUser);
      issue.pull = {
        headRef,
        headOwner: c.repo.owner,
        headRepo: full,
        baseRef: base,
        draft: b.draft === true,
      };
      return { status: 201, body: await this.pullJson(c.repo, issue) };
    });
    this.on('GET', `${R}/pulls/:number`, async (c) => ({
      status: 200,
      body: await this.pullJson(c.repo, this.pullAt(c)),
    }));
    this.on('PATCH', `${R}/pulls/:number`, async (c) => {
      const issue = this.pullAt(c);
      const b = asRecord(c.body);
      const title = optString(b, 'title');
      checkBodyLength(optString(b, 'body'), 'PullRequest');
      if (title !== undefined) issue.title = title;
      if ('body' in b) issue.body = optString(b, 'body') ?? null;
      const state = optString(b, 'state');
      if (state === 'open' || state === 'closed') issue.state = state;
      const base = optString(b, 'base');
      if (base !== undefined && issue.pull) issue.pull.baseRef = base;
      // `draft` is deliberately ignored: GitHub's REST API cannot change it on an existing PR.
      issue.updatedAt = this.now();
      return { status: 200, body: await this.pullJson(c.repo, issue) };
    });
    this.on('GET', `${R}/pulls/:number/comments`, (c) => {
      const pull = this.pullAt(c);
      const all = c.repo.reviewComments
        .filter((x) => x.pull === pull.number)
        .map((x) => this.reviewCommentJson(c.repo, x));
      return this.paginate(c, all);
    });

    this.on('GET', `${R}/collaborators/:user/permission`, (c) => {
      const entry = c.repo.permissions.get((c.params.user ?? '').toLowerCase());
      if (!entry) fail(404, `${c.params.user} is not a user`);
      return {
        status: 200,
        body: {
          permission: legacyPermission(entry.role),
          role_name: entry.roleName,
          user: { ...this.userJson(entry.user), permissions: {} },
        },
      };
    });

    // Workflow artifacts (GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts and
    // .../actions/artifacts/{artifact_id}/{archive_format}), as @actions/artifact's `findBy` calls them.
    this.on('GET', `${R}/actions/runs/:run_id/artifacts`, (c) => {
      const backend = this.artifactsFor(c, 'list-workflow-run-artifacts');
      const all = backend.runArtifacts(`${c.repo.owner}/${c.repo.name}`, Number(c.params.run_id));
      if (!all) fail(404, 'Not Found');
      const name = c.query.get('name');
      const matching = all.filter((a) => name === null || a.name === name).sort((a, b) => b.id - a.id);
      const perPage = Math.min(Math.max(Number(c.query.get('per_page') ?? 30) || 30, 1), 100);
      const page = Math.max(Number(c.query.get('page') ?? 1) || 1, 1);
      return {
        status: 200,
        body: {
          total_count: matching.length,
          artifacts: matching
            .slice((page - 1) * perPage, page * perPage)
            .map((a) => this.artifactJson(c.repo, a)),
        },
      };
    });
    this.on('GET', `${R}/actions/artifacts/:artifact_id/:archive_format`, (c) => {
      const backend = this.artifactsFor(c, 'download-an-artifact');
      const full = `${c.repo.owner}/${c.repo.name}`;
      const artifact = backend.artifact(full, Number(c.params.artifact_id));
      if (!artifact || c.params.archive_format !== 'zip') fail(404, 'Not Found');
      if (artifact.expired) fail(410, 'Artifact has expired');
      return { status: 302, headers: { location: backend.signedZipUrl(full, artifact.id) } };
    });
  }

  private artifactsFor(c: Ctx, doc: string): ArtifactsBackend {
    if (!this.artifacts) {
      // Nobody attached the Actions services: the call was not planned for.
      const query = Object.fromEntries(c.query);
      this.unexpected.push({
        method: c.method,
        path: c.path,
        query,
        body: c.body,
        status: 404,
        authorized: true,
        at: Date.now(),
      });
      fail(404, 'Not Found');
    }
    if (this.actionsPermission === 'none') {
      throw new HttpReply({
        status: 403,
        body: {
          message: 'Resource not accessible by integration',
          documentation_url: `${DOCS}/actions/artifacts#${doc}`,
          status: '403',
        },
      });
    }
    return this.artifacts;
  }

  private artifactJson(r: StoredRepo, a: RestArtifact): Record<string, unknown> {
    return {
      id: a.id,
      node_id: nodeId('Artifact', a.id),
      name: a.name,
      size_in_bytes: a.sizeInBytes,
      url: `${this.apiRepoUrl(r)}/actions/artifacts/${a.id}`,
      archive_download_url: `${this.apiRepoUrl(r)}/actions/artifacts/${a.id}/zip`,
      expired: a.expired,
      digest: a.digest,
      created_at: a.createdAt,
      updated_at: a.createdAt,
      expires_at: a.expiresAt,
      workflow_run: {
        id: a.runId,
        repository_id: r.id,
        head_repository_id: r.id,
        head_branch: r.defaultBranch,
        head_sha: fakeSha(`run:${a.runId}`),
      },
    };
  }

  /**
   * GraphQL: `viewer { login }`, the minimized state of comments by node id, and the two mutations REST lacks
   * (flipping a PR between draft and ready; variables carry `pullRequestId`). Anything else is unexpected.
   */
  private graphql(record: RecordedRequest): Reply {
    const b = asRecord(record.body);
    const query = typeof b.query === 'string' ? b.query : '';
    const vars = asRecord(b.variables);
    if (/^\s*(query\s*\w*\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*$/.test(query)) {
      return { status: 200, body: { data: { viewer: { login: this.tokenUser.login } } } };
    }
    if (/\bnodes\s*\(\s*ids\s*:/.test(query) && /\bisMinimized\b/.test(query)) {
      return this.minimizedNodes(query, vars.ids);
    }
    const op = /\b(markPullRequestReadyForReview|convertPullRequestToDraft)\s*\(/.exec(query)?.[1];
    if (!op) {
      this.unexpected.push(record);
      return {
        status: 200,
        body: { data: null, errors: [{ message: 'FakeGitHub does not know this GraphQL operation' }] },
      };
    }
    const id = vars.pullRequestId;
    for (const repo of this.repos.values()) {
      for (const issue of repo.issues.values()) {
        if (issue.pull && nodeId('PullRequest', issue.id) === id) {
          issue.pull.draft = op === 'convertPullRequestToDraft';
          issue.updatedAt = this.now();
          return {
            status: 200,
            body: { data: { [op]: { pullRequest: { number: issue.number, isDraft: issue.pull.draft } } } },
          };
        }
      }
    }
    return {
      status: 200,
      body: {
        data: { [op]: null },
        errors: [
          {
            type: 'NOT_FOUND',
            path: [op],
            message: `Could not resolve to a node with the global id of '${String(id)}'`,
          },
        ],
      },
    };
  }

  /**
   * `nodes(ids: $ids) { ... on IssueComment { id isMinimized minimizedReason } ... }`: each id resolves to the
   * fields its type's fragment asks for (none for a type with no fragment), or to null with a NOT_FOUND error.
   */
  private minimizedNodes(query: string, ids: unknown): Reply {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      return {
        status: 200,
        body: { errors: [{ message: 'Variable $ids of type [ID!]! was provided invalid value' }] },
      };
    }
    const fragment = (type: string): string[] =>
      new RegExp(String.raw`\.\.\.\s*on\s+${type}\s*\{([^}]*)\}`)
        .exec(query)?.[1]
        ?.trim()
        .split(/[\s,]+/) ?? [];
    const errors: unknown[] = [];
    const nodes = (ids as string[]).map((id, i) => {
      for (const repo of this.repos.values()) {
        const issueComment = repo.comments.find((c) => nodeId('IssueComment', c.id) === id);
        const reviewComment = repo.reviewComments.find(
          (c) => nodeId('PullRequestReviewComment', c.id) === id,
        );
        const hit = issueComment ?? reviewComment;
        if (!hit) continue;
        const fields = fragment(issueComment ? 'IssueComment' : 'PullRequestReviewComment');
        const all: Record<string, unknown> = {
          id,
          isMinimized: hit.minimized !== undefined,
          minimizedReason: hit.minimized ?? null,
        };
        return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
      }
      errors.push({
        type: 'NOT_FOUND',
        path: ['nodes', i],
        locations: [{ line: 2, column: 3 }],
        message: `Could not resolve to a node with the global id of '${id}'`,
      });
      return null;
    });
    return { status: 200, body: { data: { nodes }, ...(errors.length ? { errors } : {}) } };
  }

  private react(c: Ctx, target: string): Reply {
    const content = optString(asRecord(c.body), 'content');
    const allowed = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];
    if (!content || !allowed.includes(content))
      fail(422, 'Validation Failed', [{ resource: 'Reaction', field: 'content', code: 'invalid' }]);
    this.reactions.push({ content, target, user: this.tokenUser.login });
    return {
      status: 201,
      body: { id: this.id(), content, user: this.userJson(this.tokenUser), created_at: this.now() },
    };
  }

  private issueAt(c: Ctx): StoredIssue {
    const issue = c.repo.issues.get(Number(c.params.number));
    if (!issue) fail(404, 'Not Found');
    return issue;
  }

  private pullAt(c: Ctx): StoredIssue {
    const issue = this.issueAt(c);
    if (!issue.pull) fail(404, 'Not Found');
    return issue;
  }

  private commentAt(c: Ctx): StoredComment {
    const comment = c.repo.comments.find((x) => x.id === Number(c.params.id));
    if (!comment) fail(404, 'Not Found');
    return comment;
  }

  private paginate(c: Ctx, all: unknown[]): Reply {
    const perPage = Math.min(Math.max(Number(c.query.get('per_page') ?? 30) || 30, 1), 100);
    const page = Math.max(Number(c.query.get('page') ?? 1) || 1, 1);
    const last = Math.max(Math.ceil(all.length / perPage), 1);
    const body = all.slice((page - 1) * perPage, page * perPage);
    const link = (p: number, rel: string): string => {
      const q = new URLSearchParams(c.query);
      q.set('per_page', String(perPage));
      q.set('page', String(p));
      return `<${this.baseUrl}${c.path}?${q.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'));
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    if (page > 1) links.push(link(1, 'first'));
    return { status: 200, body, headers: links.length ? { link: links.join(', ') } : {} };
  }

  private apiRepoUrl(r: StoredRepo): string {
    return `${this.baseUrl}/repos/${r.owner}/${r.name}`;
  }

  private htmlRepoUrl(r: StoredRepo): string {
    return `${this.serverUrl}/${r.owner}/${r.name}`;
  }

  private userJson(u: StoredUser): Record<string, unknown> {
    return {
      login: u.login,
      id: u.id,
      node_id: nodeId('User', u.id),
      type: u.type,
      site_admin: false,
      url: `${this.baseUrl}/users/${encodeURIComponent(u.login)}`,
      html_url: `${this.serverUrl}/${u.login}`,
    };
  }

  private repoJson(r: StoredRepo): Record<string, unknown> {
    return {
      id: r.id,
      node_id: nodeId('Repository', r.id),
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      owner: this.userJson(this.user(r.owner)),
      private: r.private,
      fork: false,
      html_url: this.htmlRepoUrl(r),
      url: this.apiRepoUrl(r),
      clone_url: `${this.htmlRepoUrl(r)}.git`,
      default_branch: r.defaultBranch,
      visibility: r.private ? 'private' : 'public',
    };
  }

  /** A repository JSON for a PR head that lives elsewhere (a fork). */
  private foreignRepoJson(full: string): Record<string, unknown> {
    const [owner = 'ghost', name = full] = full.split('/');
    const id = Number.parseInt(fakeSha(full).slice(0, 6), 16);
    return {
      id,
      node_id: nodeId('Repository', id),
      name,
      full_name: full,
      owner: this.userJson(this.user(owner)),
      private: false,
      fork: true,
      html_url: `${this.serverUrl}/${full}`,
      url: `${this.baseUrl}/repos/${full}`,
    };
  }

  private labelsJson(labels: string[]): Record<string, unknown>[] {
    return labels.map((name) => {
      const id = Number.parseInt(fakeSha(`label:${name}`).slice(0, 8), 16);
      return { id, node_id: nodeId('Label', id), name, color: 'ededed', default: false, description: null };
    });
  }

  private issueJson(r: StoredRepo, i: StoredIssue): Record<string, unknown> {
    const api = `${this.apiRepoUrl(r)}/issues/${i.number}`;
    const kind = i.pull ? 'pull' : 'issues';
    return {
      id: i.id,
      node_id: nodeId(i.pull ? 'PullRequest' : 'Issue', i.id),
      number: i.number,
      title: i.title,
      body: i.body,
      user: this.userJson(i.user),
      state: i.state,
      state_reason: null,
      locked: false,
      labels: this.labelsJson(i.labels),
      assignees: [],
      comments: r.comments.filter((c) => c.issue === i.number).length,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
      closed_at: null,
      author_association: this.association(r, i.user),
      url: api,
      repository_url: this.apiRepoUrl(r),
      comments_url: `${api}/comments`,
      html_url: `${this.htmlRepoUrl(r)}/${kind}/${i.number}`,
      ...(i.pull
        ? {
            pull_request: {
              url: `${this.apiRepoUrl(r)}/pulls/${i.number}`,
              html_url: `${this.htmlRepoUrl(r)}/pull/${i.number}`,
              merged_at: null,
            },
            draft: i.pull.draft,
          }
        : {}),
    };
  }

  private async pullJson(r: StoredRepo, i: StoredIssue): Promise<Record<string, unknown>> {
    const p = i.pull as StoredPull;
    const full = `${r.owner}/${r.name}`;
    const headSha =
      (p.headRepo && this.resolveBranch ? await this.resolveBranch(p.headRepo, p.headRef) : undefined) ??
      fakeSha(`${p.headRepo ?? 'ghost'}:${p.headRef}`);
    const baseSha =
      (this.resolveBranch ? await this.resolveBranch(full, p.baseRef) : undefined) ??
      fakeSha(`${full}:${p.baseRef}`);
    const api = `${this.apiRepoUrl(r)}/pulls/${i.number}`;
    return {
      id: i.id,
      node_id: nodeId('PullRequest', i.id),
      number: i.number,
      url: api,
      html_url: `${this.htmlRepoUrl(r)}/pull/${i.number}`,
      issue_url: `${this.apiRepoUrl(r)}/issues/${i.number}`,
      comments_url: `${this.apiRepoUrl(r)}/issues/${i.number}/comments`,
      review_comments_url: `${api}/comments`,
      state: i.state,
      locked: false,
      title: i.title,
      body: i.body,
      user: this.userJson(i.user),
      labels: this.labelsJson(i.labels),
      draft: p.draft,
      merged: false,
      merged_at: null,
      mergeable: null,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
      closed_at: null,
      author_association: this.association(r, i.user),
      head: {
        label: `${p.headOwner}:${p.headRef}`,
        ref: p.headRef,
        sha: headSha,
        user: this.userJson(this.user(p.headOwner)),
        repo:
          p.headRepo === null
            ? null
            : p.headRepo === full
              ? this.repoJson(r)
              : this.foreignRepoJson(p.headRepo),
      },
      base: {
        label: `${r.owner}:${p.baseRef}`,
        ref: p.baseRef,
        sha: baseSha,
        user: this.userJson(this.user(r.owner)),
        repo: this.repoJson(r),
      },
    };
  }

  private commentJson(r: StoredRepo, c: StoredComment): Record<string, unknown> {
    const issue = r.issues.get(c.issue);
    const kind = issue?.pull ? 'pull' : 'issues';
    return {
      id: c.id,
      node_id: nodeId('IssueComment', c.id),
      url: `${this.apiRepoUrl(r)}/issues/comments/${c.id}`,
      html_url: `${this.htmlRepoUrl(r)}/${kind}/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${this.apiRepoUrl(r)}/issues/${c.issue}`,
      body: c.body,
      user: this.userJson(c.user),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      author_association: this.association(r, c.user),
    };
  }

  private reviewCommentJson(r: StoredRepo, c: StoredReviewComment): Record<string, unknown> {
    return {
      id: c.id,
      node_id: nodeId('PullRequestReviewComment', c.id),
      url: `${this.apiRepoUrl(r)}/pulls/comments/${c.id}`,
      html_url: `${this.htmlRepoUrl(r)}/pull/${c.pull}#discussion_r${c.id}`,
      pull_request_url: `${this.apiRepoUrl(r)}/pulls/${c.pull}`,
      body: c.body,
      path: c.path,
      line: c.line,
      original_line: c.line,
      side: 'RIGHT',
      diff_hunk: '',
      commit_id: fakeSha(`review:${c.id}`),
      user: this.userJson(c.user),
      created_at: c.createdAt,
      updated_at: c.createdAt,
      author_association: this.association(r, c.user),
    };
  }

  private association(r: StoredRepo, u: StoredUser): string {
    if (u.login.toLowerCase() === r.owner.toLowerCase()) return 'OWNER';
    const role = r.permissions.get(u.login.toLowerCase())?.role;
    return role && role !== 'none' ? 'COLLABORATOR' : 'NONE';
  }
}

/**
 * A `resolveBranch` backed by real bare repositories (`owner/name` → path), so the fake only accepts PRs for
 * branches that were actually pushed, and reports their real head sha.
 */
export function branchesFromGit(
  bareByRepo: Record<string, string>,
): NonNullable<FakeGitHubOptions['resolveBranch']> {
  return async (repo, branch) => {
    const dir =
      bareByRepo[repo] ??
      Object.entries(bareByRepo).find(([k]) => k.toLowerCase() === repo.toLowerCase())?.[1];
    if (!dir) return undefined;
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^GIT_/.test(k)));
    const r = await exec(
      'git',
      ['--git-dir', dir, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`],
      {
        env,
        allowAllExitCodes: true,
      },
    );
    return r.exitCode === 0 ? r.stdout.trim() : undefined;
  };
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return [s.slice(0, i), s.slice(i + sep.length)];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (b: Buffer) => chunks.push(b));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
