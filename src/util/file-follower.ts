/**
 * Following a file another process appends to (gemini's telemetry log, its session transcript), by byte
 * position: each read hands over only what was appended since the last one. The file may not exist yet; a file
 * that is replaced (another inode at the path) or truncated is read again from the start, and the caller hears
 * of it first so it can drop what it parsed.
 */
import type { FileHandle } from 'node:fs/promises';
import { lstat, watch } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { BoundedLines } from './bounded-lines.js';
import {
  AgentFileRefused,
  copyFromHandle,
  openAgentFile,
  ownerUids,
  type AgentFilePolicy,
} from './agent-file.js';

export interface FollowOptions {
  /** Size of the read buffer (one chunk). */
  chunkBytes?: number;
  /** Bytes read at most per call; the rest waits for the next (a huge file must not stall the caller). */
  maxBytesPerRead?: number;
  /**
   * How the file is checked (util/agent-file.ts): where it must lie, its owners, its size bound. The file is
   * another process's (the agent's): a link, a fifo or a hard link is refused once, and never read. Default:
   * under the file's own directory, owned by us, unbounded.
   */
  policy?: AgentFilePolicy;
}

/** The file to follow, or how to find it once it exists (the transcript's name is known only later). */
export type FollowTarget = string | (() => Promise<string | undefined>);

export class FileFollower {
  private fh: FileHandle | undefined;
  private ino = -1;
  private position = 0;
  private path: string | undefined;
  private readonly buf: Buffer;
  private busy: Promise<void> | undefined;
  private refused = false;

  constructor(
    private readonly target: FollowTarget,
    private readonly opts: FollowOptions = {},
  ) {
    this.buf = Buffer.allocUnsafe(opts.chunkBytes ?? 1024 * 1024);
    if (typeof target === 'string') this.path = target;
  }

  /** Bytes consumed so far. */
  get offset(): number {
    return this.position;
  }

  /**
   * Hands each newly appended chunk to `onChunk` (the buffer is reused: copy what you keep); `onRestart` is called
   * before the first chunk of a replaced or truncated file. Concurrent calls are serialised. A file the policy
   * refuses throws AgentFileRefused once; after that the follower reads nothing more.
   */
  read(onChunk: (chunk: Buffer) => void, onRestart: () => void): Promise<void> {
    const run = (this.busy ?? Promise.resolve()).then(() => this.readNew(onChunk, onRestart));
    this.busy = run.catch(() => undefined);
    return run;
  }

  private async readNew(onChunk: (chunk: Buffer) => void, onRestart: () => void): Promise<void> {
    if (this.path === undefined && typeof this.target !== 'string') {
      this.path = await this.target().catch(() => undefined);
    }
    if (this.path === undefined || this.refused) return;
    if (!this.fh) {
      try {
        const f = await openAgentFile(this.path, this.policy(this.path));
        this.fh = f.fh;
        this.ino = f.ino;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        if (e instanceof AgentFileRefused) this.refused = true;
        throw e;
      }
    }
    let size = (await this.fh.stat()).size;
    const max = this.policy(this.path).maxBytes;
    if (size > max) {
      // Read up to the bound, then no more: the rest of an oversized file is never read.
      if (this.position >= max) {
        this.refused = true;
        await this.close();
        throw new AgentFileRefused(this.path, `grew past the ${max} bytes read`);
      }
      size = max;
    }
    if ((await this.replacedOnDisk(this.path)) || size < this.position) {
      await this.close();
      this.position = 0;
      onRestart();
      return this.readNew(onChunk, onRestart);
    }
    let budget = this.opts.maxBytesPerRead ?? Number.POSITIVE_INFINITY;
    while (this.position < size && budget > 0) {
      const want = Math.min(this.buf.length, size - this.position, budget);
      const { bytesRead } = await this.fh.read(this.buf, 0, want, this.position);
      if (bytesRead === 0) break;
      this.position += bytesRead;
      budget -= bytesRead;
      onChunk(this.buf.subarray(0, bytesRead));
      if (this.position >= size) size = Math.min(max, (await this.fh.stat()).size);
    }
  }

  private policy(file: string): AgentFilePolicy {
    return (
      this.opts.policy ?? {
        root: path.dirname(file),
        uids: ownerUids(undefined),
        maxBytes: Number.MAX_SAFE_INTEGER,
      }
    );
  }

  /** Another inode, or a link, at the path: read again from the start (the open then checks what it is). */
  private async replacedOnDisk(path: string): Promise<boolean> {
    try {
      return (await lstat(path)).ino !== this.ino;
    } catch {
      return false;
    }
  }

  /**
   * When the followed file was unlinked while we still hold it open, writes all its bytes (read through our
   * handle, so even what was appended after the last read) to `dest` and returns true. A writer that deletes
   * its file at exit cannot take it from us. The handle is the one checked when it was opened; `dest` is a new
   * file of ours (mode 0600).
   */
  async keepIfUnlinked(dest: string): Promise<boolean> {
    if (!this.fh || this.path === undefined) return false;
    try {
      await lstat(this.path);
      return false;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    const { size, ino } = await this.fh.stat();
    await copyFromHandle({ fh: this.fh, size, ino }, dest, this.policy(this.path).maxBytes);
    return true;
  }

  async close(): Promise<void> {
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close();
  }
}

/**
 * The same as complete text lines, decoded as UTF-8 across reads: a character cut by a read boundary waits for
 * its last bytes instead of turning into U+FFFD. A line longer than `maxLineBytes` is dropped whole, its tail never
 * taken for a line of its own (util/bounded-lines.ts).
 */
export class LineFollower {
  private readonly follower: FileFollower;
  private decoder = new StringDecoder('utf8');
  private readonly lines: BoundedLines;

  constructor(target: FollowTarget, opts: FollowOptions & { maxLineBytes?: number } = {}) {
    this.follower = new FileFollower(target, opts);
    this.lines = new BoundedLines(opts.maxLineBytes ?? 8 * 1024 * 1024);
  }

  /** The lines completed since the last call (a trailing partial line waits for its newline). */
  async readLines(): Promise<string[]> {
    let text = '';
    await this.follower.read(
      (chunk) => {
        text += this.decoder.write(chunk);
      },
      () => {
        this.decoder = new StringDecoder('utf8');
        this.lines.reset();
        text = '';
      },
    );
    return text === '' ? [] : this.lines.push(text);
  }

  keepIfUnlinked(dest: string): Promise<boolean> {
    return this.follower.keepIfUnlinked(dest);
  }

  close(): Promise<void> {
    return this.follower.close();
  }
}

/**
 * Calls `read` whenever `file` may have grown: on a change in its directory (fs.watch), else every `pollMs`,
 * until `signal` aborts; then once more, so what the writer flushed as it exited is not missed.
 */
export async function followUntilAborted(
  file: string,
  read: () => Promise<void>,
  opts: { signal: AbortSignal; pollMs: number },
): Promise<void> {
  let wake: (() => void) | undefined;
  // Set by a watch event that arrives while a read is running, so the loop reads again instead of sleeping.
  let dirty = false;
  const kick = (): void => {
    dirty = true;
    const w = wake;
    wake = undefined;
    w?.();
  };
  const watcherAbort = new AbortController();
  const onAbort = (): void => {
    watcherAbort.abort();
    kick();
  };
  opts.signal.addEventListener('abort', onAbort, { once: true });
  const base = path.basename(file);
  void (async () => {
    try {
      for await (const ev of watch(path.dirname(file), { signal: watcherAbort.signal })) {
        if (ev.filename === null || ev.filename === base) kick();
      }
    } catch {
      // AbortError, or the directory vanished: the poll still runs.
    }
  })();
  try {
    while (!opts.signal.aborted) {
      dirty = false;
      await read();
      if (opts.signal.aborted) break;
      if (dirty) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, opts.pollMs);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
    await read();
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    watcherAbort.abort();
  }
}
