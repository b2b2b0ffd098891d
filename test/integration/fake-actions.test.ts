/**
 * The fake Actions results service and blob storage, checked with the real clients in this process
 * (@actions/artifact, @actions/cache and @octokit via FakeGitHub) and, for the answers the clients only pass on,
 * with raw HTTP: the twirp and Azure error shapes, signatures, and the cache's key matching.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as cache from '@actions/cache';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeGitHub } from '../../src/fake/github-api.js';
import { FakeActionsServices } from '../harness/fake-actions.js';

const TOKEN = 'ghs_' + 'FakeActionsFakeActionsFakeActions0000';
let tmp: string;
let github: FakeGitHub;
let services: FakeActionsServices;
// @actions/github fixes its API base URL when first imported: import the artifact client once the fake is up.
let DefaultArtifactClient: typeof import('@actions/artifact').DefaultArtifactClient;

beforeAll(async () => {
  github = new FakeGitHub({ token: TOKEN });
  await github.start();
  github.addRepo({ owner: 'acme', name: 'widgets' });
  process.env.GITHUB_API_URL = github.url;
  ({ DefaultArtifactClient } = await import('@actions/artifact'));
});
afterAll(async () => {
  delete process.env.GITHUB_API_URL;
  await github.stop();
});

async function job(runId: number, blobHost: 'azure' | 'loopback' = 'loopback'): Promise<void> {
  vi.unstubAllEnvs();
  if (!services) services = await FakeActionsServices.start({ blobHost });
  for (const [k, v] of Object.entries({
    ...services.jobEnv({ runId, repo: 'acme/widgets' }),
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: join(tmp, 'ws'),
    RUNNER_TEMP: join(tmp, 'temp'),
  })) {
    vi.stubEnv(k, v);
  }
}

const twirp = (method: string, body: unknown, token?: string) =>
  fetch(new URL(`/twirp/github.actions.results.api.v1.ArtifactService/${method}`, services.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'gemini-run-fake-actions-'));
  await mkdir(join(tmp, 'ws'), { recursive: true });
  await writeFile(join(tmp, 'ws', 'transcript.jsonl'), '{"type":"user"}\n'.repeat(2000));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  expect(services.unexpected).toEqual([]);
  github.assertNoUnexpected();
  await services.stop();
  services = undefined as unknown as FakeActionsServices;
  await rm(tmp, { recursive: true, force: true });
});

describe('the fake results service with the real clients', () => {
  it('artifacts: upload in blocks, then download in the same run (twirp) and from another run (findBy, REST)', async () => {
    await job(1);
    github.serveArtifacts(services);
    const client = new DefaultArtifactClient();
    const file = join(tmp, 'ws', 'transcript.jsonl');
    const { id = 0 } = await client.uploadArtifact('t-1', [file], join(tmp, 'ws'), { retentionDays: 5 });
    expect(id).toBeGreaterThan(0);
    // Same run: ListArtifacts + GetSignedArtifactURL.
    const own = await client.getArtifact('t-1');
    expect(own.artifact).toMatchObject({ id, name: 't-1' });
    await client.downloadArtifact(id, { path: join(tmp, 'same') });
    expect(await readFile(join(tmp, 'same', 'transcript.jsonl'), 'utf8')).toBe(await readFile(file, 'utf8'));
    // Another run: the REST API with the job's token, the zip through a 302.
    await job(2);
    const findBy = { token: TOKEN, workflowRunId: 1, repositoryOwner: 'acme', repositoryName: 'widgets' };
    const other = await client.getArtifact('t-1', { findBy });
    expect(other.artifact.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const { digestMismatch } = await client.downloadArtifact(id, {
      path: join(tmp, 'other'),
      findBy,
      expectedHash: other.artifact.digest,
    });
    expect(digestMismatch).toBe(false);
    expect(await readFile(join(tmp, 'other', 'transcript.jsonl'), 'utf8')).toBe(await readFile(file, 'utf8'));
    // The twirp client never sees another run's artifacts.
    await expect(client.getArtifact('t-1')).rejects.toThrow(/Artifact not found for name: t-1/);
    expect(services.calls.filter((c) => c.service === 'blob').map((c) => c.op)).toEqual([
      'put-block',
      'put-block-list',
      'get',
      'get',
    ]);
  });

  it("gemini-run report reads an uploaded artifact's run-summary.json by ranges, on loopback and on an Azure host", async () => {
    for (const blobHost of ['loopback', 'azure'] as const) {
      await job(7, blobHost);
      github.serveArtifacts(services);
      const ws = join(tmp, 'ws');
      // The action's files; a transcript too long to fetch whole, so the archive is read by ranges.
      await writeFile(join(ws, 'run-summary.json'), JSON.stringify({ status: 'finished', blobHost }));
      await writeFile(join(ws, 'summary.md'), '## gemini-run\n');
      await writeFile(join(ws, 'transcript.jsonl'), randomBytes(600_000).toString('base64'));
      const files = ['run-summary.json', 'summary.md', 'transcript.jsonl'].map((f) => join(ws, f));
      const { id = 0, size = 0 } = await new DefaultArtifactClient().uploadArtifact(
        'gemini-run-7-1',
        files,
        ws,
      );
      const before = services.calls.length;
      // Imported here: @actions/github, under both, fixes its API base URL when first imported (see beforeAll).
      const { createGitHubClient } = await import('../../src/github/client.js');
      const { readArtifactSummary } = await import('../../src/report/artifact-summary.js');
      const read = await readArtifactSummary(
        createGitHubClient(TOKEN, github.url),
        { owner: 'acme', repo: 'widgets' },
        { id, size },
      );
      expect(read).toEqual({ kind: 'summary', text: JSON.stringify({ status: 'finished', blobHost }) });
      const gets = services.calls.slice(before).filter((c) => c.service === 'blob');
      // The directory from the archive's end, then the entry; one read when the entry lies in those last bytes:
      // archiver adds `file()`s in the order their stat calls finish (four at a time), not the order given.
      const ranges = gets.map((c) => `${c.op} ${c.status}`);
      expect(ranges).toEqual(ranges.length === 1 ? ['get-range 206'] : ['get-range 206', 'get-range 206']);
      await services.stop();
      services = undefined as unknown as FakeActionsServices;
    }
    await job(8);
  });

  it('an uploaded name cannot be uploaded twice in a run (409), as on GitHub', async () => {
    await job(1);
    const client = new DefaultArtifactClient();
    const file = join(tmp, 'ws', 'transcript.jsonl');
    await client.uploadArtifact('dup', [file], join(tmp, 'ws'));
    await expect(client.uploadArtifact('dup', [file], join(tmp, 'ws'))).rejects.toThrow(
      /Failed to CreateArtifact: Received non-retryable error: Failed request: \(409\) Conflict: an artifact with this name already exists/,
    );
  });

  it('cache: exact key first, then the newest entry of a restore-key prefix; ranged reads on an Azure host', async () => {
    await job(1, 'azure');
    const dir = join(tmp, 'ws', 'thing');
    for (const [key, content] of [
      ['k-a-1', 'one'],
      ['k-a-2', 'two'],
      ['k-b-1', 'three'],
    ] as const) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'f'), content);
      expect(await cache.saveCache([dir], key)).toBeGreaterThan(0);
      await rm(dir, { recursive: true });
    }
    expect(await cache.restoreCache([dir], 'k-a-1', ['k-'])).toBe('k-a-1');
    expect(await readFile(join(dir, 'f'), 'utf8')).toBe('one');
    await rm(dir, { recursive: true });
    expect(await cache.restoreCache([dir], 'nope', ['k-a-'])).toBe('k-a-2');
    expect(await readFile(join(dir, 'f'), 'utf8')).toBe('two');
    expect(await cache.restoreCache([dir], 'nope', ['x-'])).toBeUndefined();
    // Another path is another cache version: no hit.
    expect(await cache.restoreCache([join(tmp, 'ws', 'other')], 'k-a-1')).toBeUndefined();
    expect(services.calls.filter((c) => c.service === 'blob').map((c) => c.op)).toContain('get-range');
  });
});

describe('the fake results service answers like GitHub', () => {
  it('no runtime token: twirp unauthenticated 401; the clients refuse before calling', async () => {
    await job(1);
    const r = await twirp('ListArtifacts', {
      workflow_run_backend_id: 'x',
      workflow_job_run_backend_id: 'y',
    });
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ code: 'unauthenticated' });
    vi.stubEnv('ACTIONS_RUNTIME_TOKEN', '');
    await expect(new DefaultArtifactClient().getArtifact('x')).rejects.toThrow(
      'Unable to get the ACTIONS_RUNTIME_TOKEN env variable',
    );
  });

  it('a token of another run, or for other backend ids: permission_denied 403', async () => {
    await job(1);
    const own = services.runtimeToken({ runId: 1, repo: 'acme/widgets' });
    const r = await twirp(
      'ListArtifacts',
      { workflow_run_backend_id: 'someone-else', workflow_job_run_backend_id: 'y' },
      own,
    );
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ code: 'permission_denied' });
  });

  it('unknown twirp methods are bad_route 404 and recorded as unexpected', async () => {
    await job(1);
    const r = await twirp('MigrateArtifact', {}, services.runtimeToken({ runId: 1, repo: 'acme/widgets' }));
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ code: 'bad_route' });
    expect(services.unexpected).toEqual([
      'twirp github.actions.results.api.v1.ArtifactService/MigrateArtifact',
    ]);
    services.unexpected.length = 0;
  });

  it('a blob URL with a tampered or expired signature: Azure 403 AuthenticationFailed', async () => {
    await job(1);
    github.serveArtifacts(services);
    await new DefaultArtifactClient().uploadArtifact(
      't',
      [join(tmp, 'ws', 'transcript.jsonl')],
      join(tmp, 'ws'),
    );
    const [artifact] = services.runArtifacts('acme/widgets', 1) ?? [];
    const url = new URL(services.signedZipUrl('acme/widgets', artifact?.id ?? 0));
    expect((await fetch(url)).status).toBe(200);
    url.searchParams.set('sig', `${url.searchParams.get('sig')?.slice(0, -2)}00`);
    const tampered = await fetch(url);
    expect(tampered.status).toBe(403);
    expect(tampered.headers.get('x-ms-error-code')).toBe('AuthenticationFailed');
    expect(await tampered.text()).toContain('<Code>AuthenticationFailed</Code>');
    const fresh = new URL(services.signedZipUrl('acme/widgets', artifact?.id ?? 0));
    services.advanceDays(1);
    expect((await fetch(fresh)).status).toBe(403);
  });
});
