import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitIdentity } from './commits.js';
import { Git } from './git.js';

/**
 * Rewrites the run's own commits so their messages lose attribution lines.
 *
 * Which commits: those reachable from HEAD but not from `base` nor from any of `keep` (the refs that existed
 * before the run, the remote's branch tips). A commit someone else made, brought in by a merge or pushed to
 * the branch, is never rewritten, whatever its message says; a rewritten commit's descendants get new parent
 * ids, but those descendants are the run's own too, since nothing that existed before reaches them.
 *
 * How: one `git cat-file --batch` reads every raw commit object, the new objects are built here (only the
 * parent lines and the message change; tree, author, committer, dates, encoding and other headers are copied
 * byte for byte), their ids are computed here so children can point at rewritten parents without a round trip,
 * and one `git hash-object -w --stdin-paths` writes them all (and proves our ids right). Four git processes
 * whatever the number of commits, where an interactive rebase or filter-branch forks per commit.
 *
 * Objects are handled as bytes. A message in another encoding (`i18n.commitEncoding`) or not valid UTF-8 is read
 * as GitHub would show it (decoded by its `encoding` header, invalid bytes replaced), so that the scrub sees what
 * GitHub acts on; when the scrub changes it, it is written back as UTF-8 without the header, else left byte for
 * byte. A message in an encoding nobody here can read gets a message of what the commit changes instead.
 *
 * A commit whose message does not change and whose parents were not rewritten is left alone: same object,
 * same id, signature intact. A rewritten commit loses its gpgsig header, which could no longer verify.
 */
export async function scrubCommits(
  worktree: string,
  base: string,
  scrub: (msg: string) => string,
  opts: { keep?: readonly string[]; identity?: (sha: string) => IdentityChange | undefined } = {},
): Promise<{ head: string; rewritten: number }> {
  const git = Git.forUntrusted(worktree);
  const oldHead = await git.headSha();
  const headRef = await git.headRef();
  const excluded = [base, ...(opts.keep ?? [])].map((r) => `^${r}`);
  // Revisions on stdin: the list of remote tips can be long, and a name starting with '-' stays a name. A remote
  // tip this repository never fetched reaches none of its commits, so it is skipped (--ignore-missing).
  const list = await git.output(['rev-list', '--reverse', '--topo-order', '--ignore-missing', '--stdin'], {
    input: `${[oldHead, ...excluded].join('\n')}\n`,
  });
  const shas = list.split('\n').filter((s) => s !== '');
  if (shas.length === 0) return { head: oldHead, rewritten: 0 };

  const batch = await git.run(['cat-file', '--batch'], { input: `${shas.join('\n')}\n` });
  const raws = parseCatFileBatch(batch.stdoutBytes ?? Buffer.from(batch.stdout, 'utf8'), shas);
  const format = await git.objectFormat();

  const replaced = new Map<string, string>();
  const written: { sha: string; body: Buffer }[] = [];
  for (const sha of shas) {
    const raw = raws.get(sha);
    if (raw === undefined) throw new Error(`git cat-file returned no object for ${sha}`);
    const commit = parseRawCommit(raw);
    const parents = commit.parents.map((p) => replaced.get(p) ?? p);
    const parentsChanged = parents.some((p, i) => p !== commit.parents[i]);
    let message: Buffer = commit.messageBytes;
    const text = readableMessage(commit);
    const result =
      text === undefined ? { changed: true as const, message: undefined } : scrubMessage(text, scrub);
    if (result.changed) {
      message = Buffer.from(result.message ?? (await fallbackMessage(git, sha, commit.parents[0])), 'utf8');
    }
    const who = opts.identity?.(sha);
    const reencoded = result.changed ? commit.headers.filter((h) => h.key !== 'encoding') : commit.headers;
    const headers = who ? withIdentity(reencoded, who) : reencoded;
    const whoChanged =
      headers.length !== commit.headers.length || headers.some((h, i) => h.text !== commit.headers[i]?.text);
    if (!parentsChanged && !result.changed && !whoChanged) continue;
    const body = renderRawCommit({ ...commit, headers }, parents, message);
    const newSha = hashObject(format, 'commit', body);
    replaced.set(sha, newSha);
    written.push({ sha: newSha, body });
  }
  if (written.length === 0) return { head: oldHead, rewritten: 0 };

  await writeCommits(git, written);
  const newHead = replaced.get(oldHead) ?? oldHead;
  // The old value guards against anyone having moved the branch while we were rewriting it.
  const reason = 'gemini-run: scrub attribution';
  if (headRef) await git.run(['update-ref', '-m', reason, headRef, newHead, oldHead]);
  else await git.run(['update-ref', '--no-deref', '-m', reason, 'HEAD', newHead, oldHead]);
  return { head: newHead, rewritten: written.length };
}

/** A new author and/or committer for a commit (name and e-mail; the dates stay as they were). */
export interface IdentityChange {
  author?: GitIdentity;
  committer?: GitIdentity;
}

/**
 * The headers with `author`/`committer` naming `who`, each keeping its date. A name or address git could not
 * write back unambiguously (a `<`, `>` or line break) is refused rather than written.
 */
function withIdentity(headers: RawCommit['headers'], who: IdentityChange): RawCommit['headers'] {
  return headers.map((h) => {
    const to = h.key === 'author' ? who.author : h.key === 'committer' ? who.committer : undefined;
    if (!to) return h;
    if (/[<>\n\0]/.test(to.name + to.email))
      throw new Error(`not a git identity: ${JSON.stringify(to.name)}`);
    const date = /> (\d+ [+-]\d{4})$/.exec(h.text)?.[1];
    if (!date) return h;
    // Header text is latin1 (see RawCommit): a UTF-8 name goes in as its bytes.
    const ident = Buffer.from(`${to.name} <${to.email}>`, 'utf8').toString('latin1');
    return { key: h.key, text: `${h.key} ${ident} ${date}` };
  });
}

export interface RawCommit {
  /**
   * Header lines in order, each with its continuation lines (a multi-line header such as gpgsig), as latin1
   * text so that every byte (a non-UTF-8 author name) survives the round trip.
   */
  headers: { key: string; text: string }[];
  parents: string[];
  /** The message decoded as UTF-8 (meaningful only when `utf8`). */
  message: string;
  /** The message exactly as stored. */
  messageBytes: Buffer;
  /**
   * True when the message is UTF-8: no encoding header (or one naming UTF-8) and valid UTF-8 bytes (see
   * readableMessage for any other).
   */
  utf8: boolean;
  /** The `encoding` header's value, when there is one. */
  encoding?: string;
}

/**
 * The message as text, as GitHub would read it: UTF-8, or decoded by the encoding its header names (invalid
 * bytes replaced); undefined when the header names an encoding there is no decoder for here.
 */
function readableMessage(commit: RawCommit): string | undefined {
  if (commit.utf8) return commit.message;
  const declared = commit.encoding?.trim();
  try {
    return new TextDecoder(declared || 'utf-8').decode(commit.messageBytes);
  } catch {
    return undefined;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export function parseRawCommit(raw: string | Buffer): RawCommit {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  const split = bytes.indexOf('\n\n');
  const headerBytes =
    split === -1
      ? bytes.subarray(0, bytes.at(-1) === 0x0a ? bytes.length - 1 : bytes.length)
      : bytes.subarray(0, split);
  const messageBytes = split === -1 ? Buffer.alloc(0) : bytes.subarray(split + 2);
  const headers: { key: string; text: string }[] = [];
  for (const line of headerBytes.toString('latin1').split('\n')) {
    const last = headers[headers.length - 1];
    if (line.startsWith(' ') && last) {
      last.text += `\n${line}`;
      continue;
    }
    const space = line.indexOf(' ');
    headers.push({ key: space === -1 ? line : line.slice(0, space), text: line });
  }
  const parents = headers.filter((h) => h.key === 'parent').map((h) => h.text.slice('parent '.length));
  const encoding = headers.find((h) => h.key === 'encoding')?.text.slice('encoding '.length);
  const declaredUtf8 = encoding === undefined || /^utf-?8$/i.test(encoding.trim());
  return {
    headers,
    parents,
    message: messageBytes.toString('utf8'),
    messageBytes,
    utf8: declaredUtf8 && isValidUtf8(messageBytes),
    ...(encoding === undefined ? {} : { encoding }),
  };
}

const SIGNATURE_HEADERS = new Set(['gpgsig', 'gpgsig-sha256']);

function renderRawCommit(commit: RawCommit, parents: string[], message: Buffer | string): Buffer {
  const lines: string[] = [];
  let parentIndex = 0;
  for (const h of commit.headers) {
    if (SIGNATURE_HEADERS.has(h.key)) continue;
    if (h.key === 'parent') {
      lines.push(`parent ${parents[parentIndex++] ?? ''}`);
      continue;
    }
    lines.push(h.text);
  }
  const msg = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
  return Buffer.concat([Buffer.from(`${lines.join('\n')}\n\n`, 'latin1'), msg]);
}

/**
 * Applies the scrub and tidies what it leaves: no trailing blank lines, no runs of blank lines where a line
 * was cut out. `message` is undefined when nothing but attribution was left, so the caller names the change.
 */
export function scrubMessage(
  original: string,
  scrub: (msg: string) => string,
): { changed: false } | { changed: true; message: string | undefined } {
  const scrubbed = scrub(original);
  if (scrubbed === original) return { changed: false };
  const tidy = scrubbed
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .trimEnd();
  if (tidy === '') return { changed: true, message: undefined };
  const message = `${tidy}\n`;
  if (message === original) return { changed: false };
  return { changed: true, message };
}

/** `Update <file>` or `Update N files`, from what the commit changed against its first parent. */
export function describeChange(files: string[]): string {
  if (files.length === 0) return 'Update\n';
  if (files.length === 1) return `Update ${files[0]}\n`;
  return `Update ${files.length} files\n`;
}

async function fallbackMessage(git: Git, sha: string, firstParent: string | undefined): Promise<string> {
  const args = firstParent
    ? ['diff-tree', '-r', '-z', '--name-only', '--no-commit-id', '--no-renames', firstParent, sha]
    : ['diff-tree', '-r', '-z', '--name-only', '--no-commit-id', '--no-renames', '--root', sha];
  const out = await git.output(args);
  return describeChange(out.split('\0').filter((f) => f !== ''));
}

function hashObject(format: 'sha1' | 'sha256', type: string, body: Buffer | string): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return createHash(format).update(`${type} ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Parses `git cat-file --batch` output (bytes: the sizes are byte counts, and objects need not be UTF-8). */
function parseCatFileBatch(stdout: Buffer | string, expected: string[]): Map<string, Buffer> {
  const buf = typeof stdout === 'string' ? Buffer.from(stdout, 'utf8') : stdout;
  const out = new Map<string, Buffer>();
  let pos = 0;
  for (const sha of expected) {
    const eol = buf.indexOf(0x0a, pos);
    if (eol === -1) throw new Error('git cat-file output ended early');
    const header = buf.subarray(pos, eol).toString('latin1');
    const m = /^([0-9a-f]+) commit (\d+)$/.exec(header);
    if (!m || m[1] !== sha) {
      throw new Error(`cannot scrub: unexpected git cat-file header ${JSON.stringify(header.slice(0, 80))}`);
    }
    const size = Number(m[2]);
    const start = eol + 1;
    const end = start + size;
    if (end >= buf.length + 1 || buf[end] !== 0x0a)
      throw new Error('cannot scrub: git cat-file output is cut short');
    out.set(sha, buf.subarray(start, end));
    pos = end + 1;
  }
  return out;
}

async function writeCommits(git: Git, commits: { sha: string; body: Buffer }[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gemini-run-scrub-'));
  try {
    const paths = commits.map((_, i) => join(dir, String(i)));
    await Promise.all(commits.map((c, i) => writeFile(paths[i] ?? '', c.body)));
    const out = await git.output(['hash-object', '-w', '-t', 'commit', '--stdin-paths'], {
      input: `${paths.join('\n')}\n`,
    });
    const ids = out.split('\n');
    commits.forEach((c, i) => {
      if (ids[i] !== c.sha) throw new Error(`git wrote commit ${ids[i] ?? '?'} where ${c.sha} was expected`);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
