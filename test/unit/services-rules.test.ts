/**
 * The pure rules around the runner's services: what a follow-up tells the person when the previous transcript
 * cannot be had, and how a gemini install is keyed in the Actions cache.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeArtifactFailure } from '../../src/action/transcript-store.js';
import { hasNativeAddons, hostedInstallCache, installCacheKeys } from '../../src/gemini/install-cache.js';

const record = { sessionId: 's', runId: '41', artifact: 'gemini-run-41-1', mode: 'headless' };
const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

describe('describeArtifactFailure', () => {
  it('names the permission for a 403, the run for a 404, the expiry for a 410', () => {
    expect(describeArtifactFailure(httpError(403), record)).toBe(
      "GitHub refused to list the artifacts of run 41 (403): give the workflow 'permissions: actions: read' so that a follow-up can continue the session.",
    );
    expect(describeArtifactFailure(httpError(404), record)).toBe(
      'run 41 and its artifacts no longer exist on GitHub (404).',
    );
    expect(describeArtifactFailure(httpError(410), record)).toBe(
      "the transcript artifact 'gemini-run-41-1' of run 41 has expired (410); transcripts are kept 30 days.",
    );
  });

  it('an empty list is not found; anything else is one line without a signed URL’s query', () => {
    const notFound = Object.assign(new Error('Artifact not found for name: x\n   more'), {
      name: 'ArtifactNotFoundError',
    });
    expect(describeArtifactFailure(notFound, record)).toContain('was not found: it expired, was deleted');
    const other = describeArtifactFailure(
      new Error(
        'Unable to download http://acct.blob.core.windows.net/c/b.zip?sv=1&sig=SECRETSIG failed\nstack...',
      ),
      record,
    );
    expect(other).toBe(
      "the transcript artifact 'gemini-run-41-1' of run 41 could not be fetched: Unable to download http://acct.blob.core.windows.net/c/b.zip failed",
    );
    expect(other).not.toContain('SECRETSIG');
  });
});

describe('installCacheKeys', () => {
  const keys = installCacheKeys({
    version: '0.42.0',
    runId: '77-1',
    platform: 'linux',
    arch: 'x64',
    abi: '115',
  });

  it('asks for this run’s own key, then the newest native entry of this ABI, then the newest pure-JS entry', () => {
    expect(keys.primary).toBe('gemini-run-gemini-cli-0.42.0-linux-x64-node115-77-1');
    expect(keys.prefixes).toEqual([
      'gemini-run-gemini-cli-0.42.0-linux-x64-node115-',
      'gemini-run-gemini-cli-0.42.0-linux-x64-js-',
    ]);
    expect(keys.save(false)).toBe('gemini-run-gemini-cli-0.42.0-linux-x64-js-77-1');
    expect(keys.save(true)).toBe('gemini-run-gemini-cli-0.42.0-linux-x64-node115-77-1');
  });

  it('another ABI, version or arch never matches: prefixes end at a delimiter', () => {
    const other = installCacheKeys({
      version: '0.42.0',
      runId: '1',
      platform: 'linux',
      arch: 'x64',
      abi: '1150',
    });
    expect(other.save(true).startsWith(keys.prefixes[0] ?? '')).toBe(false);
    const newer = installCacheKeys({
      version: '0.42.01',
      runId: '1',
      platform: 'linux',
      arch: 'x64',
      abi: '115',
    });
    expect(keys.prefixes.some((p) => newer.save(false).startsWith(p))).toBe(false);
    const arm = installCacheKeys({
      version: '0.42.0',
      runId: '1',
      platform: 'linux',
      arch: 'arm64',
      abi: '115',
    });
    expect(keys.prefixes.some((p) => arm.save(false).startsWith(p))).toBe(false);
  });

  it('keys hold no comma (the cache refuses them) whatever the run id', () => {
    const odd = installCacheKeys({
      version: '0.42.0',
      runId: '1,2 3',
      platform: 'linux',
      arch: 'x64',
      abi: '1',
    });
    expect(odd.save(false)).not.toMatch(/[, ]/);
  });
});

describe('hasNativeAddons / hostedInstallCache', () => {
  it('finds a .node file anywhere below the install', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-run-native-'));
    try {
      await mkdir(join(dir, 'node_modules', 'a', 'build', 'Release'), { recursive: true });
      await writeFile(join(dir, 'node_modules', 'a', 'index.js'), '');
      expect(await hasNativeAddons(dir)).toBe(false);
      await writeFile(join(dir, 'node_modules', 'a', 'build', 'Release', 'pty.node'), '');
      expect(await hasNativeAddons(dir)).toBe(true);
      expect(await hasNativeAddons(join(dir, 'missing'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('only a GitHub-hosted job with the results service and a runtime token gets the Actions cache', () => {
    const hosted = {
      RUNNER_ENVIRONMENT: 'github-hosted',
      ACTIONS_RESULTS_URL: 'https://results.example/',
      ACTIONS_RUNTIME_TOKEN: 'x.y.z',
    };
    expect(hostedInstallCache(hosted)).toBeDefined();
    expect(hostedInstallCache({ ...hosted, RUNNER_ENVIRONMENT: 'self-hosted' })).toBeUndefined();
    expect(hostedInstallCache({ ...hosted, ACTIONS_RUNTIME_TOKEN: '' })).toBeUndefined();
    expect(hostedInstallCache({ RUNNER_ENVIRONMENT: 'github-hosted' })).toBeUndefined();
  });
});
