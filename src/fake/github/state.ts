/**
 * What the fake GitHub holds: repositories with their issues and pull requests (one number sequence, as on
 * GitHub), comments, review comments and permissions; users; reactions; the request log; queued faults; and the
 * ids and clock everything created takes its id and time from.
 */
import type { Fault } from './faults.js';

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
  /** The JSON body the fake answered (undefined for an empty one), to hold it to GitHub's REST description. */
  response?: unknown;
  /** The Authorization header carried the configured token. */
  authorized: boolean;
  /** When the request arrived (ms since the epoch), to order it against other fakes' records. */
  at: number;
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
  /** Every artifact of the repository's runs that still exist (expired ones included, flagged), newest first. */
  repoArtifacts(repo: string): RestArtifact[];
  /** A signed blob URL of the artifact's zip, valid for a minute, as GitHub's redirect target. */
  signedZipUrl(repo: string, id: number): string;
}

/** Levels of a GITHUB_TOKEN permission scope. */
export type TokenPermission = 'none' | 'read' | 'write';

export interface FakeReaction {
  content: string;
  /** `comment:<id>` or `issue:<number>`. */
  target: string;
  user: string;
}

/** Resolves a branch of a repository (`owner/name`) to its head sha; see FakeGitHubOptions.resolveBranch. */
export type ResolveBranch = (
  repo: string,
  branch: string,
) => string | undefined | Promise<string | undefined>;

export interface StoredUser {
  login: string;
  type: string;
  id: number;
}

export interface StoredPull {
  headRef: string;
  headOwner: string;
  /** `owner/name` of the head repository; null when the fork was deleted. */
  headRepo: string | null;
  baseRef: string;
  draft: boolean;
  /** When it was merged (merged pull requests are closed too). */
  mergedAt?: string;
}

export interface StoredIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  user: StoredUser;
  state: 'open' | 'closed';
  labels: string[];
  createdAt: string;
  updatedAt: string;
  /** When it was closed, while it is. */
  closedAt?: string;
  pull?: StoredPull;
  /** Its timeline's label events (GET …/issues/{n}/events), oldest first. */
  events?: StoredIssueEvent[];
  /** Locked (PUT …/lock): only collaborators may comment. */
  locked?: boolean;
}

/** A label put on or taken off an issue, by whom and when. */
export interface StoredIssueEvent {
  id: number;
  event: 'labeled' | 'unlabeled';
  actor: StoredUser;
  label: string;
  createdAt: string;
}

export interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: StoredUser;
  createdAt: string;
  updatedAt: string;
  /** Why a maintainer hid it (GraphQL's lowercase `minimizedReason`), when hidden. */
  minimized?: string;
}

export interface StoredReviewComment {
  id: number;
  pull: number;
  body: string;
  user: StoredUser;
  path: string;
  line: number | null;
  createdAt: string;
  minimized?: string;
}

/** A pull request review as `POST /pulls/{n}/reviews` made it, with its inline comments. */
export interface StoredReview {
  id: number;
  pull: number;
  user: StoredUser;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING';
  commitId: string;
  submittedAt: string;
  comments: {
    path: string;
    body: string;
    line: number;
    side: 'LEFT' | 'RIGHT';
    startLine?: number;
    startSide?: 'LEFT' | 'RIGHT';
  }[];
}

export interface StoredRepo {
  id: number;
  owner: string;
  name: string;
  defaultBranch: string;
  private: boolean;
  nextNumber: number;
  issues: Map<number, StoredIssue>;
  comments: StoredComment[];
  reviewComments: StoredReviewComment[];
  reviews: StoredReview[];
  /** The repository's own labels (an issue's may name others: GitHub creates a label it is given). */
  repoLabels: { name: string; description: string | null }[];
  permissions: Map<string, { user: StoredUser; role: RepoRole; roleName: string }>;
}

export class GitHubState {
  readonly requests: RecordedRequest[] = [];
  readonly unexpected: RecordedRequest[] = [];
  readonly reactions: FakeReaction[] = [];
  readonly repos = new Map<string, StoredRepo>();
  readonly faults: Fault[] = [];
  /** Requests held back until a test lets them go (`holdNext`): to make an interleaving of two clients happen. */
  readonly holds: {
    method: string | undefined;
    path: string | RegExp;
    remaining: number;
    until: Promise<void>;
  }[] = [];
  readonly tokenUser: StoredUser;
  forbidPullCreation: boolean;
  /** A new issue's labels are dropped, as GitHub does silently for a token that may not set them. */
  dropNewIssueLabels = false;
  artifacts: ArtifactsBackend | undefined;
  actionsPermission: TokenPermission = 'read';
  /** The bare repository behind each repository (`owner/name`, lower case), for the Git database API. */
  readonly gitDirs = new Map<string, string>();
  /** Every tree the Git database API creates loses its last entry (a server answering with the wrong tree). */
  corruptTrees = false;
  /** A filtered listing of workflow runs serves at most this many, whatever its `total_count` says (GitHub: 1,000). */
  filteredRunsCap = 1000;
  /** The API base URL, once the server listens. */
  baseUrl = '';
  private readonly users = new Map<string, StoredUser>();
  private nextId = 1000;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  constructor(
    /** Base of `html_url`s. */
    readonly serverUrl: string,
    tokenUser: FakeUser,
    readonly resolveBranch: ResolveBranch | undefined,
    forbidPullCreation: boolean,
  ) {
    this.tokenUser = this.user(tokenUser);
    this.forbidPullCreation = forbidPullCreation;
  }

  id(): number {
    return this.nextId++;
  }

  /** The clock jumps to `ms` (a test's next day); it moves on one second per event from there. */
  setClock(ms: number): void {
    this.clock = ms;
  }

  /** A clock that moves one second per event, so ordering by timestamp is deterministic. */
  now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  user(u: FakeUser | string): StoredUser {
    const login = typeof u === 'string' ? u : u.login;
    const known = this.users.get(login.toLowerCase());
    if (known) return known;
    const type = typeof u === 'string' ? (login.endsWith('[bot]') ? 'Bot' : 'User') : (u.type ?? 'User');
    const user: StoredUser = { login, type, id: this.id() };
    this.users.set(login.toLowerCase(), user);
    return user;
  }

  /** A repository by `owner/name`, or the first one added. */
  repoOf(name?: string): StoredRepo {
    const repo = name ? this.repos.get(name.toLowerCase()) : this.repos.values().next().value;
    if (!repo) throw new Error(`FakeGitHub: no repository ${name ?? '(none added)'}`);
    return repo;
  }

  newIssue(repo: StoredRepo, title: string, body: string | null, user: StoredUser): StoredIssue {
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
}
