/**
 * Reading a file the agent could have written (its transcript, telemetry, anything in its Gemini home or the
 * worktree) as data, with the action's rights: never following a link to something of ours. The file must sit
 * at exactly the path we computed under a trusted root (no symlink in any directory between, checked with lstat
 * and then against the kernel's own name for the opened descriptor), be opened with O_NOFOLLOW (and O_NONBLOCK,
 * so a fifo cannot block us), be a regular file with one link (a hard link to a secret is refused), owned by a
 * uid we expect, and no bigger than the bound for its kind. Everything is then read through that same
 * descriptor, never by path again.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open, readlink, realpath, rm } from 'node:fs/promises';
import path from 'node:path';

export interface AgentFilePolicy {
  /** A directory we trust to be where we think it is; the file must lie under it. */
  root: string;
  /** Owners we accept: the agent's uid and ours (after the take-back its files are ours). */
  uids: readonly number[];
  /** Largest size accepted, in bytes. */
  maxBytes: number;
}

/** Size bounds per kind of file: far above what a run writes, far below what would hurt us. */
export const AGENT_FILE_LIMITS = {
  transcript: 512 * 1024 * 1024,
  telemetry: 512 * 1024 * 1024,
  title: 8 * 1024 * 1024,
  /** The agent's commits as a git bundle (src/git/export.ts): far beyond any run's work. */
  bundle: 4 * 1024 * 1024 * 1024,
} as const;

/** The file is not one we read: a link, a fifo, a hard link, someone else's, too big, or outside the root. */
export class AgentFileRefused extends Error {
  override readonly name = 'AgentFileRefused';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

export interface AgentFile {
  fh: FileHandle;
  /** The size when it was checked. */
  size: number;
  ino: number;
}

/** The owners to accept when the agent runs as `agentUid` (undefined: it runs as us). */
export function ownerUids(agentUid: number | undefined): number[] {
  const self = process.getuid?.() ?? 0;
  return agentUid === undefined || agentUid === self ? [self] : [self, agentUid];
}

/** A file the action itself wrote, where it lies: read the same way (a link put in its place is not followed). */
export function ownFile(file: string, maxBytes: number): AgentFilePolicy {
  return { root: path.dirname(path.resolve(file)), uids: ownerUids(undefined), maxBytes };
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Opens `file` (absolute, or relative to the policy's root) for reading, validated as the file comment says.
 * Throws AgentFileRefused for a file we do not read, and the system error (ENOENT…) when there is none.
 */
export async function openAgentFile(file: string, policy: AgentFilePolicy): Promise<AgentFile> {
  const root = path.resolve(policy.root);
  const abs = path.resolve(root, file);
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new AgentFileRefused(abs, `not under ${root}`);
  }
  // Every directory from the root down: a real directory, not a link to somewhere else.
  let dir = root;
  for (const part of ['', ...rel.split(path.sep).slice(0, -1)]) {
    dir = part === '' ? dir : path.join(dir, part);
    const st = await lstat(dir);
    if (st.isSymbolicLink()) throw new AgentFileRefused(abs, `${dir} is a symbolic link`);
    if (!st.isDirectory()) throw new AgentFileRefused(abs, `${dir} is not a directory`);
  }
  let fh: FileHandle;
  try {
    fh = await open(abs, OPEN_FLAGS);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new AgentFileRefused(abs, 'is a symbolic link');
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new AgentFileRefused(abs, `is not a regular file (${kindOf(st)})`);
    if (st.nlink !== 1) throw new AgentFileRefused(abs, `has ${st.nlink} links (a hard link is not read)`);
    if (!policy.uids.includes(st.uid)) throw new AgentFileRefused(abs, `is owned by uid ${st.uid}`);
    if (st.size > policy.maxBytes) {
      throw new AgentFileRefused(abs, `is ${st.size} bytes, more than the ${policy.maxBytes} read`);
    }
    // A directory swapped for a link between the lstat and the open: the kernel names what we really opened.
    const opened = await readlink(`/proc/self/fd/${fh.fd}`).catch(() => undefined);
    if (opened !== undefined) {
      const expected = path.join(await realpath(root), rel);
      if (opened !== expected) throw new AgentFileRefused(abs, `resolves to ${opened}`);
    }
    return { fh, size: st.size, ino: st.ino };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  return st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a fifo' : st.isSocket() ? 'a socket' : 'a device';
}

/** Calls `onChunk` with the file's bytes in order, read through the validated descriptor, at most maxBytes. */
export async function readAgentFileChunks(
  f: AgentFile,
  maxBytes: number,
  onChunk: (chunk: Buffer) => void | Promise<void>,
  chunkBytes = 1024 * 1024,
): Promise<number> {
  const buf = Buffer.allocUnsafe(chunkBytes);
  let at = 0;
  while (at < maxBytes) {
    const { bytesRead } = await f.fh.read(buf, 0, Math.min(buf.length, maxBytes - at), at);
    if (bytesRead === 0) break;
    at += bytesRead;
    await onChunk(buf.subarray(0, bytesRead));
  }
  return at;
}

/** The whole file, validated, as bytes. */
export async function readAgentFile(file: string, policy: AgentFilePolicy): Promise<Buffer> {
  const f = await openAgentFile(file, policy);
  try {
    const parts: Buffer[] = [];
    await readAgentFileChunks(f, policy.maxBytes, (c) => void parts.push(Buffer.from(c)));
    return Buffer.concat(parts);
  } finally {
    await f.fh.close();
  }
}

/**
 * Copies the validated file to `dest`, a new file of ours (created exclusively, mode 0600, whatever was at that
 * path before is removed first): what the action publishes or keeps is its own copy, never the agent's file.
 */
export async function copyAgentFile(file: string, dest: string, policy: AgentFilePolicy): Promise<void> {
  const f = await openAgentFile(file, policy);
  try {
    await copyFromHandle(f, dest, policy.maxBytes);
  } finally {
    await f.fh.close();
  }
}

/** Writes the bytes of an already validated file to a new file of ours at `dest` (as copyAgentFile). */
export async function copyFromHandle(f: AgentFile, dest: string, maxBytes: number): Promise<void> {
  await rm(dest, { force: true });
  const out = await open(
    dest,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    await readAgentFileChunks(f, maxBytes, async (c) => {
      let done = 0;
      while (done < c.length) done += (await out.write(c, done, c.length - done)).bytesWritten;
    });
  } finally {
    await out.close();
  }
}
