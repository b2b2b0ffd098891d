import { existsSync, readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EXHAUSTED_TEXT,
  FakeGemini,
  SCRIPTS_DIR,
  answerUtility,
  classifyPath,
  fillSchema,
  loadScript,
  type Script,
} from '../harness/fake-gemini.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';
import { TmuxSession } from '../harness/tmux-session.js';
import { exec } from '../../src/util/exec.js';

const STREAM = (model: string) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`;

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(script: Script | string): Promise<FakeGemini> {
  fake = await FakeGemini.start(script);
  return fake;
}

function post(url: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Parses an SSE body the way the CLI's SDK does: `data: <json>` events separated by a blank line. */
function sseEvents(text: string): Record<string, unknown>[] {
  expect(text.endsWith('\r\n\r\n')).toBe(true);
  return text
    .split('\r\n\r\n')
    .filter((e) => e !== '')
    .map((e) => {
      expect(e.startsWith('data: ')).toBe(true);
      return JSON.parse(e.slice('data: '.length)) as Record<string, unknown>;
    });
}

const userTurn = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] };

describe('FakeGemini', () => {
  it('streams a text step as n SSE chunks; only the last has STOP and full usage', async () => {
    const f = await start({ description: 't', steps: [{ text: 'abcdefghij', chunks: 3 }] });
    const res = await post(f.url + STREAM('gemini-2.5-flash'), userTurn);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await res.text());
    expect(events).toHaveLength(3);
    const texts = events.map((e) => {
      const c = (e['candidates'] as { content: { parts: { text: string }[] }; finishReason?: string }[])[0];
      return { text: c?.content.parts[0]?.text, finish: c?.finishReason };
    });
    expect(texts.map((t) => t.text).join('')).toBe('abcdefghij');
    expect(texts.map((t) => t.finish)).toEqual([undefined, undefined, 'STOP']);
    const last = events[2] as {
      usageMetadata: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number };
      modelVersion: string;
    };
    expect(last.modelVersion).toBe('gemini-2.5-flash');
    expect(last.usageMetadata.candidatesTokenCount).toBeGreaterThan(0);
    expect(last.usageMetadata.totalTokenCount).toBe(
      last.usageMetadata.promptTokenCount + last.usageMetadata.candidatesTokenCount,
    );
  });

  it('sends function calls with the text, consumes steps in order, then answers "script exhausted"', async () => {
    const f = await start({
      description: 't',
      steps: [
        { text: 'Running.', functionCalls: [{ name: 'run_shell_command', args: { command: 'true' } }] },
        { text: 'done' },
      ],
    });
    const first = sseEvents(await (await post(f.url + STREAM('m1'), userTurn)).text());
    expect(first).toHaveLength(1);
    expect(JSON.stringify(first[0])).toContain(
      '"functionCall":{"name":"run_shell_command","args":{"command":"true"}}',
    );
    const second = await (await post(f.url + STREAM('m1'), userTurn)).text();
    expect(second).toContain('"text":"done"');
    const third = await (await post(f.url + STREAM('m1'), userTurn)).text();
    expect(third).toContain(EXHAUSTED_TEXT);
    expect(f.modelRequests().map((r) => r.answeredWith)).toEqual(['step 0', 'step 1', 'exhausted']);
    expect(f.remainingSteps).toBe(0);
  });

  it('answers a daily-quota 429 the way classifyGoogleError reads it as terminal', async () => {
    const f = await start('quota-daily');
    const res = await post(f.url + STREAM('gemini-2.5-flash'), userTurn);
    expect(res.status).toBe(429);
    const body = (await res.json()) as {
      error: {
        code: number;
        status: string;
        details: { '@type': string; violations?: { quotaId: string }[]; retryDelay?: string }[];
      };
    };
    expect(body.error.code).toBe(429);
    expect(body.error.status).toBe('RESOURCE_EXHAUSTED');
    const qf = body.error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.QuotaFailure');
    expect(qf?.violations?.[0]?.quotaId).toBe('GenerateRequestsPerDayPerProjectPerModel-FreeTier');
    expect(body.error.details.some((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo')).toBe(
      true,
    );
  });

  it('answers a rate-limit 429 with a per-minute quota and a short RetryInfo, and 500/503 with plain bodies', async () => {
    const f = await start({
      description: 't',
      steps: [
        { error: { status: 429, kind: 'rate-limit' } },
        { error: { status: 503 } },
        { error: { status: 500 } },
      ],
    });
    const r1 = await post(f.url + STREAM('m'), userTurn);
    const b1 = JSON.stringify(await r1.json());
    expect(b1).toContain('PerMinute');
    expect(b1).not.toContain('PerDay');
    expect(b1).toContain('"retryDelay":"2s"');
    const r2 = await post(f.url + STREAM('m'), userTurn);
    expect(r2.status).toBe(503);
    expect(await r2.json()).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
    const r3 = await post(f.url + STREAM('m'), userTurn);
    expect(r3.status).toBe(500);
    expect(await r3.json()).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });

  it('delays a step by delayMs', async () => {
    const f = await start({ description: 't', steps: [{ delayMs: 300, text: 'late' }] });
    const t0 = Date.now();
    await (await post(f.url + STREAM('m'), userTurn)).text();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('never answers a hang step, and close() still returns promptly', async () => {
    const f = await start('hang');
    const ac = new AbortController();
    const pending = post(f.url + STREAM('m'), userTurn, ac.signal).then(
      () => 'answered',
      () => 'failed',
    );
    const raced = await Promise.race([
      pending,
      new Promise((r) => setTimeout(() => r('still waiting'), 400)),
    ]);
    expect(raced).toBe('still waiting');
    const t0 = Date.now();
    await f.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await pending).toBe('failed');
    fake = undefined;
  });

  it('records every request with method, path, model, kind and parsed body; unknown paths get 404', async () => {
    const f = await start('plain-answer');
    await (await post(`${f.url}/v1beta/models/gemini-2.5-flash:countTokens`, { contents: [] })).json();
    const nf = await fetch(`${f.url}/v1beta/models`);
    expect(nf.status).toBe(404);
    await nf.text();
    await (await post(f.url + STREAM('gemini-2.5-pro'), userTurn)).text();
    expect(f.requests.map((r) => [r.method, r.kind, r.model ?? null])).toEqual([
      ['POST', 'countTokens', 'gemini-2.5-flash'],
      ['GET', 'other', null],
      ['POST', 'stream', 'gemini-2.5-pro'],
    ]);
    expect(f.requests[2]?.body).toEqual(userTurn);
    expect(f.modelRequests()).toHaveLength(1);
  });

  it('answers countTokens with a positive totalTokens', async () => {
    const f = await start('plain-answer');
    const body = (await (await post(`${f.url}/v1beta/models/x:countTokens`, userTurn)).json()) as {
      totalTokens: number;
    };
    expect(body.totalTokens).toBeGreaterThan(0);
  });
});

describe('utility answers', () => {
  // The exact generationConfig the 0.42.0 NumericalClassifier router sends (observed live).
  const routerConfig = {
    temperature: 0,
    topP: 1,
    maxOutputTokens: 1024,
    responseMimeType: 'application/json',
    responseJsonSchema: {
      type: 'OBJECT',
      properties: {
        complexity_reasoning: { type: 'STRING', description: 'Brief explanation for the score.' },
        complexity_score: { type: 'INTEGER', description: 'Complexity score from 1-100.' },
      },
      required: ['complexity_reasoning', 'complexity_score'],
    },
  };

  it('answers the numerical router with a conforming, lowest (flash) score', () => {
    const { label, response } = answerUtility(
      { contents: [], generationConfig: routerConfig },
      'gemini-2.5-flash-lite',
    );
    expect(label).toBe('json:complexity_reasoning,complexity_score');
    const text = (response as { candidates: { content: { parts: { text: string }[] } }[] }).candidates[0]
      ?.content.parts[0]?.text;
    const parsed = JSON.parse(text ?? '') as { complexity_score: number; complexity_reasoning: string };
    expect(parsed.complexity_score).toBeGreaterThanOrEqual(1);
    expect(parsed.complexity_score).toBeLessThanOrEqual(100);
    expect(typeof parsed.complexity_reasoning).toBe('string');
  });

  it('fills enums with flash / user and loop confidence with 0', () => {
    expect(
      fillSchema({
        type: 'object',
        properties: {
          model_choice: { type: 'string', enum: ['pro', 'flash'] },
          reasoning: { type: 'string' },
        },
      }),
    ).toMatchObject({ model_choice: 'flash' });
    expect(
      fillSchema({
        type: 'object',
        properties: { next_speaker: { type: 'string', enum: ['model', 'user'] } },
      }),
    ).toEqual({
      next_speaker: 'user',
    });
    expect(
      fillSchema({
        type: 'object',
        properties: { c: { type: 'number', description: 'A number between 0.0 and 1.0' } },
      }),
    ).toEqual({ c: 0 });
  });

  it('answers a plain-text utility call with text', () => {
    expect(answerUtility({ contents: [] }, 'm').label).toBe('text');
  });

  it('classifies API paths', () => {
    expect(classifyPath('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse')).toEqual({
      model: 'gemini-2.5-flash',
      kind: 'stream',
    });
    expect(classifyPath('/v1beta/models/a:generateContent').kind).toBe('generate');
    expect(classifyPath('/v1beta/models/a:batchEmbedContents').kind).toBe('other');
    expect(classifyPath('/upload').kind).toBe('other');
  });

  it('every script in fixtures/scripts parses and has a description', () => {
    const names = readdirSync(SCRIPTS_DIR).filter((n) => n.endsWith('.json'));
    expect(names.length).toBeGreaterThanOrEqual(7);
    for (const n of names) expect(loadScript(n.replace(/\.json$/, '')).description.length).toBeGreaterThan(0);
  });
});

// The other harness pieces are cheap to check without gemini; they live here to keep the harness's tests together.
describe('createWorkRepo', () => {
  it('makes a repo on main with a bare origin, local identity, gc off, and ignores GIT_DIR in the environment', async () => {
    const saved = process.env['GIT_DIR'];
    process.env['GIT_DIR'] = '/nonexistent/elsewhere.git';
    let repo: WorkRepo | undefined;
    try {
      repo = await createWorkRepo({ name: 'unit-sample', files: { 'extra.txt': 'x\n' } });
      expect(basename(repo.dir)).toBe('unit-sample');
      expect((await repo.git(['rev-parse', '--abbrev-ref', 'HEAD'])).trim()).toBe('main');
      expect((await repo.git(['ls-files'])).trim().split('\n').sort()).toEqual([
        'README.md',
        'extra.txt',
        'src/greet.js',
      ]);
      expect((await repo.git(['config', 'gc.auto'])).trim()).toBe('0');
      expect((await repo.git(['config', 'maintenance.auto'])).trim()).toBe('false');
      expect((await repo.git(['config', 'user.email'])).trim()).toContain('@');
      const head = (await repo.git(['rev-parse', 'HEAD'])).trim();
      const remote = await exec('git', ['--git-dir', repo.originDir, 'rev-parse', 'main'], { env: repo.env });
      expect(remote.stdout.trim()).toBe(head);
      expect(Object.keys(repo.env).some((k) => k === 'GIT_DIR')).toBe(false);
    } finally {
      if (saved === undefined) delete process.env['GIT_DIR'];
      else process.env['GIT_DIR'] = saved;
      await repo?.[Symbol.asyncDispose]();
    }
    expect(existsSync(repo?.dir ?? '/')).toBe(false);
  });
});

describe('TmuxSession', () => {
  it('runs a command with exactly the given env, captures it, and the disposer leaves no process behind', async () => {
    const t = await TmuxSession.start({
      command: '/bin/sh',
      args: ['-c', 'echo "marker:$HARNESS_X:${HOME:-nohome}"; sleep 60 & wait'],
      cwd: '/',
      env: { PATH: '/usr/bin:/bin', HARNESS_X: 'yes' },
    });
    try {
      const screen = await t.waitForScreen((s) => s.includes('marker:'), 5000);
      expect(screen).toContain('marker:yes:nohome');
      expect(await t.isDead()).toBe(false);
    } finally {
      await t.dispose();
    }
    let alive = true;
    try {
      process.kill(-t.panePid, 0);
    } catch {
      alive = false;
    }
    expect(alive).toBe(false);
    const ls = await exec('tmux', ['-L', t.socket, 'list-sessions'], { allowAllExitCodes: true });
    expect(ls.exitCode).not.toBe(0);
  });
});
