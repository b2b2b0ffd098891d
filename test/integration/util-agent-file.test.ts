/**
 * util/agent-file.ts: a file the agent could write is read as data. Each way to make it something else (a link
 * at the leaf or in a directory, a hard link, a fifo, a directory, too big, someone else's) is refused, and the
 * refusal says which. In the integration project: the fifo is made with mkfifo.
 */
import { execFileSync } from 'node:child_process';
import { chown, link, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AgentFileRefused,
  copyAgentFile,
  openAgentFile,
  ownerUids,
  readAgentFile,
  type AgentFilePolicy,
} from '../../src/util/agent-file.js';
import { LineFollower } from '../../src/util/file-follower.js';

let dir: string;
let root: string;
let policy: AgentFilePolicy;
const SECRET = 'secret-marker-4f1c9e';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-file-'));
  root = join(dir, 'agent');
  await mkdir(join(root, 'home', 'chats'), { recursive: true });
  await writeFile(join(dir, 'secret'), SECRET, { mode: 0o600 });
  policy = { root, uids: ownerUids(undefined), maxBytes: 1024 };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(file: string, p = policy): Promise<string> {
  const e: unknown = await readAgentFile(file, p).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AgentFileRefused);
  return (e as AgentFileRefused).reason;
}

describe('openAgentFile and its readers', () => {
  it('reads and copies a regular file of the agent, to a new file of ours (0600)', async () => {
    const file = join(root, 'home', 'chats', 'session.jsonl');
    await writeFile(file, 'line one\nline two\n');
    expect((await readAgentFile(file, policy)).toString()).toBe('line one\nline two\n');
    expect((await readAgentFile('home/chats/session.jsonl', policy)).toString()).toContain('two');
    const dest = join(dir, 'copy.jsonl');
    await writeFile(dest, 'stale');
    await copyAgentFile(file, dest, policy);
    expect(await readFile(dest, 'utf8')).toBe('line one\nline two\n');
    expect((await stat(dest)).mode & 0o777).toBe(0o600);
  });

  it('refuses a symbolic link at the leaf', async () => {
    const file = join(root, 'home', 'chats', 'session.jsonl');
    await symlink(join(dir, 'secret'), file);
    expect(await refusal(file)).toMatch(/symbolic link/);
    // A copy refused writes nothing.
    const dest = join(dir, 'copy.jsonl');
    await expect(copyAgentFile(file, dest, policy)).rejects.toBeInstanceOf(AgentFileRefused);
    await expect(stat(dest)).rejects.toThrow();
  });

  it('refuses a symbolic link in a directory between the root and the file', async () => {
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'session.jsonl'), SECRET);
    await rm(join(root, 'home', 'chats'), { recursive: true });
    await symlink(elsewhere, join(root, 'home', 'chats'));
    expect(await refusal(join(root, 'home', 'chats', 'session.jsonl'))).toMatch(/chats is a symbolic link/);
  });

  it('refuses a hard link (two links), even to a file we own', async () => {
    const file = join(root, 'home', 'chats', 'session.jsonl');
    await link(join(dir, 'secret'), file);
    expect(await refusal(file)).toMatch(/2 links/);
  });

  it('refuses a fifo without blocking on it, also when followed', async () => {
    const file = join(root, 'home', 'chats', 'session.jsonl');
    execFileSync('mkfifo', [file]);
    expect(await refusal(file)).toMatch(/not a regular file \(a fifo\)/);
    const follower = new LineFollower(file, { policy });
    await expect(follower.readLines()).rejects.toBeInstanceOf(AgentFileRefused);
    // Refused once, then nothing more is read from it.
    expect(await follower.readLines()).toEqual([]);
    await follower.close();
  });

  it('refuses a directory, a file outside the root and a file over the bound', async () => {
    expect(await refusal(join(root, 'home', 'chats'))).toMatch(/a directory/);
    expect(await refusal(join(dir, 'secret'))).toMatch(/not under/);
    expect(await refusal('../secret')).toMatch(/not under/);
    const big = join(root, 'home', 'big');
    await writeFile(big, Buffer.alloc(2048, 0x61));
    expect(await refusal(big)).toMatch(/2048 bytes, more than the 1024/);
  });

  it('refuses a file owned by a uid it does not expect', async () => {
    const file = join(root, 'home', 'chats', 'session.jsonl');
    await writeFile(file, 'data');
    if (process.getuid?.() === 0) {
      await chown(file, 4242, 4242);
      expect(await refusal(file)).toMatch(/owned by uid 4242/);
      expect((await readAgentFile(file, { ...policy, uids: [0, 4242] })).toString()).toBe('data');
    } else {
      expect(await refusal(file, { ...policy, uids: [4242] })).toMatch(/owned by uid/);
    }
  });

  it('the follower refuses a file replaced by a link after it began, and reads nothing of it', async () => {
    const file = join(root, 'home', 'chats', 'session.jsonl');
    await writeFile(file, 'first\n');
    const follower = new LineFollower(file, { policy });
    expect(await follower.readLines()).toEqual(['first']);
    await rm(file);
    await symlink(join(dir, 'secret'), file);
    await expect(follower.readLines()).rejects.toBeInstanceOf(AgentFileRefused);
    expect(await follower.readLines()).toEqual([]);
    await follower.close();
  });

  it('an open handle is what was checked: the kernel names it under the root', async () => {
    const file = join(root, 'home', 'chats', 'session.jsonl');
    await writeFile(file, 'x');
    const f = await openAgentFile(file, policy);
    expect(f.size).toBe(1);
    await f.fh.close();
  });
});
