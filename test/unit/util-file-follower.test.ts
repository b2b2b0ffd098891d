import {
  appendFile,
  mkdtemp,
  readFile,
  rename,
  rm,
  stat,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileFollower, LineFollower } from '../../src/util/file-follower.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tempFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'follower-'));
  dirs.push(dir);
  return join(dir, 'log');
}

/** What one read hands over, as text, and whether it started over. */
async function readOnce(f: FileFollower): Promise<{ text: string; restarted: boolean }> {
  let text = '';
  let restarted = false;
  await f.read(
    (chunk) => {
      text += chunk.toString('utf8');
    },
    () => {
      restarted = true;
    },
  );
  return { text, restarted };
}

describe('FileFollower', () => {
  it('waits for the file, then hands over only what was appended', async () => {
    const file = await tempFile();
    const f = new FileFollower(file, { chunkBytes: 4 });
    expect(await readOnce(f)).toEqual({ text: '', restarted: false });
    await writeFile(file, 'hello ');
    expect(await readOnce(f)).toEqual({ text: 'hello ', restarted: false });
    await appendFile(file, 'world');
    expect(await readOnce(f)).toEqual({ text: 'world', restarted: false });
    expect(f.offset).toBe(11);
    await f.close();
  });

  it('starts over when the file is replaced or truncated, and says so first', async () => {
    const file = await tempFile();
    const f = new FileFollower(file);
    await writeFile(file, 'first file, long');
    await readOnce(f);
    await writeFile(`${file}.new`, 'second');
    await rename(`${file}.new`, file);
    expect(await readOnce(f)).toEqual({ text: 'second', restarted: true });
    await truncate(file, 0);
    await appendFile(file, 'x');
    expect(await readOnce(f)).toEqual({ text: 'x', restarted: true });
    await f.close();
  });

  it('reads at most maxBytesPerRead per call, the rest on the next', async () => {
    const file = await tempFile();
    await writeFile(file, 'abcdefghij');
    const f = new FileFollower(file, { chunkBytes: 3, maxBytesPerRead: 4 });
    expect((await readOnce(f)).text).toBe('abcd');
    expect((await readOnce(f)).text).toBe('efgh');
    expect((await readOnce(f)).text).toBe('ij');
    await f.close();
  });

  it('finds a file named later', async () => {
    const file = await tempFile();
    const named: { path?: string } = {};
    const f = new FileFollower(() => Promise.resolve(named.path));
    expect((await readOnce(f)).text).toBe('');
    await writeFile(file, 'found');
    named.path = file;
    expect((await readOnce(f)).text).toBe('found');
    await f.close();
  });
});

describe('keeping a file its writer deletes', () => {
  it('copies every byte, appended after the last read too, once the path is gone; nothing while it exists', async () => {
    const file = await tempFile();
    const kept = `${file}.kept`;
    const f = new FileFollower(file);
    await writeFile(file, 'line one\n');
    await readOnce(f);
    await appendFile(file, 'line two\n');
    expect(await f.keepIfUnlinked(kept)).toBe(false);
    await unlink(file);
    expect(await f.keepIfUnlinked(kept)).toBe(true);
    expect(await readFile(kept, 'utf8')).toBe('line one\nline two\n');
    expect((await stat(kept)).mode & 0o777).toBe(0o600);
    await f.close();
    // never opened: nothing to keep
    expect(await new FileFollower(file).keepIfUnlinked(kept)).toBe(false);
  });
});

describe('LineFollower', () => {
  it('keeps a character cut by a read boundary whole, and waits for a line to end', async () => {
    const file = await tempFile();
    const bytes = Buffer.from('{"args":"日本語"}\nnext');
    const cut = bytes.indexOf(Buffer.from('本')) + 1;
    await writeFile(file, bytes.subarray(0, cut));
    const f = new LineFollower(file, { chunkBytes: 5 });
    expect(await f.readLines()).toEqual([]);
    await appendFile(file, bytes.subarray(cut));
    expect(await f.readLines()).toEqual(['{"args":"日本語"}']);
    await appendFile(file, ' line\n');
    expect(await f.readLines()).toEqual(['next line']);
    await f.close();
  });
});
