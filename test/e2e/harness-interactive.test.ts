/**
 * The harness end to end, interactive: the REAL gemini 0.42.0 TUI in tmux (own socket) plays `edit-and-commit`
 * from its positional prompt, goes idle, and quits on a typed `/quit`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeGemini } from '../harness/fake-gemini.js';
import {
  GEMINI_BIN,
  findTranscripts,
  interactiveArgs,
  prepareGeminiEnv,
  telemetryLogRecords,
  waitForTelemetryEvent,
  withExitFile,
} from '../harness/gemini-launcher.js';
import { createWorkRepo } from '../harness/repo.js';
import { TmuxSession } from '../harness/tmux-session.js';

const PROMPT = 'Add a notes file and commit it.';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('harness: interactive gemini 0.42.0 in tmux against the fake API', () => {
  it('plays edit-and-commit, reaches the idle edge, quits with /quit', async () => {
    const fake = await FakeGemini.start('edit-and-commit');
    cleanups.push(() => fake.close());
    const repo = await createWorkRepo({ name: 'interactive-sample' });
    cleanups.push(() => repo[Symbol.asyncDispose]());
    const runDir = await mkdtemp(join(tmpdir(), 'gr-e2e-interactive-'));
    cleanups.push(() => rm(runDir, { recursive: true, force: true }));
    const g = await prepareGeminiEnv({ fakeUrl: fake.url, runDir });
    const sessionId = randomUUID();
    const exitFile = join(runDir, 'exit-code');
    const [cmd, args] = withExitFile(exitFile, GEMINI_BIN, interactiveArgs({ prompt: PROMPT, sessionId }));

    const tmux = await TmuxSession.start({ command: cmd, args, cwd: repo.dir, env: g.env });
    cleanups.push(() => tmux.dispose());

    await waitForTelemetryEvent(g.telemetryFile, 'gemini_cli.conversation_finished', 1, 90_000);
    expect(await tmux.capture()).toContain('Done: NOTES.md is committed.');
    await tmux.sendLine('/quit');
    await tmux.waitForExit(30_000);
    expect((await readFile(exitFile, 'utf8')).trim()).toBe('0');
    expect(await tmux.capture()).toContain(`gemini --resume ${sessionId}`);

    // Auto routing: the classifier call was answered with conforming JSON, then three main-loop calls.
    const router = fake.requests.filter((r) => r.kind === 'generate');
    expect(router.length).toBeGreaterThanOrEqual(1);
    expect(router[0]?.answeredWith).toBe('json:complexity_reasoning,complexity_score');
    expect(fake.modelRequests().map((c) => c.answeredWith)).toEqual(['step 0', 'step 1', 'step 2']);
    expect(JSON.stringify(fake.modelRequests()[0]?.body)).toContain(PROMPT);

    expect(await repo.git(['log', '-1', '--format=%s%n%(trailers:key=Co-authored-by,valueonly)'])).toBe(
      'Add NOTES.md\nGemini <gemini@google.com>\n\n',
    );

    const transcripts = await findTranscripts(g.home);
    expect(transcripts).toHaveLength(1);
    expect(basename(transcripts[0] ?? '')).toMatch(
      new RegExp(`^session-.*-${sessionId.slice(0, 8)}\\.jsonl$`),
    );
    const transcript = await readFile(transcripts[0] ?? '', 'utf8');
    expect(transcript).toContain('"type":"user"');
    expect(transcript).toContain('Done: NOTES.md is committed.');

    const events = await telemetryLogRecords(g.telemetryFile);
    const names = events.map((e) => e.name);
    const prompt = names.indexOf('gemini_cli.user_prompt');
    expect(prompt).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('gemini_cli.conversation_finished', prompt)).toBeGreaterThan(prompt);
    const routing = events.find((e) => e.name === 'gemini_cli.model_routing');
    expect(routing?.attributes['failed']).toBe(false);
    expect(
      events.find((e) => e.name === 'gemini_cli.conversation_finished')?.attributes['approvalMode'],
    ).toBe('yolo');

    // The disposer kills the pane's process group and the server, and verifies nothing is left.
    await tmux.dispose();
    expect(await tmux.isDead()).toBe(true);
  });
});
