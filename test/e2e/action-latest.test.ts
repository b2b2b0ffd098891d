/**
 * The action's main cases on the second checked CLI, gemini 0.61.0 (devDependency `gemini-cli-latest`): the same
 * pipeline as test/e2e/action.test.ts, with `gemini-path` naming the 0.61.0 bundle. Kept to the cases where the
 * versions differ (telemetry batch, exit codes, transcript grammar, resume) so CI pays for each run once. Also
 * the version gate: an unchecked version is refused with one line unless the workflow allows it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { ActionWorld, GEMINI_JS } from '../harness/action-job.js';
import { GEMINI_LATEST_BIN } from '../harness/gemini-launcher.js';

const LATEST = { 'gemini-path': GEMINI_LATEST_BIN };

const commitScript = (file: string, message: string): Script => ({
  description: `writes ${file} and commits it with an attribution trailer`,
  steps: [
    { functionCalls: [{ name: 'write_file', args: { file_path: file, content: `# ${file}\n` } }] },
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: {
            command: `git add -A && git commit -q -m '${message}' -m 'Co-authored-by: Gemini <gemini@google.com>'`,
            description: 'Commit',
          },
        },
      ],
    },
    { text: `Done: ${file} is committed.` },
  ],
});

describe.each(['interactive', 'headless'] as const)('the action on gemini 0.61.0 (%s)', (mode) => {
  let world: ActionWorld;
  beforeEach(async () => {
    world = await ActionWorld.create();
    await world.checkout();
  });
  afterEach(async () => {
    world.github.assertNoUnexpected();
    await world[Symbol.asyncDispose]();
  });

  it('label → PR with scrubbed commits and usage; a re-run updates the same PR', async () => {
    const first = await world.run({ mode, script: commitScript('NOTES.md', 'Add NOTES.md'), inputs: LATEST });
    expect(first.main.exitCode, first.main.stdout).toBe(0);
    expect(first.main.stdout).toContain('Using gemini 0.61.0');
    // The window title, not 0.61.0's 5-second telemetry batch, ended the turn.
    if (mode === 'interactive') expect(first.main.stdout).toContain('agent is idle (edge: window title)');
    expect(first.main.outputs).toMatchObject({ status: 'finished', 'pr-number': '2', 'commit-count': '1' });
    expect(first.main.outputs.models).toContain('gemini-2.5-flash');
    expect(Number(first.main.outputs['total-tokens'])).toBeGreaterThan(0);
    const log = await world.originLog('gemini-run/issue-1');
    expect(log).toContain('Add NOTES.md');
    expect(log).not.toMatch(/Co-authored-by: Gemini/i);
    expect(world.github.pulls()[0]?.body).toContain('Done: NOTES.md is committed.');

    await world.checkout();
    const second = await world.run({ mode, script: commitScript('MORE.md', 'Add MORE.md'), inputs: LATEST });
    expect(second.main.exitCode, second.main.stdout).toBe(0);
    expect(second.main.outputs).toMatchObject({ status: 'finished', 'pr-number': '2', 'commit-count': '1' });
    expect(world.github.pulls()).toHaveLength(1);
  });

  it('a daily-quota wall ends quota-exhausted (exit 173 on 0.61.0), fails the step and tells the user', async () => {
    const r = await world.run({ mode, script: 'quota-daily', inputs: LATEST });
    expect(r.main.outputs.status, r.main.stdout).toBe('quota-exhausted');
    expect(r.main.exitCode).toBe(1);
    expect(r.main.stdout).toMatch(/::error::gemini ended quota-exhausted/);
    expect(r.main.stdout).not.toMatch(/signal 45/);
    const [comment] = world.github.comments(1).filter((c) => c.body.includes('gemini-run:issue'));
    expect(comment?.body).toContain('Wait for it to reset');
  });

  it('timeout → the partial commit is pushed as a draft PR and the step fails; nothing runs after the timeout', async () => {
    // 0.61.0 answers the cancelled continuation by asking the model again (an auto-nudge, twice at most): the
    // answers below are what a model would send back. Their commits must not land (probe escape-after-tool-call):
    // the model proxy is fenced at the timeout, and the engine Escapes each nudge.
    const late = (n: number) => ({
      // Faster than the 700 ms between Escapes: only the model proxy's fence keeps this from running.
      delayMs: 100,
      functionCalls: [
        {
          name: 'run_shell_command',
          args: { command: `echo late > LATE${n}.md && git add -A && git commit -q -m 'Late ${n}'` },
        },
      ],
    });
    const script: Script = {
      description: 'commits, then the next model call hangs; a nudge would be answered with more commits',
      steps: [
        {
          functionCalls: [
            {
              name: 'run_shell_command',
              args: {
                command: "echo partial > PARTIAL.md && git add -A && git commit -q -m 'Partial work'",
                description: 'x',
              },
            },
          ],
        },
        { hang: true },
        late(1),
        late(2),
        { text: 'Late answer.' },
      ],
    };
    const r = await world.run({ mode, script, inputs: { ...LATEST, 'timeout-minutes': '0.25' } });
    expect(r.main.outputs, r.main.stdout).toMatchObject({ status: 'timed-out', 'commit-count': '1' });
    expect(await world.originLog('gemini-run/issue-1')).not.toMatch(/Late/);
    if (mode === 'interactive') {
      // The proxy refused the TUI's nudges: they never reached the model (headless does not nudge).
      const bodies = JSON.stringify(r.gemini.modelRequests().map((q) => q.body));
      expect(bodies).not.toContain('You successfully executed a tool');
    }
    // The cancel left nothing resumable, so 0.61.0 deleted its session file at /quit: the run kept a copy, and
    // the summary still lists the turn's tool call.
    expect(r.main.outputs['transcript-path']).not.toBe('');
    const summary = world.github.comments(2).find((c) => c.body.includes('gemini-run:summary'));
    expect(summary?.body).toContain('| shell | `run_shell_command` | 1 | 0 |');
    if (mode !== 'interactive') return;
    // 0.61.0 refuses to --resume such a session (exit 42, "No previous sessions found"): a follow-up starts
    // afresh and says why, instead of crashing.
    await world.checkout();
    const next = await world.run({
      mode,
      script: commitScript('TODO.md', 'Add TODO.md'),
      eventName: 'issue_comment',
      payload: world.commentPayload('/gemini go on', { issue: 2, isPull: true }),
      inputs: LATEST,
    });
    expect(next.main.outputs, next.main.stdout).toMatchObject({ status: 'finished', 'pr-number': '2' });
    expect(next.main.outputs['session-id']).not.toBe(r.main.outputs['session-id']);
    expect(
      world.github
        .comments(2)
        .map((c) => c.body)
        .join('\n'),
    ).toContain('could not continue the previous session: nothing in it can be resumed');
    expect(r.main.stdout).toContain('fenced: every further model call is refused');
    expect(r.main.exitCode).toBe(1);
    expect(world.github.pulls()[0]?.draft).toBe(true);
  });

  it('a comment on the run PR continues the 0.61.0 session with its history', async () => {
    const first = await world.run({ mode, script: commitScript('NOTES.md', 'Add NOTES.md'), inputs: LATEST });
    expect(first.main.outputs['pr-number'], first.main.stdout).toBe('2');
    const firstSession = first.main.outputs['session-id'];
    await world.checkout();
    const r = await world.run({
      mode,
      script: commitScript('TODO.md', 'Add TODO.md'),
      eventName: 'issue_comment',
      payload: world.commentPayload('/gemini also add a TODO file', { issue: 2, isPull: true }),
      inputs: LATEST,
    });
    expect(r.main.exitCode, r.main.stdout).toBe(0);
    expect(r.main.outputs).toMatchObject({
      status: 'finished',
      'pr-number': '2',
      'session-id': firstSession,
    });
    expect(JSON.stringify(r.gemini.modelRequests()[0]?.body)).toContain('Done: NOTES.md is committed.');
    const summaries = world.github.comments(2).filter((c) => c.body.includes('gemini-run:summary'));
    expect(summaries[0]?.body).toContain('Done: TODO.md is committed.');
  });
});

describe('the version gate', () => {
  let world: ActionWorld;
  let dir: string;
  beforeEach(async () => {
    world = await ActionWorld.create();
    await world.checkout();
    dir = await mkdtemp(join(tmpdir(), 'gr-unchecked-'));
  });
  afterEach(async () => {
    await world[Symbol.asyncDispose]();
    await rm(dir, { recursive: true, force: true });
  });

  /** A gemini that reports 0.55.0 and otherwise is the real 0.42.0. */
  async function uncheckedGemini(): Promise<string> {
    const path = join(dir, 'gemini');
    await writeFile(
      path,
      `#!/bin/sh\n[ "$1" = --version ] && { echo 0.55.0; exit 0; }\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(GEMINI_JS)} "$@"\n`,
      { mode: 0o755 },
    );
    return path;
  }

  it('refuses an unchecked version with one line, and runs it when the workflow allows it', async () => {
    const gemini = await uncheckedGemini();
    const refused = await world.run({
      script: commitScript('X.md', 'Add X.md'),
      inputs: { 'gemini-path': gemini },
    });
    expect(refused.main.exitCode).toBe(1);
    const errors = refused.main.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors).toEqual([
      expect.stringMatching(
        /gemini 0\.55\.0 has not been checked .*\(checked: 0\.42\.0, 0\.61\.0\).*allow-unchecked-gemini-version: true/,
      ),
    ]);
    expect(refused.gemini.modelRequests()).toHaveLength(0);
    expect(world.github.pulls()).toHaveLength(0);

    await world.checkout();
    const allowed = await world.run({
      script: commitScript('X.md', 'Add X.md'),
      inputs: { 'gemini-path': gemini, 'allow-unchecked-gemini-version': 'true' },
    });
    expect(allowed.main.exitCode, allowed.main.stdout).toBe(0);
    expect(allowed.main.stdout).toMatch(/::warning::gemini at .* is 0\.55\.0, .*0\.42\.0 profile/);
    expect(allowed.main.outputs).toMatchObject({ status: 'finished', 'commit-count': '1' });
  });
});
