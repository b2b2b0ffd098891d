/**
 * Eight interactive runs of the engine at once on one host: each has its own work repository (all named
 * `work`, so every run's project slug is the same and only the isolated homes keep them apart), its own
 * fake Gemini API, its own run dir (home, TMPDIR, telemetry, tmux socket). All must finish with their own
 * transcript, their own commit in their own repository, and nothing shared or left behind.
 */
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SOCKETS_FILE } from '../../src/tmux/tmux.js';
import { pidsOfUid } from '../../src/isolation/procs.js';
import { openSandbox, type AgentSandbox } from '../../src/isolation/sandbox.js';
import { runAgent } from '../../src/run/engine.js';
import type { RunResult } from '../../src/run/types.js';
import { tmuxServerAlive } from '../../src/tmux/tmux.js';
import { isProcessAlive } from '../../src/util/process.js';
import { exec } from '../../src/util/exec.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeGemini, type Script } from '../harness/fake-gemini.js';
import { GEMINI_BIN } from '../harness/gemini-launcher.js';
import { ModelGate } from '../harness/model-gate.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';
import { runOptions } from '../harness/run-options.js';

const RUNS = 8;
const AS_ROOT = process.getuid?.() === 0;
const MODEL = 'gemini-2.5-flash';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

interface Slot {
  index: number;
  /** Unique per test run, so a leaked answer from an earlier run could not pass for this one. */
  marker: string;
  fake: FakeGemini;
  repo: WorkRepo;
  runDir: string;
  /** As root, each run's agent has its own user (the product's default); elsewhere it runs as us. */
  sandbox?: AgentSandbox;
  /** The fake's URL behind the gate. */
  model: string;
  result?: RunResult;
  lines: string[];
}

const fileOf = (i: number) => `run-${i}.txt`;
const answerOf = (s: Slot) => `Run ${s.index} done: ${s.marker}.`;

function scriptFor(i: number, marker: string): Script {
  return {
    description: `concurrent run ${i}`,
    steps: [
      {
        functionCalls: [
          {
            name: 'run_shell_command',
            args: {
              command: `printf '%s\\n' '${marker}' > ${fileOf(i)} && git add ${fileOf(i)} && git commit -q -m 'Run ${i}'`,
              description: `commit ${fileOf(i)}`,
            },
          },
        ],
      },
      { text: `Run ${i} done: ${marker}.` },
    ],
  };
}

/** Command lines of every live process mentioning one of `needles` (session ids, run dirs). */
async function processesMentioning(needles: string[]): Promise<string[]> {
  const r = await exec('ps', ['-eo', 'pid=,args='], { allowAllExitCodes: true });
  return r.stdout
    .split('\n')
    .filter((l) => needles.some((n) => l.includes(n)))
    .filter((l) => {
      const pid = Number(l.trim().split(/\s+/)[0]);
      return pid !== process.pid && isProcessAlive(pid);
    });
}

describe('concurrency (interactive, real gemini 0.42.0)', () => {
  it(`${RUNS} runs at once: all finish, each with its own transcript, commits and home`, async () => {
    // Eight TUIs boot at once on two cores, next to the other worker's tests: alone they all reach the model in
    // about 20 s, under CI's load once in 45 s only seven had. The gate waits long, well inside each run's bound;
    // on a quiet machine it opens as soon as the eighth arrives, so the bound costs nothing.
    await using gate = new ModelGate(RUNS, 120_000);
    const slots: Slot[] = await Promise.all(
      Array.from({ length: RUNS }, async (_, index) => {
        const marker = `M${index}-${randomBytes(4).toString('hex')}`;
        const fake = await FakeGemini.start(scriptFor(index, marker));
        cleanups.push(() => fake.close());
        const repo = await createWorkRepo();
        cleanups.push(() => repo[Symbol.asyncDispose]());
        const runDir = await mkdtemp(join(tmpdir(), `concurrency-e2e-${index}-`));
        cleanups.push(() => rm(runDir, { recursive: true, force: true }));
        const sandbox = AS_ROOT
          ? await openSandbox({
              parentDir: runDir,
              worktree: repo.dir,
              reach: [process.execPath, GEMINI_BIN],
              log: createMemoryLogger(),
            })
          : undefined;
        if (sandbox) cleanups.push(() => sandbox.close());
        const model = await gate.front(fake.url);
        return { index, marker, fake, model, repo, runDir, lines: [], ...(sandbox ? { sandbox } : {}) };
      }),
    );

    const t0 = Date.now();
    await Promise.all(
      slots.map(async (s) => {
        const log = createMemoryLogger();
        s.lines = log.lines;
        s.result = await runAgent(
          runOptions({
            repo: s.repo,
            runDir: s.runDir,
            task: {
              title: `Concurrent ${s.index}`,
              instruction: `Write ${fileOf(s.index)} (task marker TASK-${s.marker}).`,
              comments: [],
              source: { kind: 'local' },
            },
            auth: { kind: 'api-key', apiKey: `fake-key-${s.index}` },
            model: MODEL,
            // The gate's wait and the two turns after it.
            timeoutMs: 180_000,
            modelUrl: s.model,
            log,
            ...(s.sandbox ? { sandbox: s.sandbox } : {}),
          }),
        );
      }),
    );
    const wallMs = Date.now() - t0;
    console.log(
      `concurrency: ${RUNS} runs in ${(wallMs / 1000).toFixed(1)} s; per run ` +
        slots.map((s) => `${((s.result?.durationMs ?? 0) / 1000).toFixed(1)}`).join(', ') +
        ' s',
    );

    const results = slots.map((s) => s.result as RunResult);
    // They really overlapped: each run's first model request waited at the gate until all had sent theirs.
    const outcome = slots.map((s) => `run ${s.index}: ${s.result?.status} after ${s.result?.durationMs} ms`);
    expect(
      gate.complete,
      `${gate.arrived} of ${RUNS} runs reached the model together; ${outcome.join('; ')}`,
    ).toBe(true);
    expect(new Set(results.map((r) => r.sessionId)).size).toBe(RUNS);

    const sockets: string[] = [];
    for (const s of slots) {
      const r = s.result as RunResult;
      const why = `run ${s.index}: ${r.message ?? ''}\n${s.lines.join('\n')}\n${r.lastScreen?.join('\n') ?? ''}`;
      expect(r.status, why).toBe('finished');
      expect(r.exitCode, why).toBe(0);

      // Its own transcript (the run dir's copy of the session file in its own home), of its own session, ending
      // with its own answer.
      expect(r.transcriptPath, why).toBeDefined();
      expect((r.transcriptPath as string).startsWith(s.runDir + '/')).toBe(true);
      expect(r.transcript.sessionId).toBe(r.sessionId);
      expect(r.transcript.finalAnswer).toBe(answerOf(s));
      expect(r.transcript.toolCalls.map((t) => t.kind)).toEqual(['shell']);
      const transcriptText = await readFile(r.transcriptPath as string, 'utf8');
      for (const other of slots) {
        if (other !== s)
          expect(transcriptText, `run ${s.index} saw run ${other.index}`).not.toContain(other.marker);
      }

      // Its own fake served it, and only it: every main-loop request carried its task marker, no other.
      const bodies = s.fake.modelRequests().map((q) => JSON.stringify(q.body));
      expect(bodies).toHaveLength(2);
      for (const b of bodies) {
        expect(b).toContain(`TASK-${s.marker}`);
        for (const other of slots) if (other !== s) expect(b).not.toContain(other.marker);
      }
      expect(s.fake.remainingSteps).toBe(0);

      // Its own commit in its own repository, with none of another run's files.
      expect(r.commits.map((c) => c.subject)).toEqual([`Run ${s.index}`]);
      expect(r.filesChanged).toEqual([fileOf(s.index)]);
      expect(r.leftoverCommitted).toBe(false);
      expect(await readFile(join(s.repo.dir, fileOf(s.index)), 'utf8')).toBe(`${s.marker}\n`);
      const tracked = (await s.repo.git(['ls-files'])).trim().split('\n').sort();
      expect(tracked).toEqual(['README.md', fileOf(s.index), 'src/greet.js'].sort());
      expect(await s.repo.git(['status', '--porcelain', '--untracked-files=all'])).toBe('');
      expect(await s.repo.git(['rev-parse', 'HEAD'])).toBe(`${r.headSha}\n`);

      // Its home knows only its own project.
      const home = join(s.sandbox?.dir ?? s.runDir, 'home');
      const projects = JSON.parse(await readFile(join(home, '.gemini', 'projects.json'), 'utf8')) as {
        projects: Record<string, string>;
      };
      expect(Object.keys(projects.projects)).toEqual([await realpath(s.repo.dir)]);

      // Its tmux server is gone, socket file included.
      const own = (await readFile(join(s.runDir, SOCKETS_FILE), 'utf8')).trim().split('\n');
      expect(own).toHaveLength(1);
      sockets.push(...own);
      for (const socket of own) {
        expect(await tmuxServerAlive(socket), socket).toBe(false);
        const socketDir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);
        await expect(access(join(socketDir, socket))).rejects.toThrow();
      }
    }
    expect(new Set(sockets).size).toBe(RUNS);
    if (AS_ROOT) {
      // Eight agents, eight users: no run's agent could signal or read another's processes; none is left.
      const uids = slots.map((s) => s.sandbox?.user.uid);
      expect(new Set(uids).size).toBe(RUNS);
      for (const uid of uids) expect(await pidsOfUid(uid as number)).toEqual([]);
    }

    // No process of any run is left: no gemini (argv names the session), no pane script (argv names the run dir).
    expect(
      await processesMentioning([...results.map((r) => r.sessionId), ...slots.map((s) => s.runDir)]),
    ).toEqual([]);
  }, 240_000);
});
