/**
 * The gemini install carried across hosted jobs by the real @actions/cache against the fake results service (cache
 * v2 twirp calls, single-shot blob upload, HEAD + ranged blob reads through an Azure-style host). Each "job" gets a
 * new run id and runtime token and starts with an empty tool cache at the same path, as a GitHub-hosted VM does.
 * npm is a stand-in script here (the real cold install is in the action e2e and the benchmark): it lays out the
 * package the way npm does and records each call, so a test can tell a restore from an install.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { geminiBinIn, installGemini, toolCacheDir } from '../../src/gemini/install.js';
import { hostedInstallCache } from '../../src/gemini/install-cache.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeActionsServices } from '../harness/fake-actions.js';

const VERSION = '0.42.0';
let tmp: string;
let services: FakeActionsServices;
let npm: string;
let npmLog: string;
let nextRun = 9100;

/** A stand-in npm: `install --prefix <dir> ... <pkg>@<version>` writes a bundle that prints the version. */
const FAKE_NPM = `#!/bin/sh
prefix=""; spec=""
while [ $# -gt 0 ]; do
  case "$1" in --prefix) prefix="$2"; shift;; -*) ;; *) spec="$1";; esac; shift
done
echo "$spec" >> "$FAKE_NPM_LOG"
bundle="$prefix/node_modules/@google/gemini-cli/bundle"
mkdir -p "$bundle"
echo "console.log('\${FAKE_NPM_REPORTS:-\${spec##*@}}')" > "$bundle/gemini.js"
head -c 9000000 /dev/urandom > "$bundle/chunk.bin"
echo "added 1 package in 0s"
`;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'gemini-run-install-cache-'));
  npm = join(tmp, 'npm');
  npmLog = join(tmp, 'npm.log');
  await writeFile(npm, FAKE_NPM);
  await chmod(npm, 0o755);
  await writeFile(npmLog, '');
  await mkdir(join(tmp, 'workspace'), { recursive: true });
  services = await FakeActionsServices.start({ blobHost: 'azure' });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await services.stop();
  await rm(tmp, { recursive: true, force: true });
});

const toolCache = () => join(tmp, 'hostedtoolcache');
const npmCalls = async () => (await readFile(npmLog, 'utf8')).split('\n').filter(Boolean);

/** A fresh hosted job: new run, new token, empty tool cache (same path), the job's env in process.env. */
async function hostedJob(extra: Record<string, string> = {}): Promise<void> {
  vi.unstubAllEnvs();
  await rm(toolCache(), { recursive: true, force: true });
  const env = {
    ...services.jobEnv({ runId: nextRun++, repo: 'acme/widgets' }),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKSPACE: join(tmp, 'workspace'),
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_TEMP: join(tmp, 'runner-temp'),
    FAKE_NPM_LOG: npmLog,
    ...extra,
  };
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
}

/** installGemini as the action calls it, with what @actions/core printed (workflow commands) captured. */
async function install() {
  const log = createMemoryLogger();
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout) as (...a: unknown[]) => boolean;
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
    printed.push(String(chunk));
    return write(chunk, ...rest);
  });
  try {
    const bin = await installGemini({ version: VERSION, cacheRoot: toolCache(), log, npm });
    return { bin, lines: log.lines, printed: printed.join('') };
  } finally {
    spy.mockRestore();
  }
}

const ops = () => services.calls.map((c) => `${c.service}:${c.op}:${c.status}`);

describe('the gemini install across hosted jobs (Actions cache)', () => {
  it('a cold job installs from npm and saves; the next job restores it (ranged reads) without npm', async () => {
    await hostedJob();
    const cold = await install();
    expect(await npmCalls()).toEqual([`@google/gemini-cli@${VERSION}`]);
    // What npm prints is in the job log, through the Logger, not written around it.
    expect(cold.lines).toContain('added 1 package in 0s');
    expect(cold.printed).not.toContain('added 1 package');
    expect(cold.lines.join('\n')).toMatch(
      /Saved gemini 0\.42\.0 to the Actions cache as gemini-run-gemini-cli-0\.42\.0-linux-x64-js-9\d+-1/,
    );
    expect(services.cacheEntries()).toHaveLength(1);
    expect(ops()).toEqual(
      expect.arrayContaining([
        'cache:CreateCacheEntry:200',
        'blob:put-blob:201',
        'cache:FinalizeCacheEntryUpload:200',
      ]),
    );

    services.calls.length = 0;
    await hostedJob();
    const warm = await install();
    expect(warm.bin).toBe(geminiBinIn(toolCacheDir(toolCache(), VERSION)));
    expect(await npmCalls()).toHaveLength(1); // no second npm install
    expect(warm.lines.join('\n')).toContain('Restored gemini 0.42.0 from the Actions cache');
    expect(ops()[0]).toBe('cache:GetCacheEntryDownloadURL:200');
    expect(ops()).toContain('blob:head:200');
    expect(ops().filter((o) => o === 'blob:get-range:206').length).toBeGreaterThanOrEqual(2); // 4 MB blocks
    // Already complete in the tool cache: a second call in the same job asks nobody.
    services.calls.length = 0;
    expect((await install()).lines.join('\n')).toContain('Using cached gemini 0.42.0');
    expect(services.calls).toEqual([]);
    expect(services.unexpected).toEqual([]);
  });

  it('a restore whose gemini reports another version is thrown away: npm installs, and the good install supersedes it', async () => {
    // A broken entry: an install that says it is 0.0.1, saved under the key a cold job would use.
    await hostedJob();
    const dir = toolCacheDir(toolCache(), VERSION);
    await mkdir(join(geminiBinIn(dir), '..'), { recursive: true });
    await writeFile(geminiBinIn(dir), "console.log('0.0.1')\n");
    expect(
      await hostedInstallCache(process.env)?.save(dir, `gemini-run-gemini-cli-${VERSION}-linux-x64-js-1-1`),
    ).toBe(true);

    await hostedJob();
    const r = await install();
    expect(r.lines.join('\n')).toContain(
      "warning: The gemini restored from the Actions cache (gemini-run-gemini-cli-0.42.0-linux-x64-js-1-1) reports version '0.0.1', expected '0.42.0': installing from npm instead.",
    );
    expect((await npmCalls()).at(-1)).toBe(`@google/gemini-cli@${VERSION}`);
    expect(r.lines.join('\n')).toContain('Saved gemini 0.42.0 to the Actions cache');

    // The next job gets the newest entry of the prefix: the good one.
    const before = (await npmCalls()).length;
    await hostedJob();
    expect((await install()).lines.join('\n')).toContain('Restored gemini 0.42.0 from the Actions cache');
    expect(await npmCalls()).toHaveLength(before);
  });

  it('a partial archive (truncated upload) fails extraction, is logged, and npm installs', async () => {
    await hostedJob();
    await install();
    const [entry] = services.cacheEntries();
    services.tamperCache(entry?.key ?? '', (b) => b.subarray(0, Math.floor(b.length / 2)));
    await hostedJob();
    const r = await install();
    expect(r.printed).toMatch(/::warning::Failed to restore: /);
    expect(await npmCalls()).toHaveLength(2);
    expect(r.lines.join('\n')).toContain(`Installing @google/gemini-cli@${VERSION}`);
    expect(await readFile(r.bin, 'utf8')).toContain(VERSION);
  });

  it('the cache service down: logged, never fatal, npm installs', async () => {
    await hostedJob();
    await services.stop();
    const r = await install();
    expect(r.printed).toMatch(
      /::warning::Failed to restore: Failed to GetCacheEntryDownloadURL: Unable to make request: ECONNREFUSED/,
    );
    expect(r.printed).toMatch(/Failed to save: /);
    expect(r.lines.join('\n')).not.toContain('Saved gemini');
    expect(await npmCalls()).toHaveLength(1);
    expect(await readFile(r.bin, 'utf8')).toContain(VERSION);
  });

  it('the cache service refusing (429 on the lookup, 403 on the blob): logged, npm installs', async () => {
    await hostedJob();
    await install();
    await hostedJob();
    services.failNext({ service: 'cache', op: 'GetCacheEntryDownloadURL', status: 429 });
    const limited = await install();
    expect(limited.printed).toMatch(/::warning::Failed to restore: .*429/);
    expect(await npmCalls()).toHaveLength(2);

    await hostedJob();
    services.failNext({ service: 'blob', op: 'head', status: 403 });
    const refused = await install();
    expect(refused.printed).toMatch(/::warning::Failed to restore: /);
    expect(await npmCalls()).toHaveLength(3);
  });

  it('a wrong runtime token: the lookup is refused (401), logged, and npm installs', async () => {
    await hostedJob();
    vi.stubEnv('ACTIONS_RUNTIME_TOKEN', `${process.env.ACTIONS_RUNTIME_TOKEN?.slice(0, -4)}AAAA`);
    const r = await install();
    expect(r.printed).toMatch(
      /::warning::Failed to restore: Failed to GetCacheEntryDownloadURL: Received non-retryable error: Failed request: \(401\) Unauthorized/,
    );
    expect(await npmCalls()).toHaveLength(1);
    expect(services.cacheEntries()).toEqual([]);
  });

  it('self-hosted runners keep the tool-cache path and never call the cache service', async () => {
    await hostedJob({ RUNNER_ENVIRONMENT: 'self-hosted' });
    const first = await install();
    expect(first.lines.join('\n')).not.toContain('Actions cache');
    const second = await install();
    expect(second.lines.join('\n')).toContain(`Using cached gemini ${VERSION}`);
    expect(await npmCalls()).toHaveLength(1);
    expect(services.calls).toEqual([]);
  });
});
