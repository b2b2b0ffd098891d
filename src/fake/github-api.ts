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
 * - `POST /issues/{n}/assignees` silently drops a login without access to the repository; `POST
 *   /pulls/{n}/requested_reviewers` refuses the whole request (422 "Reviews may only be requested from
 *   collaborators…") when one login or team is not a collaborator, and asks nobody then;
 * - GraphQL `viewer { login }` names the token's identity (`GET /user` is 403 for an installation token);
 * - a comment a maintainer hid (`minimizeComment`) looks the same over REST; only GraphQL `nodes(ids:)` with
 *   `isMinimized`/`minimizedReason` on IssueComment or PullRequestReviewComment says so, and an id that resolves
 *   to nothing is null in `nodes` with a NOT_FOUND error beside the data.
 *
 * This module is what tests, the demo and the probe use: seeding, reading, faults, start and stop. Below it,
 * `github/`: the state (`state.ts`), the request's way in (`server.ts`: log, token, faults, then `routes.ts`, the
 * table assembled from one module of routes per resource), GitHub's error shapes (`http.ts`) and the JSON shapes
 * resources share (`shapes.ts`).
 */
import {
  addCheckSuite,
  addWorkflowRun,
  type FakeCheckSuite,
  type FakeWorkflowRun,
} from './github/workflow-runs.js';
import {
  addWorkflow,
  recordRun,
  updateRun,
  type FakeRunRecord,
  type FakeWorkflow,
} from './github/workflows.js';
import { labelEvent } from './github/labels.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exec } from '../util/exec.js';
import type { FaultKind } from './github/faults.js';
import { addTeam, controlsOf } from './github/pull-controls.js';
import { handleRequest } from './github/server.js';
import {
  GitHubState,
  type ArtifactsBackend,
  type FakeReaction,
  type FakeUser,
  type RecordedRequest,
  type RepoRole,
  type ResolveBranch,
  type RestArtifact,
  type StoredComment,
  type StoredIssue,
  type StoredPull,
  type StoredReview,
  type StoredReviewComment,
  type TokenPermission,
} from './github/state.js';

export type {
  FakeWorkflow,
  ArtifactsBackend,
  FakeReaction,
  FakeUser,
  FaultKind,
  RecordedRequest,
  RepoRole,
  RestArtifact,
  TokenPermission,
};

export type FakeReview = Omit<StoredReview, 'user'> & { user: string };

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
  resolveBranch?: ResolveBranch;
  /** Creating a pull request answers 403, as when Actions may not create pull requests in the repository. */
  forbidPullCreation?: boolean;
  /**
   * The bare repository behind a repository (`owner/name` → path): the Git database API (blobs, trees, commits,
   * refs) is served over it, so commits created through the API are real objects there.
   */
  gitDirs?: Record<string, string>;
}

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

export class FakeGitHub implements AsyncDisposable {
  readonly requests: RecordedRequest[];
  readonly unexpected: RecordedRequest[];
  readonly reactions: FakeReaction[];
  private readonly state: GitHubState;
  private readonly token: string;
  private server: Server | undefined;

  constructor(opts: FakeGitHubOptions) {
    this.token = opts.token;
    this.state = new GitHubState(
      (opts.serverUrl ?? 'https://github.com').replace(/\/$/, ''),
      opts.tokenUser ?? { login: 'github-actions[bot]', type: 'Bot' },
      opts.resolveBranch,
      opts.forbidPullCreation ?? false,
    );
    this.requests = this.state.requests;
    this.unexpected = this.state.unexpected;
    this.reactions = this.state.reactions;
    for (const [name, dir] of Object.entries(opts.gitDirs ?? {})) this.serveGitData(name, dir);
  }

  /** Serves the Git database API of `repo` (`owner/name`) over the bare repository `dir` (see `gitDirs`). */
  serveGitData(repo: string, dir: string): void {
    this.state.gitDirs.set(repo.toLowerCase(), dir);
  }

  /** See GitHubState.filteredRunsCap: lower it to meet GitHub's cap on a filtered run listing with fewer runs. */
  set filteredRunsCap(n: number) {
    this.state.filteredRunsCap = n;
  }

  /** See GitHubState.corruptTrees: the Git database API answers every new tree with one entry missing. */
  set corruptTrees(on: boolean) {
    this.state.corruptTrees = on;
  }

  /** A new issue's labels are dropped, as GitHub does silently for a token that may not set them. */
  set dropNewIssueLabels(drop: boolean) {
    this.state.dropNewIssueLabels = drop;
  }

  /** See FakeGitHubOptions.forbidPullCreation; may be switched during a test. */
  get forbidPullCreation(): boolean {
    return this.state.forbidPullCreation;
  }

  set forbidPullCreation(forbid: boolean) {
    this.state.forbidPullCreation = forbid;
  }

  /** The API base URL (`GITHUB_API_URL`). Only valid after `start()`. */
  get url(): string {
    if (!this.server) throw new Error('FakeGitHub is not started');
    return this.state.baseUrl;
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => void handleRequest(this.state, this.token, req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    this.server = server;
    this.state.baseUrl = `http://127.0.0.1:${port}`;
    return this.state.baseUrl;
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
    this.state.repos.set(full.toLowerCase(), {
      id: this.state.id(),
      owner: o.owner,
      name: o.name,
      defaultBranch: o.defaultBranch ?? 'main',
      private: o.private ?? false,
      nextNumber: 1,
      issues: new Map(),
      comments: [],
      reviewComments: [],
      reviews: [],
      repoLabels: [],
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
    /** When it was opened and (closed) closed, ISO; default the fake's clock. */
    createdAt?: string;
    closedAt?: string;
  }): number {
    const repo = this.state.repoOf(o.repo);
    const issue = this.state.newIssue(repo, o.title, o.body ?? null, this.state.user(o.user ?? 'octocat'));
    issue.labels = [...(o.labels ?? [])];
    issue.state = o.state ?? 'open';
    this.dated(issue, o);
    return issue.number;
  }

  /** An issue's seeded times: created, and closed when it is (its last update is the later of the two). */
  private dated(issue: StoredIssue, o: { createdAt?: string; closedAt?: string }): void {
    if (o.createdAt) issue.createdAt = issue.updatedAt = o.createdAt;
    if (issue.state === 'closed') issue.closedAt = o.closedAt ?? issue.updatedAt;
    if (issue.closedAt) issue.updatedAt = issue.closedAt;
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
    createdAt?: string;
    closedAt?: string;
    /** Merged at this time (and closed then). */
    mergedAt?: string;
  }): number {
    const repo = this.state.repoOf(o.repo);
    const issue = this.state.newIssue(repo, o.title, o.body ?? null, this.state.user(o.user ?? 'octocat'));
    const headRepo = o.headRepo === undefined ? `${repo.owner}/${repo.name}` : o.headRepo;
    issue.state = o.mergedAt ? 'closed' : (o.state ?? 'open');
    issue.pull = {
      headRef: o.head,
      headOwner: headRepo?.split('/')[0] ?? 'ghost',
      headRepo,
      baseRef: o.base ?? repo.defaultBranch,
      draft: o.draft ?? false,
      ...(o.mergedAt ? { mergedAt: o.mergedAt } : {}),
    };
    this.dated(issue, { ...o, ...(o.mergedAt ? { closedAt: o.mergedAt } : {}) });
    return issue.number;
  }

  addComment(o: { repo?: string; issue: number; body: string; user?: FakeUser | string }): number {
    const repo = this.state.repoOf(o.repo);
    if (!repo.issues.has(o.issue)) throw new Error(`FakeGitHub: no issue #${o.issue}`);
    const now = this.state.now();
    const comment: StoredComment = {
      id: this.state.id(),
      issue: o.issue,
      body: o.body,
      user: this.state.user(o.user ?? 'octocat'),
      createdAt: now,
      updatedAt: now,
    };
    repo.comments.push(comment);
    return comment.id;
  }

  /** Someone edits an issue (or PR) through the web UI: its updated_at moves on. */
  editIssue(number: number, o: { title?: string; body?: string }, repoName?: string): void {
    const issue = this.state.repoOf(repoName).issues.get(number);
    if (!issue) throw new Error(`FakeGitHub: no issue #${number}`);
    if (o.title !== undefined) issue.title = o.title;
    if (o.body !== undefined) issue.body = o.body;
    issue.updatedAt = this.state.now();
  }

  /** Someone adds a label in the web UI: like any change to the issue, it moves updated_at on. */
  labelIssue(number: number, label: string, repoName?: string, by: FakeUser | string = 'alice'): void {
    const issue = this.state.repoOf(repoName).issues.get(number);
    if (!issue) throw new Error(`FakeGitHub: no issue #${number}`);
    if (!issue.labels.includes(label)) {
      issue.labels.push(label);
      labelEvent(this.state, issue, 'labeled', label, this.state.user(by));
    }
    issue.updatedAt = this.state.now();
  }

  /** Someone closes an issue in the web UI. */
  closeIssue(number: number, repoName?: string): void {
    const issue = this.state.repoOf(repoName).issues.get(number);
    if (!issue) throw new Error(`FakeGitHub: no issue #${number}`);
    issue.state = 'closed';
    issue.closedAt = issue.updatedAt = this.state.now();
  }

  /** Someone removes a label in the web UI. */
  unlabelIssue(number: number, label: string, repoName?: string, by: FakeUser | string = 'alice'): void {
    const issue = this.state.repoOf(repoName).issues.get(number);
    if (!issue) throw new Error(`FakeGitHub: no issue #${number}`);
    if (issue.labels.includes(label)) labelEvent(this.state, issue, 'unlabeled', label, this.state.user(by));
    issue.labels = issue.labels.filter((l) => l !== label);
    issue.updatedAt = this.state.now();
  }

  /** Someone edits a comment: its updated_at moves on. */
  editComment(id: number, body: string, repoName?: string): void {
    const comment = this.state.repoOf(repoName).comments.find((c) => c.id === id);
    if (!comment) throw new Error(`FakeGitHub: no comment ${id}`);
    comment.body = body;
    comment.updatedAt = this.state.now();
  }

  /** Someone deletes a comment. */
  deleteComment(id: number, repoName?: string): void {
    const repo = this.state.repoOf(repoName);
    const i = repo.comments.findIndex((c) => c.id === id);
    if (i === -1) throw new Error(`FakeGitHub: no comment ${id}`);
    repo.comments.splice(i, 1);
  }

  /**
   * A maintainer hides (minimizes) an issue, PR or review comment, as "Hide" in the web UI does. `reason` is what
   * GraphQL's `minimizedReason` reads back: abuse, off-topic, outdated, resolved, duplicate or spam.
   */
  minimizeComment(id: number, reason = 'off-topic', repoName?: string): void {
    const repo = this.state.repoOf(repoName);
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
    const repo = this.state.repoOf(o.repo);
    if (!repo.issues.get(o.pull)?.pull) throw new Error(`FakeGitHub: no pull request #${o.pull}`);
    const c: StoredReviewComment = {
      id: this.state.id(),
      pull: o.pull,
      body: o.body,
      path: o.path,
      line: o.line ?? null,
      user: this.state.user(o.user ?? 'octocat'),
      createdAt: this.state.now(),
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
    const repo = this.state.repoOf(repoName);
    const user = this.state.user(login);
    const entry =
      typeof role === 'string'
        ? { user, role, roleName: role }
        : { user, role: role.base, roleName: role.custom };
    repo.permissions.set(user.login.toLowerCase(), entry);
  }

  /** A team of the repository's owner with access to it (only such a team can be asked to review). */
  addTeam(slug: string, repoName?: string): void {
    addTeam(this.state.repoOf(repoName), slug);
  }

  /** Who is assigned to issue or pull request `number`, and whose review it requests (users, team slugs). */
  pullControls(
    number: number,
    repoName?: string,
  ): { assignees: string[]; reviewers: string[]; teams: string[] } {
    const issue = this.state.repoOf(repoName).issues.get(number);
    if (!issue) throw new Error(`FakeGitHub: no issue or pull request #${number}`);
    const c = controlsOf(issue);
    return {
      assignees: c.assignees.map((u) => u.login),
      reviewers: c.reviewers.map((u) => u.login),
      teams: [...c.teams],
    };
  }

  /** Serves the workflow-artifact endpoints from `backend` (without one they are unknown routes). */
  serveArtifacts(backend: ArtifactsBackend): void {
    this.state.artifacts = backend;
  }

  /** A workflow file of `repo` (its runs are listed under it; its text is served by the contents API). */
  addWorkflow(workflow: FakeWorkflow, repoName?: string): number {
    return addWorkflow(this.state, this.state.repoOf(repoName), workflow);
  }

  /**
   * A workflow run of `repo` with its jobs, their logs and annotations, listed in its workflow's history (completed
   * unless said otherwise); returns the jobs' ids.
   */
  /** A run of a workflow, as `GET …/actions/runs/{id}` shows it (the action's own runs, in the e2e harness). */
  recordRun(run: FakeRunRecord, repoName?: string): void {
    recordRun(this.state, this.state.repoOf(repoName), run);
  }

  /** A recorded run moves on (completed, its end time). */
  updateRun(id: number, patch: Partial<FakeRunRecord>, repoName?: string): void {
    updateRun(this.state, this.state.repoOf(repoName), id, patch);
  }

  addWorkflowRun(run: FakeWorkflowRun, repoName?: string): number[] {
    return addWorkflowRun(this.state, this.state.repoOf(repoName), run);
  }

  /** A completed check suite of another CI (an app) on `repo`, with its check runs; returns their ids. */
  addCheckSuite(suite: FakeCheckSuite, repoName?: string): number[] {
    return addCheckSuite(this.state, this.state.repoOf(repoName), suite);
  }

  /** The token's `actions` permission (a job's `permissions: actions: ...`); default `read`. */
  setActionsPermission(level: TokenPermission): void {
    this.state.actionsPermission = level;
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
    this.state.faults.push({
      method: o.method?.toUpperCase(),
      path: o.path,
      remaining: o.times ?? 1,
      kind: o.kind,
      retryAfter: o.retryAfter ?? 1,
    });
  }

  /** The fake's clock (every time it gives out: creation, edits) jumps to `iso` and moves on from there. */
  setClock(iso: string): void {
    this.state.setClock(Date.parse(iso));
  }

  /**
   * The next `times` requests matching method and path are answered only once `until` settles (and in the order
   * they arrived after that): two clients' requests can be made to interleave exactly as a test needs.
   */
  holdNext(o: { method?: string; path: string | RegExp; times?: number; until: Promise<unknown> }): void {
    this.state.holds.push({
      method: o.method?.toUpperCase(),
      path: o.path,
      remaining: o.times ?? 1,
      until: o.until.then(
        () => undefined,
        () => undefined,
      ),
    });
  }

  // ---- reading -------------------------------------------------------------------------------------------

  pulls(repoName?: string): FakePull[] {
    const repo = this.state.repoOf(repoName);
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
    const i = this.state.repoOf(repoName).issues.get(number);
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
    return this.state
      .repoOf(repoName)
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

  /** Adds a label to the repository's set (`GET /repos/{o}/{r}/labels`); an issue's labels are apart from it. */
  addRepoLabel(name: string, description: string | null = null, repoName?: string): void {
    this.state.repoOf(repoName).repoLabels.push({ name, description });
  }

  /** The reviews of pull request `pull`, oldest first, each with its inline comments. */
  reviews(pull: number, repoName?: string): FakeReview[] {
    return this.state
      .repoOf(repoName)
      .reviews.filter((v) => v.pull === pull)
      .map((v) => ({ ...v, user: v.user.login, comments: v.comments.map((c) => ({ ...c })) }));
  }

  /** Throws listing every request to an endpoint the fake does not know (or to a repository it does not have). */
  assertNoUnexpected(): void {
    if (this.unexpected.length === 0) return;
    const list = this.unexpected.map((r) => `${r.method} ${r.path}`).join(', ');
    throw new Error(`FakeGitHub got ${this.unexpected.length} unexpected request(s): ${list}`);
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
