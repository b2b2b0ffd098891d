/**
 * `sign-commits`: the run's commits re-created through GitHub's Git database REST API, so GitHub signs them
 * (its "web-flow" key; the token's identity as author and committer) and shows them Verified.
 *
 * Why REST and not GraphQL's `createCommitOnBranch`: the mutation takes file contents without a mode (no
 * executable bit, no symlinks, no submodules), one commit per call on a branch that must already exist, and
 * no merge commits. The REST trees carry modes and any parents.
 *
 * Every commit is checked as it is made: GitHub's tree for it must be the local commit's tree, sha for sha
 * (trees are content-addressed, so equal shas are equal files, modes and links). The branch moves once, at
 * the end, forward only; a mismatch or any refusal before that leaves the remote as it was.
 *
 * Limits: a file over `MAX_BLOB_BYTES` cannot go through the API (its request would pass GitHub's ~40 MiB
 * payload limit once base64-encoded); that, like any other failure, is a `SignError` for the caller to fall
 * back on a plain push or fail.
 */
import type { GitHubClient, RepoRef } from './client.js';
import { hasStatus } from './client.js';
import type { Logger } from '../util/log.js';
import { getErrorMessage, oneLine } from '../util/errors.js';
import { pool } from '../util/pool.js';

/** The largest file re-created through the API: 30 MiB, 40 MiB as base64 in the request. */
const MAX_BLOB_BYTES = 30 * 1024 * 1024;
/** Tree entries per request (a long list is a chain of trees, each on the last). */
const TREE_CHUNK = 100;
/** Text files up to this size go inside the tree request instead of a blob request each. */
const INLINE_MAX_BYTES = 1024 * 1024;
/** The text a tree request carries at most, and a run holds in memory for them at most. */
const TREE_INLINE_BYTES = 4 * 1024 * 1024;
const INLINE_TOTAL_BYTES = 32 * 1024 * 1024;
/** Blob uploads in flight at once: fast enough, and well below GitHub's secondary limits. */
const BLOB_CONCURRENCY = 4;
/** The bytes read from git at once while uploading. */
const READ_BATCH_BYTES = 64 * 1024 * 1024;

export type SignErrorKind =
  /** The branch is not where the run expected it (someone pushed, or it exists when it should not). */
  | 'moved'
  /** GitHub built a different tree than the local commit's: nothing was moved. */
  | 'tree-mismatch'
  /** A file the API cannot take. */
  | 'too-large'
  /** GitHub refused or failed a call. */
  | 'refused';

export class SignError extends Error {
  override readonly name = 'SignError';
  constructor(
    readonly kind: SignErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** One path a commit changes against its first parent (renames: a deletion and an addition). */
export interface TreeChange {
  path: string;
  /** The new mode (`100644`, `100755`, `120000` symlink, `160000` submodule), or the old one when deleted. */
  mode: string;
  /** The new object, or null when the path is deleted. */
  sha: string | null;
  /** The object the path had before (null when added). */
  oldSha: string | null;
}

/**
 * Where the commits come from (the vault, read by src/git/commit-objects.ts): the commits the remote lacks,
 * parents first, and reads of their objects.
 */
export interface CommitSource {
  commits: readonly { sha: string; tree: string; parents: readonly string[]; message: string }[];
  changes(sha: string): readonly TreeChange[];
  treeOf(commit: string): Promise<string>;
  sizes(shas: readonly string[]): Promise<Map<string, number>>;
  read(shas: readonly string[]): Promise<Map<string, Buffer>>;
}

export interface SignInput {
  client: GitHubClient;
  repo: RepoRef;
  source: CommitSource;
  head: string;
  branch: string;
  /** The branch exists on the remote and is moved forward (true), or is created and must not exist (false). */
  exists: boolean;
  log: Logger;
  /** Overrides MAX_BLOB_BYTES (tests). */
  maxBlobBytes?: number;
}

export interface Signed {
  /** The re-created head, now the branch's tip. */
  head: string;
  /** Local commit → re-created commit. */
  map: Map<string, string>;
  /** Commits GitHub did not report as verified (e.g. a token whose commits GitHub does not sign). */
  unverified: number;
  requests: number;
}

function refused(what: string, error: unknown): SignError {
  const e = error as { status?: unknown; response?: { data?: { message?: unknown } } };
  const message =
    typeof e.response?.data?.message === 'string' ? e.response.data.message : getErrorMessage(error);
  const status = typeof e.status === 'number' ? `${e.status} ` : '';
  return new SignError('refused', `GitHub refused ${what}: ${status}${oneLine(message)}`);
}

async function call<T>(what: string, fn: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await fn()).data;
  } catch (error) {
    throw refused(what, error);
  }
}

/** Re-creates the commits `head` has beyond `known` on `branch`, signed by GitHub. Throws SignError. */
export async function signCommits(o: SignInput): Promise<Signed> {
  if (o.source.commits.length === 0) {
    // The head is work the remote has already (a branch merged in, a commit another run pushed): the branch only
    // points at it, as signed as it is there.
    await moveBranch(o.client, o.repo, o.branch, o.head, o.exists);
    o.log.info(`Nothing to re-create: ${o.branch} is at ${o.head.slice(0, 12)}, which GitHub has already.`);
    return { head: o.head, map: new Map(), unverified: 0, requests: 1 };
  }
  const plan = await planContent(o);
  const count = { requests: 0 };
  await uploadBlobs(o, plan, count);
  const { map, unverified } = await recreate(o, plan, count);
  const head = map.get(o.head);
  if (!head)
    throw new SignError('refused', `the head ${o.head.slice(0, 12)} was not among the commits re-created`);
  await moveBranch(o.client, o.repo, o.branch, head, o.exists);
  count.requests++;
  o.log.info(
    `Re-created ${map.size} commit(s) through GitHub's API (${plan.inline.size} file(s) sent in trees, ${plan.blobs.length} as blobs; ${count.requests} request(s)); ${o.branch} is at ${head.slice(0, 12)}${unverified ? `; ${unverified} not reported as verified` : ''}.`,
  );
  return { head, map, unverified, requests: count.requests };
}

interface ContentPlan {
  /** New text content sent inside the tree requests: blob sha → its text. */
  inline: Map<string, string>;
  /** New content uploaded as blobs first. */
  blobs: string[];
  sizes: Map<string, number>;
}

/** Strict UTF-8 that survives JSON unchanged (no NUL, no BOM lost): the bytes as a string, else undefined. */
function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return Buffer.byteLength(text) === bytes.length ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What must be sent, and how. The remote has the blobs of commits it has, so what a change replaces in a
 * commit whose parent is not one of the run's is not sent again. Small text goes inside the tree requests
 * (one request for many files); the rest (binary, large) is uploaded as blobs. Too large is refused first.
 */
async function planContent(o: SignInput): Promise<ContentPlan> {
  const { source } = o;
  const limit = o.maxBlobBytes ?? MAX_BLOB_BYTES;
  const ours = new Set(source.commits.map((c) => c.sha));
  const present = new Set<string>();
  const wanted = new Map<string, string>();
  for (const c of source.commits) {
    const onRemote = c.parents[0] !== undefined && !ours.has(c.parents[0]);
    for (const ch of source.changes(c.sha)) {
      if (ch.oldSha && onRemote) present.add(ch.oldSha);
      if (ch.sha && ch.mode !== '160000' && !wanted.has(ch.sha)) wanted.set(ch.sha, ch.path);
    }
  }
  const send = [...wanted.keys()].filter((sha) => !present.has(sha));
  const sizes = await source.sizes(send);
  for (const sha of send) {
    const size = sizes.get(sha) ?? 0;
    if (size > limit)
      throw new SignError(
        'too-large',
        `${wanted.get(sha)} is ${(size / 1048576).toFixed(1)} MiB, over the ${Math.round(limit / 1048576)} MiB a file may have to be re-created through GitHub's API`,
      );
  }
  const inline = new Map<string, string>();
  let inlineBytes = 0;
  const small = send.filter((sha) => (sizes.get(sha) ?? 0) <= INLINE_MAX_BYTES);
  for (const batch of batches(small, sizes)) {
    for (const [sha, bytes] of await source.read(batch)) {
      const text = inlineBytes + bytes.length <= INLINE_TOTAL_BYTES ? asText(bytes) : undefined;
      if (text === undefined) continue;
      inline.set(sha, text);
      inlineBytes += bytes.length;
    }
  }
  return { inline, blobs: send.filter((sha) => !inline.has(sha)), sizes };
}

/** `items` in groups of at most `maxCount` whose sizes add up to at most `maxBytes` (a big one may be alone). */
function* chunked<T>(
  items: Iterable<T>,
  sizeOf: (t: T) => number,
  maxBytes: number,
  maxCount = Infinity,
): Generator<T[]> {
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (chunk.length > 0 && (chunk.length >= maxCount || bytes + size > maxBytes)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

/** `shas` in groups read from git at once. */
const batches = (shas: readonly string[], sizes: Map<string, number>) =>
  chunked(shas, (sha) => sizes.get(sha) ?? 0, READ_BATCH_BYTES);

/** Uploads the blobs; each answer must name the same blob (content-addressed), or GitHub stored other bytes. */
async function uploadBlobs(o: SignInput, plan: ContentPlan, count: { requests: number }): Promise<void> {
  for (const batch of batches(plan.blobs, plan.sizes)) {
    const objects = await o.source.read(batch);
    await pool(batch, BLOB_CONCURRENCY, async (sha) => {
      const made = await call(`to create a blob`, () =>
        o.client.rest.git.createBlob({
          ...o.repo,
          content: objects.get(sha)!.toString('base64'),
          encoding: 'base64',
        }),
      );
      count.requests++;
      if (made.sha !== sha)
        throw new SignError('tree-mismatch', `GitHub stored a file as ${made.sha}, not ${sha}`);
    });
  }
}

type TreeEntry = { path: string; mode: Mode; type: 'blob' | 'tree' | 'commit' } & (
  { sha: string | null } | { content: string }
);

/** A commit's entries in requests of at most TREE_CHUNK entries and TREE_INLINE_BYTES of text each. */
const treeChunks = (entries: readonly TreeEntry[]) =>
  chunked(entries, (e) => ('content' in e ? Buffer.byteLength(e.content) : 0), TREE_INLINE_BYTES, TREE_CHUNK);

/**
 * Each commit in order: its tree built on its first parent's (a chain when long), checked against the local
 * tree, then the commit on the re-created parents. Nothing here moves a branch.
 */
async function recreate(
  o: SignInput,
  plan: ContentPlan,
  count: { requests: number },
): Promise<{ map: Map<string, string>; unverified: number }> {
  const { client, repo, source } = o;
  const map = new Map<string, string>();
  // A parent among the run's commits has its tree at hand; only one outside them is asked of git.
  const trees = new Map(source.commits.map((c) => [c.sha, c.tree]));
  let unverified = 0;
  for (const c of source.commits) {
    const first = c.parents[0];
    const entries = source.changes(c.sha).map((ch): TreeEntry => {
      const at = { path: ch.path, mode: ch.mode as Mode, type: typeOfMode(ch.mode) };
      const text = ch.sha ? plan.inline.get(ch.sha) : undefined;
      return text === undefined ? { ...at, sha: ch.sha } : { ...at, content: text };
    });
    // An empty commit keeps its parent's tree.
    let tree = first ? (trees.get(first) ?? (await source.treeOf(first))) : undefined;
    for (const chunk of treeChunks(entries)) {
      const base = tree;
      const made = await call('to create a tree', () =>
        client.rest.git.createTree({ ...repo, tree: chunk, ...(base ? { base_tree: base } : {}) }),
      );
      count.requests++;
      tree = made.sha;
    }
    if (tree !== c.tree) {
      throw new SignError(
        'tree-mismatch',
        `GitHub built the tree ${String(tree).slice(0, 12)} for commit ${c.sha.slice(0, 12)}, whose tree is ${c.tree.slice(0, 12)}; nothing was moved`,
      );
    }
    const parents = c.parents.map((p) => map.get(p) ?? p);
    // No author or committer: GitHub then signs the commit as the token's identity (a named committer is not signed).
    const made = await call('to create a commit', () =>
      client.rest.git.createCommit({ ...repo, message: c.message, tree: c.tree, parents }),
    );
    count.requests++;
    if (made.tree.sha !== c.tree) {
      throw new SignError(
        'tree-mismatch',
        `GitHub's commit ${made.sha.slice(0, 12)} has another tree than ${c.sha.slice(0, 12)}`,
      );
    }
    if (!made.verification?.verified) unverified++;
    map.set(c.sha, made.sha);
  }
  return { map, unverified };
}

type Mode = '100644' | '100755' | '040000' | '160000' | '120000';

function typeOfMode(mode: string): 'blob' | 'tree' | 'commit' {
  return mode === '160000' ? 'commit' : mode === '040000' ? 'tree' : 'blob';
}

/** The one move of the branch: created when new, else fast-forwarded (GitHub refuses anything else). */
async function moveBranch(
  client: GitHubClient,
  repo: RepoRef,
  branch: string,
  sha: string,
  exists: boolean,
): Promise<void> {
  try {
    if (exists) await client.rest.git.updateRef({ ...repo, ref: `heads/${branch}`, sha, force: false });
    else await client.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha });
  } catch (error) {
    if (hasStatus(error, 422)) {
      const e = refused(`to move ${branch}`, error);
      throw new SignError('moved', e.message);
    }
    throw refused(`to move ${branch}`, error);
  }
}
