/**
 * `installExtensions` with the real gemini 0.42.0 installer: the extension lands in the run's home, and the
 * installer's staging dirs (`gemini-extension*` under the temp dir, which it never removes) stay in the home's
 * own temp dir and go with it, not in /tmp. Only a git source is staged there (a local one is copied), so the
 * /tmp check is the fetch-failure case's.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { installExtensions } from '../../src/gemini/extensions.js';
import { createIsolatedHome } from '../../src/gemini/home.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { GEMINI_BIN } from '../harness/gemini-launcher.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The installer's staging dirs in /tmp, where it puts them when TMPDIR does not say otherwise. */
async function stagingInTmp(): Promise<string[]> {
  return (await readdir('/tmp')).filter((n) => n.startsWith('gemini-extension'));
}

it("installs a local extension into the run home; the installer's temp dir goes with the install", async () => {
  dir = await mkdtemp(join(tmpdir(), 'gr-ext-'));
  const ext = join(dir, 'house-rules');
  await mkdir(ext);
  await writeFile(
    join(ext, 'gemini-extension.json'),
    JSON.stringify({ name: 'house-rules', version: '1.0.0' }),
  );
  const home = await createIsolatedHome(join(dir, 'home'), { kind: 'api-key', apiKey: 'k' });
  const log = createMemoryLogger();
  await installExtensions({
    geminiPath: GEMINI_BIN,
    home,
    sources: [ext],
    worktree: dir,
    sourceEnv: { PATH: process.env.PATH },
    log,
  });
  expect(log.lines.join('\n')).toContain('installed extension house-rules');
  expect(await readdir(join(home.geminiDir, 'extensions'))).toContain('house-rules');
  expect((await readdir(home.root)).filter((n) => n.startsWith('extensions-tmp-'))).toEqual([]);
});

it('a git source that cannot be fetched fails in one line and leaves no staging dir behind', async () => {
  dir = await mkdtemp(join(tmpdir(), 'gr-ext-'));
  const home = await createIsolatedHome(join(dir, 'home'), { kind: 'api-key', apiKey: 'k' });
  const before = new Set(await stagingInTmp());
  await expect(
    installExtensions({
      geminiPath: GEMINI_BIN,
      home,
      sources: ['https://git.invalid/acme/ext.git'],
      worktree: dir,
      sourceEnv: { PATH: process.env.PATH },
      log: createMemoryLogger(),
    }),
  ).rejects.toThrow(/extension 'https:\/\/git\.invalid\/acme\/ext\.git' could not be installed/);
  expect((await stagingInTmp()).filter((n) => !before.has(n))).toEqual([]);
  expect((await readdir(home.root)).filter((n) => n.startsWith('extensions-tmp-'))).toEqual([]);
});
