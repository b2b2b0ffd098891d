/**
 * execute with a stub engine and a stub model access: what it opens is closed on every path, in reverse order,
 * and what the proxy refused ends up in the result.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthConfig, OAuthCreds } from '../../src/domain/types.js';
import { execute, type ExecuteOptions } from '../../src/host/execute.js';
import type { ModelAccess, ModelAccessOptions } from '../../src/host/model-access.js';
import type { RunOptions } from '../../src/run/options.js';
import type { RunResult } from '../../src/run/types.js';
import { createMemoryLogger } from '../../src/util/log.js';

const result: RunResult = {
  status: 'finished',
  mode: 'headless',
  sessionId: 'sess-1',
  transcript: { messages: [], toolCalls: [], tokensByModel: {}, finalAnswer: '', models: [] },
  usage: { models: [], totalTokens: 0, toolCalls: 0, turns: 1, durationMs: 10 },
  exitCode: 0,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 10,
  geminiLifetimeMs: 9,
  baseSha: 'a'.repeat(40),
  headSha: 'a'.repeat(40),
  commits: [],
  filesChanged: [],
  leftoverCommitted: false,
};

const hour = 3600_000;
const creds = (access: string, expiry: number): OAuthCreds => ({
  access_token: access,
  refresh_token: '1//refresh',
  expiry_date: expiry,
});

/** A model access that records what happens to it, in order, into `events`. */
function stubAccess(events: string[], o: Partial<ModelAccess> = {}): ModelAccess {
  let stopped = false;
  return {
    endpoint: { kind: 'gemini-api', baseUrl: 'http://127.0.0.1:9', placeholder: 'placeholder-0123456789' },
    fence: () => void events.push('fence'),
    refusals: () => ({ count: 0, first: [] }),
    // Idempotent, as the real one.
    stop: () => {
      if (!stopped) events.push('stop');
      stopped = true;
      return Promise.resolve();
    },
    ...o,
  };
}

describe('execute', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-run-execute-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const options = (
    auth: AuthConfig = { kind: 'api-key', apiKey: 'k' },
  ): ExecuteOptions & {
    log: ReturnType<typeof createMemoryLogger>;
  } => ({
    auth,
    env: { PATH: '/usr/bin' },
    log: createMemoryLogger(),
    mask: () => undefined,
    engine: {
      worktree: dir,
      task: { title: 't', instruction: 'i', comments: [], source: { kind: 'local' } },
      geminiPath: '/nonexistent/gemini',
      approvalMode: 'yolo',
      mode: 'headless',
      timeoutMs: 1000,
      runDir: join(dir, 'run'),
    },
  });

  it("hands the engine the proxy's endpoint and fence, then stops the proxy and merges its refusals", async () => {
    const events: string[] = [];
    let seen: RunOptions | undefined;
    const o = options();
    const out = await execute(o, {
      startModelAccess: () => {
        events.push('start');
        return Promise.resolve(
          stubAccess(events, {
            refusals: () => ({
              count: 2,
              first: [
                { method: 'GET', path: '/v1beta/files' },
                { method: 'POST', path: '/v1internal:generateContent', model: 'gemini-other' },
              ],
            }),
          }),
        );
      },
      runAgent: (opts) => {
        seen = opts;
        events.push('run');
        opts.fenceModel?.();
        return Promise.resolve(result);
      },
    });
    expect(events).toEqual(['start', 'run', 'fence', 'stop']);
    expect(seen).toMatchObject({ auth: o.auth, sourceEnv: o.env, modelEndpoint: { kind: 'gemini-api' } });
    expect(seen?.sandbox).toBeUndefined();
    expect(out.refusedCalls).toEqual({
      count: 2,
      first: ['GET /v1beta/files', 'POST /v1internal:generateContent (model gemini-other)'],
    });
    expect(o.log.lines).toContain(
      'warning: The model proxy refused 2 call(s) of the agent (not a model call of this run): GET /v1beta/files, POST /v1internal:generateContent (model gemini-other)',
    );
  });

  it("gives the proxy the run's models and budget, the engine its count, and never reports less than it served", async () => {
    let asked: ModelAccessOptions | undefined;
    let seen: RunOptions | undefined;
    const o = options();
    o.engine = { ...o.engine, model: 'gemini-2.5-flash', maxTokens: 120 };
    const served = { tokens: 404, answers: 12, refusedAtLimit: 48 };
    const out = await execute(o, {
      startModelAccess: (a) => {
        asked = a;
        return Promise.resolve(stubAccess([], { usage: () => served }));
      },
      runAgent: (opts) => {
        seen = opts;
        return Promise.resolve({ ...result, usage: { ...result.usage, totalTokens: 44 } });
      },
    });
    expect(asked?.tokenLimit).toBe(120);
    expect(asked?.models).toContain('gemini-2.5-flash');
    expect(asked?.models).toContain('gemini-2.5-flash-lite');
    expect(asked?.models).not.toContain('gemini-3.1-pro-preview');
    expect(seen?.modelUsage?.()).toEqual(served);
    expect(out.served).toEqual(served);
    expect(out.usage.totalTokens).toBe(404);
  });

  it('no refusals: the result is the engine’s own', async () => {
    const out = await execute(options(), {
      startModelAccess: () => Promise.resolve(stubAccess([])),
      runAgent: () => Promise.resolve(result),
    });
    expect(out).toBe(result);
  });

  it('stops the proxy when the engine throws, and the throw surfaces', async () => {
    const events: string[] = [];
    await expect(
      execute(options(), {
        startModelAccess: () => Promise.resolve(stubAccess(events)),
        runAgent: () => Promise.reject(new Error('engine broke')),
      }),
    ).rejects.toThrow('engine broke');
    expect(events).toEqual(['stop']);
  });

  it('writes a refreshed host login back after the proxy stopped, on every path', async () => {
    const hostHome = join(dir, 'host');
    await mkdir(join(hostHome, '.gemini'), { recursive: true });
    const file = join(hostHome, '.gemini', 'oauth_creds.json');
    const old = creds('ya29.old', Date.now() + hour);
    await writeFile(file, JSON.stringify(old));
    const auth: AuthConfig = { kind: 'oauth', creds: old, hostHome };
    for (const [i, engine] of [
      () => Promise.resolve(result),
      () => Promise.reject(new Error('engine broke')),
    ].entries()) {
      const events: string[] = [];
      const refreshed = creds(`ya29.refreshed-${i}`, Date.now() + 2 * hour);
      const o = options(auth);
      await execute(o, {
        startModelAccess: () =>
          Promise.resolve(
            stubAccess(events, {
              oauthCreds: () => {
                events.push('read creds');
                return refreshed;
              },
            }),
          ),
        runAgent: engine,
      }).catch(() => undefined);
      expect(events).toEqual(['stop', 'read creds']);
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ access_token: `ya29.refreshed-${i}` });
      expect(o.log.lines).toContain('Wrote the refreshed OAuth creds back to the runner host.');
    }
  });

  it('a model access that fails to start leaves nothing to stop and no engine run', async () => {
    let ran = false;
    await expect(
      execute(options(), {
        startModelAccess: () => Promise.reject(new Error('model proxy: exited (1)')),
        runAgent: () => {
          ran = true;
          return Promise.resolve(result);
        },
      }),
    ).rejects.toThrow('model proxy: exited (1)');
    expect(ran).toBe(false);
  });
});
