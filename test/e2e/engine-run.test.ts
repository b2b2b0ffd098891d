/**
 * The run engine end to end: the real gemini 0.42.0 in tmux (or headless) against a local fake Gemini API,
 * on a real work repository. Each case asserts the end state, the commits, how long it took to notice, and
 * that nothing of the run is left (no tmux server on its socket, no gemini process of its session).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/run/engine.js';
import type { RunOptions } from '../../src/run/options.js';
import type { RunEvent } from '../../src/domain/types.js';
import type { RunResult } from '../../src/run/types.js';
import { tmuxServerAlive } from '../../src/tmux/tmux.js';
import { isProcessAlive } from '../../src/util/process.js';
import { exec } from '../../src/util/exec.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeGemini, type Script } from '../harness/fake-gemini.js';
import { CONSUMER_REFUSAL_MESSAGE, OAuthProxy } from '../harness/oauth-proxy.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';
import { runOptions } from '../harness/run-options.js';

const MODEL = 'gemini-2.5-flash';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** Pids whose command line names the session (gemini gets `--session-id <id>`). */
async function sessionPids(sessionId: string): Promise<number[]> {
  const r = await exec('ps', ['-eo', 'pid=,args='], { allowAllExitCodes: true });
  return r.stdout
    .split('\n')
    .filter((l) => l.includes(sessionId))
    .map((l) => Number(l.trim().split(/\s+/)[0]))
    .filter((pid) => pid !== process.pid && isProcessAlive(pid));
}

interface Case {
  result: RunResult;
  repo: WorkRepo;
  fake?: FakeGemini;
  lines: string[];
  events: RunEvent[];
  socket?: string;
  wallMs: number;
}

async function runCase(o: {
  script?: Script;
  baseUrl?: string;
  opts?: Partial<RunOptions>;
  onEvent?: (e: RunEvent, fake: FakeGemini | undefined) => void;
  repo?: WorkRepo;
  extraEnv?: Record<string, string>;
}): Promise<Case> {
  const fake = o.script ? await FakeGemini.start(o.script) : undefined;
  if (fake) cleanups.push(() => fake.close());
  const repo = o.repo ?? (await createWorkRepo());
  if (!o.repo) cleanups.push(() => repo[Symbol.asyncDispose]());
  const runDir = await mkdtemp(join(tmpdir(), 'engine-e2e-'));
  cleanups.push(() => rm(runDir, { recursive: true, force: true }));
  const log = createMemoryLogger();
  const events: RunEvent[] = [];
  const t0 = Date.now();
  const result = await runAgent(
    runOptions({
      repo,
      runDir,
      model: MODEL,
      modelUrl: o.baseUrl ?? fake?.url ?? '',
      ...(o.extraEnv ? { env: o.extraEnv } : {}),
      log,
      onEvent: (e) => {
        events.push(e);
        o.onEvent?.(e, fake);
      },
      heartbeatMs: 1000,
      ...o.opts,
    }),
  );
  const wallMs = Date.now() - t0;
  const socket = /socket (gemini-run-[\w-]+)/.exec(log.lines.join('\n'))?.[1];
  // Nothing the engine started outlives it.
  if (socket) expect(await tmuxServerAlive(socket)).toBe(false);
  expect(await sessionPids(result.sessionId)).toEqual([]);
  return {
    result,
    repo,
    ...(fake ? { fake } : {}),
    lines: log.lines,
    events,
    ...(socket ? { socket } : {}),
    wallMs,
  };
}

const shell = (command: string) => ({
  functionCalls: [{ name: 'run_shell_command', args: { command, description: 'scripted step' } }],
});

describe('engine e2e (interactive, real gemini 0.42.0)', () => {
  it('a finished run: commits, usage, transcript, summary facts', async () => {
    const c = await runCase({
      script: {
        description: 'commit a file, then answer',
        steps: [
          shell("printf 'hi\\n' > hello.txt && git add hello.txt && git commit -q -m 'Add hello'"),
          { text: 'Done: added hello.txt.' },
        ],
      },
    });
    const r = c.result;
    expect(r.status, `${r.message}\n${r.lastScreen?.join('\n')}`).toBe('finished');
    expect(r.exitCode).toBe(0);
    expect(r.commits.map((x) => x.subject)).toEqual(['Add hello']);
    expect(r.filesChanged).toEqual(['hello.txt']);
    expect(r.leftoverCommitted).toBe(false);
    expect(r.transcript.finalAnswer).toBe('Done: added hello.txt.');
    expect(r.transcript.toolCalls.map((t) => t.kind)).toEqual(['shell']);
    expect(r.usage.turns).toBe(1);
    expect(r.usage.models.map((m) => m.model)).toEqual([MODEL]);
    expect(r.usage.totalTokens).toBeGreaterThan(0);
    expect(r.transcriptPath).toMatch(/session-.*\.jsonl$/);
    // Live progress: the tool call and the model responses were logged as they happened.
    expect(c.lines.some((l) => /^tool run_shell_command \[shell\] ok/.test(l))).toBe(true);
    // ...and, from the transcript, what the tool was asked to do.
    expect(c.lines).toContain(
      "tool run_shell_command [shell]: printf 'hi\\n' > hello.txt && git add hello.txt && git commit -q -m 'Add hello'",
    );
    expect(c.lines.filter((l) => /^model gemini-2\.5-flash:/.test(l))).toHaveLength(2);
    expect(c.events.some((e) => e.type === 'idle')).toBe(true);
    // The engine's own overhead around gemini's lifetime is small.
    expect(r.durationMs - r.geminiLifetimeMs).toBeLessThan(5_000);
    // The context file is gone from the worktree and never committed.
    expect(await c.repo.git(['status', '--porcelain', '--ignored'])).not.toContain('GEMINI.local.md');
    expect(await c.repo.git(['log', '--all', '--name-only', '--format='])).not.toContain('GEMINI.local.md');
  });

  it("the workflow's settings turn the window title off: the run still ends on telemetry's edge", async () => {
    const c = await runCase({
      script: { description: 'answer', steps: [{ text: 'Nothing to do.' }] },
      opts: { userSettings: { ui: { hideWindowTitle: true } } },
    });
    const r = c.result;
    expect(r.status, `${r.message}\n${r.lastScreen?.join('\n')}`).toBe('finished');
    expect(r.transcript.finalAnswer).toBe('Nothing to do.');
    expect(c.lines.some((l) => /agent is idle \(edge: telemetry\)/.test(l))).toBe(true);
    expect(c.lines.some((l) => /\(edge: window title\)/.test(l))).toBe(false);
  });

  it("a repository's .gemini/settings.json cannot turn the title edge off (loaded before --skip-trust trusts it)", async () => {
    // 0.42.0 loads settings before parsing --skip-trust, so an untrusted workspace's settings are dropped; were
    // that to change, project settings would override the run home's, and only the telemetry fallback would hold.
    const repo = await createWorkRepo({
      files: { '.gemini/settings.json': JSON.stringify({ ui: { hideWindowTitle: true } }) },
    });
    cleanups.push(() => repo[Symbol.asyncDispose]());
    const c = await runCase({ repo, script: { description: 'answer', steps: [{ text: 'Nothing to do.' }] } });
    expect(c.result.status).toBe('finished');
    expect(c.lines.some((l) => /agent is idle \(edge: window title\)/.test(l))).toBe(true);
  });

  it('an agent that writes a "Ready" window title to its terminal does not end its run early', async () => {
    // The shell tool runs in the CLI's own pseudo-terminal, whose output the CLI renders as text: an OSC 0 there
    // never becomes the pane's title. Were it to, the idle edge would /quit during the sleep and "Later" would
    // never be committed.
    const forge =
      "printf '\\033]0;\\342\\227\\207  Ready (forged)\\007' > /dev/tty; printf '\\033]0;\\342\\227\\207  Ready (forged)\\007'";
    const c = await runCase({
      script: {
        description: 'forges the title, keeps working, then commits',
        steps: [
          shell(`${forge}; sleep 3; echo later > LATER.md && git add -A && git commit -q -m Later`),
          { text: 'Done after the sleep.' },
        ],
      },
    });
    const r = c.result;
    expect(r.status, `${r.message}\n${r.lastScreen?.join('\n')}`).toBe('finished');
    expect(r.commits.map((x) => x.subject)).toEqual(['Later']);
    expect(r.transcript.finalAnswer).toBe('Done after the sleep.');
    expect(c.lines.filter((l) => /agent is idle/.test(l))).toHaveLength(1);
  });

  it('uncommitted edits are committed by the engine (never the context file)', async () => {
    const c = await runCase({
      script: {
        description: 'edit without committing',
        steps: [
          shell("printf 'changed\\n' >> README.md && mkdir -p notes && printf 'n\\n' > notes/todo.txt"),
          { text: 'Edited, not committed.' },
        ],
      },
    });
    const r = c.result;
    expect(r.status, `${r.message}\n${r.lastScreen?.join('\n')}`).toBe('finished');
    expect(r.leftoverCommitted).toBe(true);
    expect(r.commits).toHaveLength(1);
    expect(r.commits[0]?.subject).toMatch(/^gemini-run: commit work the agent left uncommitted/);
    expect([...r.filesChanged].sort()).toEqual(['README.md', 'notes/todo.txt']);
    expect(await c.repo.git(['status', '--porcelain'])).toBe('');
    expect(await c.repo.git(['show', '--name-only', '--format=', 'HEAD'])).not.toContain('GEMINI.local.md');
  });

  it('timeout with partial commits: one Escape, quit, timed-out, the commit kept', async () => {
    let hangAt = 0;
    const c = await runCase({
      script: {
        description: 'commit, then the model hangs',
        steps: [
          shell("printf 'a\\n' > a.txt && git add a.txt && git commit -q -m 'Partial work'"),
          { hang: true },
        ],
      },
      // 12 s: on a loaded 2-core machine the CLI's start-up alone can take several seconds of it, and the heartbeats
      // counted below are those after the tool call.
      opts: { timeoutMs: 12_000 },
      onEvent: (e) => {
        if (e.type === 'tool-completed') hangAt = Date.now();
      },
    });
    const r = c.result;
    expect(r.status).toBe('timed-out');
    expect(r.commits.map((x) => x.subject)).toEqual(['Partial work']);
    expect(c.lines.some((l) => /sending one Escape/.test(l))).toBe(true);
    // The heartbeat (every 1 s here) kept reporting while the model hung.
    expect(
      c.lines.filter((l) => /^… working: \d+ s elapsed, 1 turn\(s\), \d+ tokens, 1 tool call\(s\)$/.test(l))
        .length,
    ).toBeGreaterThanOrEqual(3);
    // Escape cancelled the request and the TUI quit cleanly (not killed).
    expect(r.exitCode).toBe(0);
    expect(hangAt).toBeGreaterThan(0);
    // Noticed at the timeout, not later: the spawn's 12 s plus a few seconds to cancel and quit.
    expect(r.geminiLifetimeMs).toBeLessThan(12_000 + 8_000);
  });

  it('a quiet shell tool longer than the stall bound is not a stall: the TUI animates while it runs', async () => {
    // 60 s: the stall bound is its floor, 20 s; the command is silent for 26 s.
    const c = await runCase({
      script: {
        description: 'a long silent command, then done',
        steps: [
          shell("sleep 26 && printf 'x\\n' > slow.txt && git add slow.txt && git commit -q -m 'Slow'"),
          { text: 'Done.' },
        ],
      },
      opts: { timeoutMs: 60_000 },
    });
    expect(c.result.status, c.lines.join('\n')).toBe('finished');
    expect(c.result.commits.map((x) => x.subject)).toEqual(['Slow']);
    expect(c.lines.join('\n')).not.toMatch(/stalled/);
  });

  it('crash: gemini killed mid-turn is noticed within 10 s', async () => {
    let killedAt = 0;
    const c = await runCase({
      script: { description: 'the model hangs', steps: [{ hang: true }] },
      onEvent: (e, fake) => {
        if (e.type !== 'started') return;
        const sessionId = e.sessionId;
        void (async () => {
          // Wait until gemini is inside the model call, then kill it.
          for (let i = 0; i < 200 && fake?.modelRequests().length === 0; i++)
            await new Promise((r) => setTimeout(r, 100));
          for (const pid of await sessionPids(sessionId)) process.kill(pid, 'SIGKILL');
          killedAt = Date.now();
        })();
      },
    });
    const r = c.result;
    expect(killedAt).toBeGreaterThan(0);
    expect(r.status).toBe('crashed');
    expect(r.message).toMatch(/signal 9/);
    expect(r.exitCode).toBe(137);
    expect(r.commits).toEqual([]);
    expect(c.lines.some((l) => /^error: gemini crashed/.test(l))).toBe(true);
    const noticedMs = Date.parse(r.startedAt) + r.durationMs - killedAt;
    expect(noticedMs).toBeLessThan(10_000);
  });

  it('terminal quota: quota-exhausted within 10 s of the 429, with the server message', async () => {
    const c = await runCase({
      script: { description: 'daily quota', steps: [{ error: { status: 429, kind: 'daily-quota' } }] },
    });
    const r = c.result;
    expect(r.status).toBe('quota-exhausted');
    expect(r.message).toMatch(/quota/i);
    const quotaAt = c.fake?.requests.find((q) => q.status === 429)?.at ?? 0;
    expect(quotaAt).toBeGreaterThan(0);
    expect(Date.parse(r.startedAt) + r.durationMs - quotaAt).toBeLessThan(10_000);
    expect(r.usage.turns).toBe(1);
  });

  it('refused account: the API answers 403 PERMISSION_DENIED → auth-failed with its message', async () => {
    const message = 'Permission denied: Consumer api_key:fake-key has been suspended.';
    const server: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 403, message, status: 'PERMISSION_DENIED' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const c = await runCase({ baseUrl: `http://127.0.0.1:${port}` });
    expect(c.result.status).toBe('auth-failed');
    expect(c.result.message).toBe(message);
    expect(c.wallMs).toBeLessThan(30_000);
  });

  it("refused OAuth account: the auth dialog's server reason → auth-failed within seconds", async () => {
    const proxy = await OAuthProxy.start({ refuseAccount: CONSUMER_REFUSAL_MESSAGE });
    cleanups.push(() => proxy.close());
    const c = await runCase({
      extraEnv: proxy.env(),
      opts: { auth: { kind: 'oauth', creds: proxy.seedCreds(), account: 'operator@example.com' } },
    });
    expect(c.result.status).toBe('auth-failed');
    // Only the screen carries this text (the AuthDialog's "Failed to sign in. Message: ..." line).
    expect(c.result.message).toBe(CONSUMER_REFUSAL_MESSAGE);
    expect(c.result.lastScreen?.join('\n')).toContain('How would you like to authenticate for this project?');
    expect(c.wallMs).toBeLessThan(15_000);
  });

  it('a refused token refresh (interactive): the login prompt it falls back to → auth-failed within seconds', async () => {
    const proxy = await OAuthProxy.start({ refuseRefresh: 'Token has been expired or revoked.' });
    cleanups.push(() => proxy.close());
    const c = await runCase({
      extraEnv: proxy.env(),
      opts: {
        auth: { kind: 'oauth', creds: proxy.seedCreds({ expired: true }), account: 'operator@example.com' },
      },
    });
    expect(c.result.status, c.result.lastScreen?.join('\n')).toBe('auth-failed');
    expect(c.result.message).toMatch(/asked for a new Google login/);
    expect(c.wallMs).toBeLessThan(15_000);
  });

  it('a multi-turn, tool-heavy run', async () => {
    const c = await runCase({
      script: {
        description: 'read, list, write, edit, shell, commit',
        steps: [
          { functionCalls: [{ name: 'list_directory', args: { dir_path: '.' } }] },
          { functionCalls: [{ name: 'read_file', args: { file_path: 'src/greet.js' } }] },
          {
            text: 'Writing two files.',
            functionCalls: [
              {
                name: 'write_file',
                args: { file_path: 'src/bye.js', content: 'export const bye = () => "bye";\n' },
              },
              { name: 'write_file', args: { file_path: 'docs/bye.md', content: '# bye\n' } },
            ],
          },
          shell('git add -A && git commit -q -m "Add bye"'),
          { functionCalls: [{ name: 'read_file', args: { file_path: 'does/not/exist.js' } }] },
          shell("printf 'x\\n' >> docs/bye.md && git commit -qam 'Extend bye docs'"),
          { text: 'All done.', chunks: 3 },
        ],
      },
    });
    const r = c.result;
    expect(r.status, `${r.message}\n${r.lastScreen?.join('\n')}`).toBe('finished');
    expect(r.commits.map((x) => x.subject)).toEqual(['Add bye', 'Extend bye docs']);
    expect([...r.filesChanged].sort()).toEqual(['docs/bye.md', 'src/bye.js']);
    const kinds = r.transcript.toolCalls.map((t) => t.kind);
    expect(kinds).toEqual(['ls', 'read', 'write', 'write', 'shell', 'read', 'shell']);
    expect(r.transcript.toolCalls.filter((t) => t.status !== 'success')).toHaveLength(1);
    expect(r.usage.toolCalls).toBe(7);
    expect(r.usage.models[0]?.requests).toBe(7);
    expect(r.transcript.finalAnswer).toBe('All done.');
  });
});

describe('engine e2e (resume)', () => {
  // The action stores the transcript as transcript.jsonl; the CLI starts a file of its own for the current minute
  // under the same id. A follow-up hours later restores into a name of an earlier minute (two files); one in the
  // same minute shares the CLI's name (one file, a second header in it). Both must read as one session.
  it.each([
    ['started hours ago', 3 * 3600_000],
    ['started this minute', 0],
  ])(
    'continues a saved session (%s) in a fresh home: same id, the model sees the earlier turn, the report holds both',
    async (_label, agoMs) => {
      const first = await runCase({
        script: { description: 'first run', steps: [{ text: 'First answer: the marker is PELICAN-42.' }] },
      });
      expect(first.result.status).toBe('finished');
      const saved = first.result.transcriptPath as string;
      expect(saved).toBeDefined();
      const [header, ...rest] = (await readFile(saved, 'utf8')).split('\n');
      const head = JSON.parse(header as string) as { startTime: string };
      const started = new Date(Date.parse(head.startTime) - agoMs);
      const stored = join(await mkdtemp(join(tmpdir(), 'engine-e2e-store-')), 'transcript.jsonl');
      cleanups.push(() => rm(join(stored, '..'), { recursive: true, force: true }));
      await writeFile(
        stored,
        [JSON.stringify({ ...head, startTime: started.toISOString() }), ...rest].join('\n'),
      );
      const second = await runCase({
        repo: first.repo,
        script: {
          description: 'second run',
          steps: [
            shell("printf 'two\\n' > two.txt && git add two.txt && git commit -q -m 'Add two'"),
            { text: 'Second answer.' },
          ],
        },
        opts: { resume: { sessionId: first.result.sessionId, transcriptFile: stored } },
      });
      const r = second.result;
      expect(r.status, `${r.message}\n${r.lastScreen?.join('\n')}`).toBe('finished');
      expect(r.sessionId).toBe(first.result.sessionId);
      expect(JSON.stringify(second.fake?.modelRequests()[0]?.body)).toContain('PELICAN-42');
      const stamp = started.toISOString().slice(0, 16).replace(/:/g, '-');
      expect(r.transcriptPath?.split('/').pop()).toBe(`session-${stamp}-${r.sessionId.slice(0, 8)}.jsonl`);
      expect(r.transcript.messages.map((m) => m.text).join(' | ')).toMatch(/PELICAN-42.*Second answer\./s);
      expect(r.transcript.toolCalls.map((t) => t.name)).toEqual(['run_shell_command']);
      expect(r.transcript.finalAnswer).toBe('Second answer.');
      expect(r.commits.map((c) => c.subject)).toEqual(['Add two']);
    },
  );
});

describe('engine e2e (headless)', () => {
  it('a finished headless run', async () => {
    const c = await runCase({
      script: {
        description: 'commit a file, then answer',
        steps: [
          shell("printf 'hi\\n' > h.txt && git add h.txt && git commit -q -m 'Add h'"),
          { text: 'Headless done.' },
        ],
      },
      opts: { mode: 'headless' },
    });
    const r = c.result;
    expect(r.status, `${r.message}\n${r.lastScreen?.join('\n')}`).toBe('finished');
    expect(r.mode).toBe('headless');
    expect(r.exitCode).toBe(0);
    expect(r.commits.map((x) => x.subject)).toEqual(['Add h']);
    expect(r.transcript.finalAnswer).toBe('Headless done.');
    expect(r.transcript.toolCalls.map((t) => t.name)).toEqual(['run_shell_command']);
    expect(r.usage.totalTokens).toBeGreaterThan(0);
    expect(c.lines.some((l) => /^tool run_shell_command \[shell\]: printf/.test(l))).toBe(true);
    // The task travelled on stdin, not in argv: the fake saw it in the first request's text.
    const first = JSON.stringify(c.fake?.modelRequests()[0]?.body ?? '');
    expect(first).toContain('Do the scripted thing.');
    expect(await readFile(join(c.repo.dir, 'h.txt'), 'utf8')).toBe('hi\n');
  });

  it('refused OAuth account (headless): IneligibleTierError on stderr → auth-failed', async () => {
    const proxy = await OAuthProxy.start({ refuseAccount: CONSUMER_REFUSAL_MESSAGE });
    cleanups.push(() => proxy.close());
    const c = await runCase({
      extraEnv: proxy.env(),
      opts: {
        mode: 'headless',
        auth: { kind: 'oauth', creds: proxy.seedCreds(), account: 'operator@example.com' },
      },
    });
    expect(c.result.status).toBe('auth-failed');
    expect(c.result.message).toBe(CONSUMER_REFUSAL_MESSAGE);
    expect(c.result.exitCode).toBe(1);
  });

  it('headless timeout ends the process group: timed-out, commit kept', async () => {
    const c = await runCase({
      script: {
        description: 'commit, then hang',
        steps: [
          shell("printf 'a\\n' > a.txt && git add a.txt && git commit -q -m 'Partial'"),
          { hang: true },
        ],
      },
      opts: { mode: 'headless', timeoutMs: 6_000 },
    });
    expect(c.result.status).toBe('timed-out');
    expect(c.result.commits.map((x) => x.subject)).toEqual(['Partial']);
    expect(c.result.geminiLifetimeMs).toBeLessThan(6_000 + 6_000);
  });
});
