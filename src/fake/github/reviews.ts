/**
 * Pull request reviews and the files of a pull request's diff, over the repository's real bare origin: the files
 * are `git diff` of the merge base and the head (`refs/pull/<n>/head` when the origin has it, as GitHub keeps it,
 * else the head branch), each with GitHub's `patch` (its hunks only; none for a binary file). A review is created
 * in one request, as GitHub does it: an inline comment whose line (or range) is not on its side of the file's diff
 * makes the whole review fail with 422, nothing posted; a review by the pull request's author cannot request changes
 * or approve. The check of a line is written here on its own, not borrowed from the code under test.
 */
import { exec } from '../../util/exec.js';
import { asRecord, checkBodyLength, fail, optString } from './http.js';
import { paginate, pullAt, REPO, route, type Ctx, type Route } from './route.js';
import { apiRepoUrl, association, htmlRepoUrl, nodeId, userJson } from './shapes.js';
import type { GitHubState, StoredIssue, StoredRepo, StoredReview } from './state.js';

async function git(dir: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^GIT_/.test(k)));
  const r = await exec('git', ['--git-dir', dir, ...args], { env, allowAllExitCodes: true });
  return { ok: r.exitCode === 0, out: r.stdout };
}

function gitDirOf(s: GitHubState, r: StoredRepo): string | undefined {
  return s.gitDirs.get(`${r.owner}/${r.name}`.toLowerCase());
}

/** The head commit of pull request `i` as its base repository's origin has it (`refs/pull/<n>/head`). */
export async function pullHeadInGit(
  s: GitHubState,
  r: StoredRepo,
  i: StoredIssue,
): Promise<string | undefined> {
  const dir = gitDirOf(s, r);
  if (!dir) return undefined;
  const head = await git(dir, ['rev-parse', '--verify', '--quiet', `refs/pull/${i.number}/head^{commit}`]);
  return head.ok ? head.out.trim() : undefined;
}

interface FileEntry {
  filename: string;
  previous_filename?: string;
  status: string;
  additions: number;
  deletions: number;
  sha: string;
  patch?: string;
}

/** One file's part of `git diff --full-index -M` as GitHub lists it. */
function fileEntry(part: string): FileEntry {
  const lines = part.split('\n');
  const first = lines[0] ?? '';
  const m = /^diff --git a\/(.*) b\/(.*)$/.exec(first);
  let filename = m?.[2] ?? '';
  let previous: string | undefined;
  let status = 'modified';
  let sha = '0'.repeat(40);
  let hunkAt = -1;
  for (const [n, line] of lines.entries()) {
    if (line.startsWith('@@')) {
      hunkAt = n;
      break;
    }
    if (line.startsWith('new file mode')) status = 'added';
    else if (line.startsWith('deleted file mode')) status = 'removed';
    else if (line.startsWith('rename from ')) {
      previous = line.slice('rename from '.length);
      status = 'renamed';
    } else if (line.startsWith('rename to ')) filename = line.slice('rename to '.length);
    const index = /^index [0-9a-f]+\.\.([0-9a-f]+)/.exec(line);
    if (index?.[1]) sha = index[1];
  }
  const patch = hunkAt >= 0 ? lines.slice(hunkAt).join('\n').replace(/\n$/, '') : undefined;
  let additions = 0;
  let deletions = 0;
  for (const line of patch?.split('\n') ?? []) {
    if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return {
    filename,
    ...(previous ? { previous_filename: previous } : {}),
    status,
    additions,
    deletions,
    sha,
    ...(patch !== undefined ? { patch } : {}),
  };
}

async function pullFiles(c: Ctx, i: StoredIssue): Promise<FileEntry[]> {
  const dir = gitDirOf(c.state, c.repo);
  if (!dir)
    throw new Error(`no bare repository for ${c.repo.owner}/${c.repo.name} (FakeGitHubOptions.gitDirs)`);
  const head = (await pullHeadInGit(c.state, c.repo, i)) ?? `refs/heads/${i.pull?.headRef ?? ''}`;
  const mb = await git(dir, ['merge-base', `refs/heads/${i.pull?.baseRef ?? ''}`, head]);
  if (!mb.ok) return [];
  const diff = await git(dir, [
    'diff',
    '--full-index',
    '-M',
    '--no-color',
    '--no-ext-diff',
    mb.out.trim(),
    head,
  ]);
  return diff.out
    .split(/^(?=diff --git )/m)
    .filter((p) => p.startsWith('diff --git '))
    .map(fileEntry);
}

function fileJson(c: Ctx, f: FileEntry): Record<string, unknown> {
  const blob = `${htmlRepoUrl(c.state, c.repo)}/blob/${f.sha}/${f.filename}`;
  return {
    sha: f.sha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: blob,
    raw_url: blob.replace('/blob/', '/raw/'),
    contents_url: `${apiRepoUrl(c.state, c.repo)}/contents/${f.filename}?ref=${f.sha}`,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
    ...(f.previous_filename ? { previous_filename: f.previous_filename } : {}),
  };
}

/** The lines of each side a patch shows (its own walk of the hunks: `@@ -a,b +c,d @@`), by hunk. */
function sideLines(patch: string, side: 'LEFT' | 'RIGHT'): Map<number, number> {
  const out = new Map<number, number>();
  let left = 0;
  let right = 0;
  let hunk = -1;
  for (const line of patch.split('\n')) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(line);
    if (h) {
      hunk++;
      left = Number(h[1]);
      right = Number(h[2]);
    } else if (hunk >= 0 && line.startsWith('+')) {
      if (side === 'RIGHT') out.set(right, hunk);
      right++;
    } else if (hunk >= 0 && line.startsWith('-')) {
      if (side === 'LEFT') out.set(left, hunk);
      left++;
    } else if (hunk >= 0 && line.startsWith(' ')) {
      out.set(side === 'LEFT' ? left : right, hunk);
      left++;
      right++;
    }
  }
  return out;
}

function unresolved(): never {
  return fail(422, 'Unprocessable Entity', [
    'Line could not be resolved',
    'Pull request review thread line must be part of the diff',
  ]);
}

function checkComment(raw: unknown, files: FileEntry[]): StoredReview['comments'][number] {
  const c = asRecord(raw);
  const path = optString(c, 'path');
  const body = optString(c, 'body');
  if (path === undefined || body === undefined)
    fail(422, 'Invalid request.\n\n"path" and "body" are required.');
  const line = typeof c.line === 'number' ? c.line : undefined;
  const startLine = typeof c.start_line === 'number' ? c.start_line : undefined;
  const side = (optString(c, 'side') ?? 'RIGHT') as 'LEFT' | 'RIGHT';
  const startSide = (optString(c, 'start_side') ?? side) as 'LEFT' | 'RIGHT';
  if (line === undefined) fail(422, 'Unprocessable Entity', ['Position or line is required']);
  const file = files.find((f) => f.filename === path);
  if (!file?.patch) unresolved();
  const lines = sideLines(file.patch, side);
  const end = lines.get(line);
  if (end === undefined) unresolved();
  if (startLine !== undefined) {
    const start = sideLines(file.patch, startSide).get(startLine);
    if (start === undefined || start !== end || startLine > line) unresolved();
  }
  checkBodyLength(body, 'PullRequestReviewComment');
  return { path, body, line, side, ...(startLine !== undefined ? { startLine, startSide } : {}) };
}

const STATES = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' } as const;

async function createReview(c: Ctx): Promise<StoredReview> {
  const issue = pullAt(c);
  const b = asRecord(c.body);
  const event = optString(b, 'event');
  const body = optString(b, 'body') ?? '';
  checkBodyLength(body, 'PullRequestReview');
  if (event !== undefined && !(event in STATES))
    fail(422, 'Unprocessable Entity', [`Unknown event: ${event}`]);
  if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && body === '' && !Array.isArray(b.comments))
    fail(422, 'Unprocessable Entity', [
      `Review Can not ${event === 'COMMENT' ? 'comment' : 'request changes'} without a body`,
    ]);
  const author = c.state.tokenUser;
  if (event && event !== 'COMMENT' && issue.user.login.toLowerCase() === author.login.toLowerCase())
    fail(422, 'Unprocessable Entity', [
      `Review Can not ${event === 'APPROVE' ? 'approve' : 'request changes on'} your own pull request`,
    ]);
  const files = await pullFiles(c, issue);
  const comments = (Array.isArray(b.comments) ? b.comments : []).map((x) => checkComment(x, files));
  const head = (await pullHeadInGit(c.state, c.repo, issue)) ?? '0'.repeat(40);
  const review: StoredReview = {
    id: c.state.id(),
    pull: issue.number,
    user: author,
    body,
    state: event ? STATES[event as keyof typeof STATES] : 'PENDING',
    commitId: optString(b, 'commit_id') ?? head,
    submittedAt: c.state.now(),
    comments,
  };
  c.repo.reviews.push(review);
  for (const x of comments) {
    c.repo.reviewComments.push({
      id: c.state.id(),
      pull: issue.number,
      body: x.body,
      user: author,
      path: x.path,
      line: x.line,
      createdAt: review.submittedAt,
    });
  }
  return review;
}

function reviewJson(s: GitHubState, r: StoredRepo, v: StoredReview): Record<string, unknown> {
  const pull = `${apiRepoUrl(s, r)}/pulls/${v.pull}`;
  const html = `${htmlRepoUrl(s, r)}/pull/${v.pull}#pullrequestreview-${v.id}`;
  return {
    id: v.id,
    node_id: nodeId('PullRequestReview', v.id),
    user: userJson(s, v.user),
    body: v.body,
    state: v.state,
    html_url: html,
    pull_request_url: pull,
    _links: { html: { href: html }, pull_request: { href: pull } },
    ...(v.state === 'PENDING' ? {} : { submitted_at: v.submittedAt }),
    commit_id: v.commitId,
    author_association: association(r, v.user),
  };
}

export const reviewRoutes: Route[] = [
  route('GET', `${REPO}/pulls/:number/files`, async (c) =>
    paginate(
      c,
      (await pullFiles(c, pullAt(c))).map((f) => fileJson(c, f)),
    ),
  ),
  route('GET', `${REPO}/pulls/:number/reviews`, (c) => {
    const n = pullAt(c).number;
    return paginate(
      c,
      c.repo.reviews.filter((v) => v.pull === n).map((v) => reviewJson(c.state, c.repo, v)),
    );
  }),
  route('POST', `${REPO}/pulls/:number/reviews`, async (c) => ({
    status: 200,
    body: reviewJson(c.state, c.repo, await createReview(c)),
  })),
];
