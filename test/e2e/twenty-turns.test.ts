/**
 * Twenty turns in one interactive session (issue 3): the REAL gemini 0.42.0, started the way the product starts
 * it (createIsolatedHome + buildEnv + buildInteractiveSpec in a TmuxDriver), plays a 20-turn fake-model script.
 * The first turn is the positional instruction; each next prompt is typed with the driver only once
 * followTelemetry has delivered the previous turn's idle edge. Every turn must produce exactly one idle edge,
 * and the transcript fold must hold exactly what the fake model said, in order.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Script, Step } from '../../src/fake/gemini-api.js';
import { createIsolatedHome } from '../../src/gemini/home.js';
import { FIXED_INSTRUCTION, buildEnv, buildInteractiveSpec } from '../../src/gemini/spawn.js';
import { followTelemetry, type TelemetryEvent } from '../../src/gemini/telemetry.js';
import { foldTranscriptFile } from '../../src/gemini/transcript-fold.js';
import { locateTranscript } from '../../src/gemini/transcript-locate.js';
import { TmuxDriver, tmuxServerAlive } from '../../src/tmux/tmux.js';
import { isProcessAlive } from '../../src/util/process.js';
import { FakeGemini } from '../harness/fake-gemini.js';
import { GEMINI_BIN } from '../harness/gemini-launcher.js';
import { createWorkRepo } from '../harness/repo.js';

const TURNS = 20;
/** Read-only tools, so the worktree and the turn count do not depend on what a tool changed. */
const TOOL_TURNS: Record<number, Step['functionCalls']> = {
  4: [{ name: 'list_directory', args: { dir_path: '.' } }],
  9: [{ name: 'read_file', args: { file_path: 'src/greet.js' } }],
  13: [{ name: 'glob', args: { pattern: '**/*.js' } }],
  17: [{ name: 'grep_search', args: { pattern: 'Hello' } }],
};

function turnSteps(turn: number): Step[] {
  const calls = TOOL_TURNS[turn];
  if (!calls) return [{ text: `Answer ${turn}: plain text, no tools this time.`, chunks: 2 }];
  return [
    { text: `Answer ${turn}: let me use ${calls[0]?.name ?? 'a tool'} first.`, functionCalls: calls },
    { text: `Answer ${turn}: done looking; the project is a greeter.`, chunks: 2 },
  ];
}

const SCRIPT: Script = {
  description: `${TURNS} user turns, four of them with one read-only tool call each.`,
  steps: Array.from({ length: TURNS }, (_, i) => turnSteps(i + 1)).flat(),
};

/**
 * Prompts typed into the TUI. No `?` (the 0.42.0 TUI swallows it: shortcuts-help toggle), no leading `/`, `!`
 * or `@` (commands, shell mode, file completion); quotes and semicolons check that typing is literal.
 */
function prompt(turn: number): string {
  const extras = ['', ' Keep it short.', ' Use "quotes"; and semicolons.', ' Thanks, go on.'];
  return `Turn ${turn}: tell me one more thing about this project.${extras[turn % extras.length] ?? ''}`;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** Resolves once `events` holds `n` idle edges; rejects after `timeoutMs`. */
function idleWaiter(events: TelemetryEvent[]): {
  notify(): void;
  waitForIdle(n: number, timeoutMs: number): Promise<void>;
} {
  let wake: (() => void) | undefined;
  const idles = (): number => events.filter((e) => e.kind === 'idle').length;
  return {
    notify: () => wake?.(),
    async waitForIdle(n, timeoutMs) {
      const end = Date.now() + timeoutMs;
      while (idles() < n) {
        const left = end - Date.now();
        if (left <= 0)
          throw new Error(`idle edge ${n} not delivered within ${timeoutMs} ms (${idles()} seen)`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 1000));
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
    },
  };
}

describe('twenty turns in one interactive session (real gemini 0.42.0, product spawn spec, tmux driver)', () => {
  it('detects every idle edge through followTelemetry and folds exactly what the model said', async () => {
    const fake = await FakeGemini.start(SCRIPT);
    cleanups.push(() => fake.close());
    const repo = await createWorkRepo({ name: 'twenty-turns' });
    cleanups.push(() => repo[Symbol.asyncDispose]());
    const runDir = await mkdtemp(join(tmpdir(), 'gr-e2e-twenty-'));
    cleanups.push(() => rm(runDir, { recursive: true, force: true }));
    const tmpDir = join(runDir, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });

    const auth = { kind: 'api-key', apiKey: 'fake' } as const;
    const home = await createIsolatedHome(join(runDir, 'home'), auth);
    const telemetryFile = join(runDir, 'telemetry.json');
    // A minimal source env: whatever proxies or CI flags this machine has must not steer the test.
    const sourceEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: 'C.UTF-8',
      GOOGLE_GEMINI_BASE_URL: fake.url,
    };
    const env = buildEnv({ home, auth, telemetryFile, tmpDir, sourceEnv });
    const spec = buildInteractiveSpec({
      geminiPath: GEMINI_BIN,
      worktree: repo.dir,
      approvalMode: 'yolo',
      env,
    });

    const events: TelemetryEvent[] = [];
    const waiter = idleWaiter(events);
    const stopFollowing = new AbortController();
    const follower = followTelemetry(
      telemetryFile,
      (batch) => {
        events.push(...batch);
        waiter.notify();
      },
      { signal: stopFollowing.signal },
    );
    cleanups.push(async () => {
      stopFollowing.abort();
      await follower;
    });

    const driver = await TmuxDriver.create({
      id: `twenty-${randomBytes(4).toString('hex')}`,
      runDir,
      pane: spec,
    });
    cleanups.push(() => driver.stop());

    const t0 = Date.now();
    await waiter.waitForIdle(1, 60_000);
    for (let turn = 2; turn <= TURNS; turn++) {
      await driver.typeText(prompt(turn));
      await waiter.waitForIdle(turn, 20_000);
    }
    const turnsMs = Date.now() - t0;

    await driver.typeText('/quit');
    const quitBy = Date.now() + 15_000;
    while (!(await driver.paneState()).dead && Date.now() < quitBy)
      await new Promise((r) => setTimeout(r, 50));
    const pane = await driver.paneState();
    expect(pane.dead).toBe(true);
    expect(pane.exitCode).toBe(0);
    const pids = await driver.panePids();
    const report = await driver.stop();
    expect(report.survivors).toEqual([]);
    expect(pids.filter(isProcessAlive)).toEqual([]);
    expect(await tmuxServerAlive(driver.socket)).toBe(false);

    stopFollowing.abort();
    await follower;

    // One idle edge per user_prompt, strictly alternating, each ending the prompt it follows.
    const edges = events.filter((e) => e.kind === 'turn-started' || e.kind === 'idle');
    expect(edges.map((e) => e.kind)).toEqual(
      Array.from({ length: TURNS }, () => ['turn-started', 'idle']).flat(),
    );
    for (let i = 0; i < edges.length; i += 2) {
      const [start, idle] = [edges[i], edges[i + 1]];
      expect(start?.promptId).toBeTruthy();
      expect(idle?.promptId).toBe(start?.promptId);
      expect(idle?.at ?? 0).toBeGreaterThanOrEqual(start?.at ?? Infinity);
    }
    expect(new Set(edges.map((e) => e.promptId)).size).toBe(TURNS);
    expect(
      events.filter((e) => e.kind === 'tool-call').map((e) => (e.kind === 'tool-call' ? e.name : '')),
    ).toEqual(Object.values(TOOL_TURNS).map((c) => c?.[0]?.name));

    // The fake played every step exactly once: no turn was lost or doubled.
    expect(fake.modelRequests().map((r) => r.answeredWith)).toEqual(SCRIPT.steps.map((_, i) => `step ${i}`));

    const file = await locateTranscript(home.root, repo.dir, spec.sessionId);
    expect(file).toBeDefined();
    const folded = await foldTranscriptFile(file ?? '');
    expect(folded.sessionId).toBe(spec.sessionId);
    expect(folded.messages.filter((m) => m.type === 'gemini').map((m) => m.text)).toEqual(
      SCRIPT.steps.map((s) => s.text),
    );
    // What was typed arrived literally, turn by turn.
    expect(folded.messages.filter((m) => m.type === 'user').map((m) => m.text)).toEqual([
      FIXED_INSTRUCTION,
      ...Array.from({ length: TURNS - 1 }, (_, i) => prompt(i + 2)),
    ]);
    expect(folded.toolCalls.map((c) => c.name)).toEqual(Object.values(TOOL_TURNS).map((c) => c?.[0]?.name));
    expect(folded.finalAnswer).toBe(SCRIPT.steps.at(-1)?.text);
    console.log(`twenty-turns: ${TURNS} turns in ${turnsMs} ms (${Math.round(turnsMs / TURNS)} ms/turn)`);
  }, 120_000);
});
