/**
 * The engine's loop against stand-in "gemini" executables (small shell scripts) for the walls the real CLI
 * cannot be made to hit offline on demand: a session-id collision (exit 42), an exit before the turn, and
 * dialogs that only the screen shows. Real tmux, real git; the script records each invocation's argv.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/run/engine.js';
import type { RunOptions } from '../../src/run/options.js';
import type { RunResult } from '../../src/run/types.js';
import { tmuxServerAlive } from '../../src/tmux/tmux.js';
import { isProcessAlive } from '../../src/util/process.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { createWorkRepo } from '../harness/repo.js';
import { runOptions } from '../harness/run-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function run(body: string, opts: Partial<RunOptions> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'engine-walls-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const repo = await createWorkRepo();
  cleanups.push(() => repo[Symbol.asyncDispose]());
  const calls = join(dir, 'calls.log');
  const fakeGemini = join(dir, 'fake-gemini');
  // A marker in argv lets the test find the process; `$$` is the stand-in's own pid.
  await writeFile(fakeGemini, `#!/bin/sh\necho "$$ $*" >> '${calls}'\n${body}\n`);
  await chmod(fakeGemini, 0o755);
  const log = createMemoryLogger();
  const t0 = Date.now();
  const result: RunResult = await runAgent(
    runOptions({
      repo,
      runDir: join(dir, 'run'),
      task: { title: 't', instruction: 'i', comments: [], source: { kind: 'local' } },
      auth: { kind: 'api-key', apiKey: 'k' },
      geminiPath: fakeGemini,
      model: undefined,
      timeoutMs: 20_000,
      log,
      ...opts,
    }),
  );
  const wallMs = Date.now() - t0;
  const invocations = (await readFile(calls, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const pids = invocations.map((l) => Number(l.split(' ')[0]));
  for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  for (const socket of log.lines.flatMap((l) => /socket (gemini-run-[\w-]+)/.exec(l)?.[1] ?? [])) {
    expect(await tmuxServerAlive(socket)).toBe(false);
  }
  return { result, log, invocations, wallMs };
}

const sessionIdOf = (argv: string) => /--session-id (\S+)/.exec(argv)?.[1];

describe('engine walls against stand-in executables', () => {
  it('exit 42 "already exists" is retried once with a fresh session id, then reported', async () => {
    const { result, log, invocations } = await run(
      `echo 'Error starting session: Session ID "x" already exists. Use --resume to resume it, or provide a different ID.' >&2\nexit 42`,
    );
    expect(invocations).toHaveLength(2);
    const [first, second] = invocations.map(sessionIdOf);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(first).not.toBe(second);
    expect(log.lines.filter((l) => /retrying once with a fresh id/.test(l))).toHaveLength(1);
    expect(result.status).toBe('crashed');
    expect(result.exitCode).toBe(42);
    expect(result.sessionId).toBe(second);
  });

  it('headless: the same collision is retried once', async () => {
    const { result, invocations } = await run(
      `cat > /dev/null\necho 'Error starting session: Session ID "x" already exists.' >&2\nexit 42`,
      { mode: 'headless' },
    );
    expect(invocations).toHaveLength(2);
    expect(result.status).toBe('crashed');
    expect(result.exitCode).toBe(42);
  });

  it('an exit 0 before any turn finished is a crash, not a finish', async () => {
    const { result } = await run(`echo 'bye early'\nexit 0`);
    expect(result.status).toBe('crashed');
    expect(result.exitCode).toBe(0);
    expect(result.message).toMatch(/exited with code 0 before the turn finished: bye early/);
  });

  it('a quota dialog seen only on screen ends quota-exhausted within seconds and the program is killed', async () => {
    const { result, wallMs } = await run(
      `printf '╭────╮\\n│ Usage limit reached for gemini-3-pro-preview. │\\n│ ● 1. Keep trying │\\n╰────╯\\n'\nexec sleep 60`,
    );
    expect(result.status).toBe('quota-exhausted');
    expect(result.message).toBe('Usage limit reached for gemini-3-pro-preview.');
    expect(wallMs).toBeLessThan(10_000);
    expect(result.lastScreen?.join('\n')).toContain('Keep trying');
  });

  it('a screen that stays still while working is a stall: crashed at the stall bound with the screen, not at the timeout', async () => {
    // A prompt nobody will answer: no spinner, no telemetry. 80 s: the bound is a quarter, 20 s.
    const { result, wallMs } = await run(`echo 'Allow execution of: rm -rf build? (y/n)'\nexec sleep 120`, {
      timeoutMs: 80_000,
    });
    expect(result.status).toBe('crashed');
    expect(result.message).toMatch(
      /^gemini stalled: its screen and telemetry did not change for 2\d s while it was working; the screen ends: .*Allow execution of: rm -rf build\? \(y\/n\)/,
    );
    expect(wallMs).toBeLessThan(40_000);
  });

  it('headless: a CLI that says nothing with no tool running is a stall, past the bound and the grace', async () => {
    const init = '{"type":"init","session_id":"11111111-2222-3333-4444-555555555555","model":"m"}';
    // 80 s: the silence bound is 20 s; headless waits 15 s more for the proxy's verdict on a hung model call.
    const { result, wallMs } = await run(`cat > /dev/null\necho '${init}'\nexec sleep 120`, {
      mode: 'headless',
      timeoutMs: 80_000,
    });
    expect(result.status).toBe('crashed');
    expect(result.message).toMatch(
      /^gemini stalled: it printed nothing and recorded no telemetry for 3\d s with no tool running$/,
    );
    expect(wallMs).toBeLessThan(55_000);
  });

  it('headless: a tool that runs quietly past the bound is not a stall', async () => {
    const use =
      '{"type":"tool_use","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"make"}}';
    const done = '{"type":"tool_result","tool_id":"t1","status":"success","output":""}';
    const result =
      '{"type":"result","status":"success","stats":{"total_tokens":1,"input_tokens":1,"output_tokens":0,"duration_ms":1,"tool_calls":1}}';
    const { result: r } = await run(
      `cat > /dev/null\necho '{"type":"init","session_id":"11111111-2222-3333-4444-555555555555","model":"m"}'\necho '${use}'\nsleep 40\necho '${done}'\necho '${result}'\nexit 0`,
      { mode: 'headless', timeoutMs: 80_000 },
    );
    expect(r.message ?? '').not.toMatch(/stalled/);
    expect(r.status).not.toBe('timed-out');
  });

  it('an auth dialog with the server reason, on screen only → auth-failed with that reason', async () => {
    const { result } = await run(
      `echo 'How would you like to authenticate for this project?'\necho 'Failed to sign in. Message: account suspended'\nexec sleep 60`,
    );
    expect(result.status).toBe('auth-failed');
    expect(result.message).toBe('account suspended');
  });

  // The model proxy's verdict (src/proxy/upstream-health.ts) arriving while the CLI waits on its own retries.
  const DOWN = 'the model API at 127.0.0.1:9 is unavailable: 3 call(s) in 16 s failed and none was answered';
  const downAfter = (ms: number): Pick<RunOptions, 'modelHealth'> => {
    const at = Date.now() + ms;
    return {
      modelHealth: () =>
        Date.now() < at ? { firstFailure: 'the model API at 127.0.0.1:9 failed a call' } : { down: DOWN },
    };
  };

  it.each(['interactive', 'headless'] as const)(
    '%s: a model API given up by the proxy ends model-unavailable within seconds, gemini killed',
    async (mode) => {
      const { result, wallMs, log } = await run(`echo 'retrying in 28s'\nexec sleep 60`, {
        mode,
        ...downAfter(1_500),
      });
      expect(result.status).toBe('model-unavailable');
      expect(result.message).toBe(DOWN);
      expect(wallMs).toBeLessThan(12_000);
      // The first failure was said before the wall, in the log (and as an event for the tracking comment).
      expect(log.lines.join('\n')).toContain('the model API at 127.0.0.1:9 failed a call');
    },
  );

  it('a model API that could not be reached at launch ends model-unavailable without starting gemini', async () => {
    const { result, invocations } = await run(`exec sleep 60`, { modelHealth: () => ({ down: DOWN }) });
    expect(result.status).toBe('model-unavailable');
    expect(result.message).toBe(DOWN);
    expect(invocations).toEqual([]);
  });

  it('uncommitted work is committed even when the run crashed', async () => {
    const { result } = await run(`printf 'x\\n' > left.txt\nexit 3`);
    expect(result.status).toBe('crashed');
    expect(result.exitCode).toBe(3);
    expect(result.leftoverCommitted).toBe(true);
    expect(result.filesChanged).toEqual(['left.txt']);
    expect(result.commits).toHaveLength(1);
    // A stand-in writes no transcript: the result says so instead of inventing one.
    expect(result.transcriptPath).toBeUndefined();
    expect(result.transcript.messages).toEqual([]);
  });
});
