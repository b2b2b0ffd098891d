/**
 * The Git database API (blobs, trees, commits, refs) over the repository's real bare origin, so what a client
 * re-creates through it is real git objects a test can fetch and compare byte for byte. As GitHub does:
 * - a commit created without a `committer` is signed by GitHub ("web-flow": committer `GitHub
 *   <noreply@github.com>`, a `gpgsig` header, `verification.verified: true`); one that names its committer is
 *   not signed (`reason: unsigned`); without an `author` the author is the token's user with its noreply e-mail;
 * - a tree, commit or parent that does not exist answers 422; creating a ref that exists answers 422 "Reference
 *   already exists"; updating one to a commit that does not contain it answers 422 "Update is not a fast
 *   forward" unless `force`.
 * `corruptTrees` makes every created tree lose its last entry: a server that answers 201 with the wrong tree.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { exec } from '../../util/exec.js';
import { asRecord, fail, type Reply } from './http.js';
import { REPO, route, type Ctx, type Route } from './route.js';
import { apiRepoUrl, htmlRepoUrl, nodeId } from './shapes.js';

interface Entry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}

function gitDir(c: Ctx): string {
  const dir = c.state.gitDirs.get(`${c.repo.owner}/${c.repo.name}`.toLowerCase());
  // A test that did not give the repository's bare origin: the code under test asked what the fake cannot answer.
  if (!dir)
    throw new Error(`no bare repository for ${c.repo.owner}/${c.repo.name} (FakeGitHubOptions.gitDirs)`);
  return dir;
}

async function git(
  dir: string,
  args: string[],
  input?: string | Buffer,
): Promise<{ ok: boolean; out: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^GIT_/.test(k)));
  const r = await exec('git', ['--git-dir', dir, ...args], { env, allowAllExitCodes: true, input });
  return { ok: r.exitCode === 0, out: r.stdout.replace(/\n$/, '') };
}

/**
 * Writes a blob as git does (a zlib-deflated loose object named by the SHA-1 of its header and bytes), in this
 * process: a git process per file would make a tree of hundreds of files take seconds.
 */
async function writeBlob(dir: string, bytes: Buffer): Promise<string> {
  const object = Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]);
  const sha = createHash('sha1').update(object).digest('hex');
  await mkdir(join(dir, 'objects', sha.slice(0, 2)), { recursive: true });
  await writeFile(join(dir, 'objects', sha.slice(0, 2), sha.slice(2)), deflateSync(object), {
    flag: 'wx',
  }).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST') throw e;
  });
  return sha;
}

async function objectType(dir: string, sha: unknown): Promise<string | undefined> {
  if (typeof sha !== 'string' || !/^[0-9a-f]{40}$/.test(sha)) return undefined;
  const r = await git(dir, ['cat-file', '-t', sha]);
  return r.ok ? r.out : undefined;
}

const url = (c: Ctx, kind: string, sha: string) => `${apiRepoUrl(c.state, c.repo)}/git/${kind}/${sha}`;

async function createBlob(c: Ctx): Promise<Reply> {
  const b = asRecord(c.body);
  if (typeof b.content !== 'string') fail(422, 'Invalid request.\n\n"content" wasn\'t supplied.');
  const encoding = b.encoding ?? 'utf-8';
  if (encoding !== 'utf-8' && encoding !== 'base64') fail(422, `encoding must be utf-8 or base64`);
  const bytes = Buffer.from(b.content, encoding === 'base64' ? 'base64' : 'utf8');
  const sha = await writeBlob(gitDir(c), bytes);
  return { status: 201, body: { sha, url: url(c, 'blobs', sha) } };
}

/** The whole tree of `sha` as path → entry (submodules as `commit` entries), or 422 when it is no tree. */
async function flatTree(dir: string, sha: string): Promise<Map<string, Entry>> {
  const r = await git(dir, ['ls-tree', '-r', '-z', '--full-tree', sha]);
  if (!r.ok) fail(422, 'Invalid request.\n\nbase_tree is not a valid tree oid');
  const entries = new Map<string, Entry>();
  for (const line of r.out.split('\0')) {
    const m = /^(\d{6}) (blob|commit|tree) ([0-9a-f]{40})\t(.+)$/s.exec(line);
    if (m) entries.set(m[4]!, { mode: m[1]!, type: m[2] as Entry['type'], sha: m[3]! });
  }
  return entries;
}

/** Writes the nested trees of a flat path → entry map bottom up; returns the root tree's sha. */
async function writeTree(dir: string, flat: Map<string, Entry>): Promise<string> {
  interface Node {
    files: Map<string, Entry>;
    dirs: Map<string, Node>;
  }
  const root: Node = { files: new Map(), dirs: new Map() };
  for (const [path, entry] of flat) {
    const parts = path.split('/');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      let next = node.dirs.get(part);
      if (!next) node.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
      node = next;
    }
    node.files.set(parts[parts.length - 1]!, entry);
  }
  const write = async (node: Node): Promise<string> => {
    const lines: string[] = [];
    for (const [name, sub] of node.dirs) lines.push(`040000 tree ${await write(sub)}\t${name}`);
    for (const [name, e] of node.files) lines.push(`${e.mode} ${e.type} ${e.sha}\t${name}`);
    const r = await git(dir, ['mktree', '-z'], lines.map((l) => `${l}\0`).join(''));
    if (!r.ok) fail(422, 'Invalid tree');
    return r.out;
  };
  return write(root);
}

async function createTree(c: Ctx): Promise<Reply> {
  const dir = gitDir(c);
  const b = asRecord(c.body);
  if (!Array.isArray(b.tree)) fail(422, 'Invalid request.\n\n"tree" wasn\'t supplied.');
  const flat = typeof b.base_tree === 'string' ? await flatTree(dir, b.base_tree) : new Map<string, Entry>();
  for (const raw of b.tree as unknown[]) {
    const e = asRecord(raw);
    const path = e.path;
    const mode = e.mode;
    if (typeof path !== 'string' || path === '' || path.startsWith('/') || path.split('/').includes('..'))
      fail(422, `Invalid request.\n\ntree.path is invalid`);
    if (typeof mode !== 'string' || !['100644', '100755', '040000', '160000', '120000'].includes(mode))
      fail(422, `Invalid request.\n\ntree.mode is invalid`);
    // A path replaced (or deleted) replaces whatever was under it, and a file where a directory was before.
    for (const p of [...flat.keys()]) if (p === path || p.startsWith(`${path}/`)) flat.delete(p);
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) flat.delete(parts.slice(0, i).join('/'));
    if (e.sha === null) continue;
    const type = e.type === 'commit' ? 'commit' : e.type === 'tree' ? 'tree' : 'blob';
    let sha = e.sha;
    if (typeof e.content === 'string') sha = await writeBlob(dir, Buffer.from(e.content, 'utf8'));
    else if (type !== 'commit' && (await objectType(dir, sha)) !== type) fail(422, `GitRPC::BadObjectState`);
    flat.set(path, { mode, type, sha: sha as string });
  }
  if (c.state.corruptTrees && flat.size > 0) flat.delete([...flat.keys()].pop()!);
  const sha = await writeTree(dir, flat);
  const top = await git(dir, ['ls-tree', '-z', '-l', sha]);
  const tree = top.out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const m = /^(\d{6}) (\w+) ([0-9a-f]{40}) +(-|\d+)\t(.+)$/s.exec(line)!;
      return {
        path: m[5],
        mode: m[1],
        type: m[2],
        sha: m[3],
        ...(m[4] === '-' ? {} : { size: Number(m[4]) }),
        url: url(c, m[2] === 'tree' ? 'trees' : 'blobs', m[3]!),
      };
    });
  return { status: 201, body: { sha, url: url(c, 'trees', sha), truncated: false, tree } };
}

interface Person {
  name: string;
  email: string;
  date: string;
}

function person(raw: unknown, fallback: Person): Person {
  const p = asRecord(raw);
  if (typeof p.name !== 'string' || typeof p.email !== 'string') return fallback;
  return { name: p.name, email: p.email, date: typeof p.date === 'string' ? p.date : fallback.date };
}

const gitPerson = (p: Person) => `${p.name} <${p.email}> ${Math.floor(Date.parse(p.date) / 1000)} +0000`;

/** The stand-in for GitHub's web-flow signature: a real header, verifiable by nobody. */
const SIGNATURE = [
  '-----BEGIN PGP SIGNATURE-----',
  '',
  'wsBcBAABCAAQBQJmFAKEGITHUBFAKEWEBFLOWSIGNATUREAAAAAAAAAAAAAAAAAAA',
  '=FAKE',
  '-----END PGP SIGNATURE-----',
].join('\n');

async function createCommit(c: Ctx): Promise<Reply> {
  const dir = gitDir(c);
  const b = asRecord(c.body);
  if (typeof b.message !== 'string') fail(422, 'Invalid request.\n\n"message" wasn\'t supplied.');
  if ((await objectType(dir, b.tree)) !== 'tree') fail(422, 'Tree SHA does not exist');
  const parents = Array.isArray(b.parents) ? (b.parents as unknown[]) : [];
  for (const p of parents)
    if ((await objectType(dir, p)) !== 'commit')
      fail(422, 'Parent SHA does not exist or is not a commit object');
  const now = c.state.now();
  const user = c.state.tokenUser;
  const author = person(b.author, {
    name: user.login,
    email: `${user.id}+${user.login}@users.noreply.github.com`,
    date: now,
  });
  const signed = b.committer === undefined && b.signature === undefined;
  const committer = person(
    b.committer,
    signed ? { name: 'GitHub', email: 'noreply@github.com', date: now } : author,
  );
  const header = [
    `tree ${b.tree as string}`,
    ...parents.map((p) => `parent ${p as string}`),
    `author ${gitPerson(author)}`,
    `committer ${gitPerson(committer)}`,
  ].join('\n');
  const payload = `${header}\n\n${b.message}`;
  const object = signed ? `${header}\ngpgsig ${SIGNATURE.split('\n').join('\n ')}\n\n${b.message}` : payload;
  const sha = (await git(dir, ['hash-object', '-t', 'commit', '-w', '--stdin'], object)).out;
  return {
    status: 201,
    body: {
      sha,
      node_id: nodeId('Commit', c.state.id()),
      url: url(c, 'commits', sha),
      html_url: `${htmlRepoUrl(c.state, c.repo)}/commit/${sha}`,
      author,
      committer,
      message: b.message,
      tree: { sha: b.tree, url: url(c, 'trees', b.tree as string) },
      parents: parents.map((p) => ({
        sha: p,
        url: url(c, 'commits', p as string),
        html_url: `${htmlRepoUrl(c.state, c.repo)}/commit/${p as string}`,
      })),
      verification: signed
        ? { verified: true, reason: 'valid', signature: SIGNATURE, payload, verified_at: now }
        : { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
  };
}

function refJson(c: Ctx, ref: string, sha: string): Record<string, unknown> {
  return {
    ref,
    node_id: nodeId('Ref', c.state.id()),
    url: `${apiRepoUrl(c.state, c.repo)}/git/${ref}`,
    object: { type: 'commit', sha, url: url(c, 'commits', sha) },
  };
}

async function refSha(dir: string, ref: string): Promise<string | undefined> {
  const r = await git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return r.ok ? r.out : undefined;
}

async function getRef(c: Ctx): Promise<Reply> {
  const ref = `refs/${c.params.ref}`;
  const sha = await refSha(gitDir(c), ref);
  if (!sha) fail(404, 'Not Found');
  return { status: 200, body: refJson(c, ref, sha) };
}

async function createRef(c: Ctx): Promise<Reply> {
  const dir = gitDir(c);
  const b = asRecord(c.body);
  const ref = b.ref;
  if (typeof ref !== 'string' || !/^refs\/[^/]+\/.+/.test(ref)) fail(422, 'Reference name is invalid');
  if ((await objectType(dir, b.sha)) !== 'commit') fail(422, 'Object does not exist');
  // The empty old value: created only when it does not exist, atomically.
  const r = await git(dir, ['update-ref', ref, b.sha as string, '0'.repeat(40)]);
  if (!r.ok) fail(422, 'Reference already exists');
  return { status: 201, body: refJson(c, ref, b.sha as string) };
}

async function updateRef(c: Ctx): Promise<Reply> {
  const dir = gitDir(c);
  const ref = `refs/${c.params.ref}`;
  const b = asRecord(c.body);
  if ((await objectType(dir, b.sha)) !== 'commit') fail(422, 'Object does not exist');
  const old = await refSha(dir, ref);
  if (!old) fail(422, 'Reference does not exist');
  const sha = b.sha as string;
  if (b.force !== true && !(await git(dir, ['merge-base', '--is-ancestor', old, sha])).ok)
    fail(422, 'Update is not a fast forward');
  if (!(await git(dir, ['update-ref', ref, sha, old])).ok) fail(422, 'Update is not a fast forward');
  return { status: 200, body: refJson(c, ref, sha) };
}

export const gitDataRoutes: Route[] = [
  route('POST', `${REPO}/git/blobs`, createBlob),
  route('POST', `${REPO}/git/trees`, createTree),
  route('POST', `${REPO}/git/commits`, createCommit),
  route('GET', `${REPO}/git/ref/:ref`, getRef),
  route('POST', `${REPO}/git/refs`, createRef),
  route('PATCH', `${REPO}/git/refs/:ref`, updateRef),
];
