/**
 * The harness end to end, headless: the REAL gemini 0.42.0 plays `edit-and-commit` against the fake API and
 * really writes and commits in a throw-away repo.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { FakeGemini } from '../harness/fake-gemini.js';
import {
  GEMINI_BIN,
  findTranscripts,
  headlessArgs,
  prepareGeminiEnv,
  telemetryLogRecords,
} from '../harness/gemini-launcher.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';

const PROMPT = 'Add a notes file and commit it.';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('harness: headless gemini 0.42.0 against the fake API', () => {
  it('plays edit-and-commit: commit with trailer, transcript, telemetry, stream-json', async () => {
    const fake = await FakeGemini.start('edit-and-commit');
    cleanups.push(() => fake.close());
    const repo: WorkRepo = await createWorkRepo({ name: 'headless-sample' });
    cleanups.push(() => repo[Symbol.asyncDispose]());
    const runDir = await mkdtemp(join(tmpdir(), 'gr-e2e-headless-'));
    cleanups.push(() => rm(runDir, { recursive: true, force: true }));
    const g = await prepareGeminiEnv({ fakeUrl: fake.url, runDir });
    const sessionId = randomUUID();

    const r = await exec(GEMINI_BIN, headlessArgs({ prompt: PROMPT, sessionId, model: 'gemini-2.5-flash' }), {
      cwd: repo.dir,
      env: g.env,
      allowAllExitCodes: true,
      timeoutMs: 90_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);

    // The fake saw the main-loop calls for the requested model, the prompt inside the first one.
    const calls = fake.modelRequests();
    expect(calls.map((c) => c.answeredWith)).toEqual(['step 0', 'step 1', 'step 2']);
    expect(calls.every((c) => c.model === 'gemini-2.5-flash')).toBe(true);
    expect(JSON.stringify(calls[0]?.body)).toContain(PROMPT);
    // The second call carries the write_file result back to the model.
    expect(JSON.stringify(calls[1]?.body)).toContain('"functionResponse"');

    // The model's tool calls really ran: a commit with the attribution trailer, the file in the tree.
    expect(await repo.git(['log', '-1', '--format=%s'])).toBe('Add NOTES.md\n');
    expect(await repo.git(['log', '-1', '--format=%(trailers:key=Co-authored-by,valueonly)'])).toContain(
      'Gemini <gemini@google.com>',
    );
    expect(await readFile(join(repo.dir, 'NOTES.md'), 'utf8')).toContain('Written by the fake model.');
    expect(await repo.git(['status', '--porcelain'])).toBe('');

    // stream-json: init with our session id, both tool uses, a successful result.
    const lines = r.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { type: string; session_id?: string; tool_name?: string; status?: string },
      );
    expect(lines[0]).toMatchObject({ type: 'init', session_id: sessionId });
    expect(lines.filter((l) => l.type === 'tool_use').map((l) => l.tool_name)).toEqual([
      'write_file',
      'run_shell_command',
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'success' });

    // Transcript at <home>/.gemini/tmp/<slug>/chats/session-<ts>-<sid8>.jsonl, slug = worktree basename.
    const transcripts = await findTranscripts(g.home);
    expect(transcripts).toHaveLength(1);
    const t = transcripts[0] ?? '';
    expect(basename(t)).toMatch(
      new RegExp(`^session-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-${sessionId.slice(0, 8)}\\.jsonl$`),
    );
    expect(t).toContain(join(g.home, '.gemini', 'tmp', 'headless-sample', 'chats'));
    const first = JSON.parse((await readFile(t, 'utf8')).split('\n')[0] ?? '') as { sessionId: string };
    expect(first.sessionId).toBe(sessionId);

    // Telemetry reached the local outfile.
    const names = (await telemetryLogRecords(g.telemetryFile)).map((e) => e.name);
    expect(names).toContain('gemini_cli.user_prompt');
    expect(names.filter((n) => n === 'gemini_cli.tool_call')).toHaveLength(2);
  });
});
