/**
 * The action end to end: `node dist/index.js` then `node dist/post.js` with INPUT_* and GITHUB_* variables, the
 * real gemini 0.42.0 against the fake Gemini API, the fake GitHub through the real Octokit, and a workspace
 * whose origin is a bare repository.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { commentFollowUp, commitScript, describeVersionedCases } from '../harness/action-cases.js';
import { GEMINI_API_KEY, GITHUB_TOKEN, type StepResult } from '../harness/action-job.js';
import { assertNoSecrets, useActionWorld, visible } from '../harness/action-world.js';

// The cases where the checked CLIs differ, on the default one (0.61.0: action-latest.test.ts).
describeVersionedCases({ version: '0.42.0', inputs: {}, rollsBackCancelledTurn: false });

/** An agent that tries to find credentials: env, .git/config, git's config list. */
const spyScript: Script = {
  description: 'records what the agent can see and commits it',
  steps: [
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: {
            command:
              "(env; echo ---CONFIG---; cat .git/config; echo ---LIST---; git config --list --show-origin) > SPY.txt 2>&1; git add SPY.txt && git commit -q -m 'Record the environment' -m 'Co-authored-by: Gemini <gemini@google.com>'",
            description: 'Look around',
          },
        },
      ],
    },
    { text: 'Recorded what I could see.' },
  ],
};

function assertOneLineFailure(step: StepResult, pattern: RegExp): void {
  expect(step.exitCode).toBe(1);
  const errors = step.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(pattern);
  expect(step.stdout + step.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
}

describe.each(['interactive', 'headless'] as const)('the action, end to end (%s)', (mode) => {
  const worldOf = useActionWorld({ noUnexpectedCalls: true });

  it('the agent finds no token or key in its env or the git config', async () => {
    const world = worldOf();
    const r = await world.run({
      mode,
      script: spyScript,
      env: { SOME_SECRET: 'hunter2-secret-value' },
    });
    expect(r.main.outputs.status, r.main.stdout).toBe('finished');
    // The bundle starts the proxy as its own process (dist/proxy.js, found from a shared chunk of dist/).
    expect(r.main.stdout).toMatch(/^::debug::model proxy: its own process, pid \d+$/m);
    const spy = await world.originFile('gemini-run/issue-1', 'SPY.txt');
    expect(spy).toContain('---CONFIG---');
    expect(spy).toContain('GEMINI_CLI_HOME=');
    for (const leak of [
      GITHUB_TOKEN,
      GEMINI_API_KEY,
      'hunter2-secret-value',
      'extraheader',
      'GITHUB_',
      'INPUT_',
      'ACTIONS_',
      '\nCI=',
    ]) {
      expect(spy).not.toContain(leak);
    }
    const summaryPath = r.main.outputs['summary-path'] ?? '';
    const runSummary = await readFile(join(summaryPath, '..', 'run-summary.json'), 'utf8');
    assertNoSecrets(world, [r.main.stdout, r.main.stderr, r.main.summary, r.telemetry, runSummary, spy]);
  });

  // Decided by the pipeline whatever the mode: once, headless.
  if (mode === 'headless')
    it('a finished run without commits ends no-changes with a comment and no PR', async () => {
      const world = worldOf();
      const r = await world.run({
        mode,
        script: 'plain-answer',
      });
      expect(r.main.exitCode, r.main.stdout).toBe(0);
      expect(r.main.outputs).toMatchObject({ status: 'no-changes', 'pr-number': '', 'commit-count': '0' });
      expect(world.github.pulls()).toHaveLength(0);
      const [comment] = world.github.comments(1).filter((c) => c.body.includes('gemini-run:issue'));
      expect(comment?.body).toContain('without changing anything');
      expect(comment?.body).toContain('Nothing needs to change');
    });

  // Decided by the pipeline whatever the mode: once, headless.
  if (mode === 'headless')
    it('a comment on a PR whose transcript is gone starts fresh with the PR as context', async () => {
      const world = worldOf();
      const first = await world.run({ mode, script: commitScript('NOTES.md', 'Add NOTES.md') });
      expect(first.main.outputs['pr-number']).toBe('2');
      await rm(join(world.tmp, 'transcripts'), { recursive: true, force: true });
      const r = await commentFollowUp(world, { mode });
      expect(r.main.outputs.status, r.main.stdout).toBe('finished');
      expect(r.main.stdout).toContain('starting a fresh session');
      const fresh = world.github.comments(2).filter((c) => c.body.includes('gemini-run:fresh-session'));
      expect(fresh).toHaveLength(1);
      expect(fresh[0]?.body).toMatch(
        /\ngemini-run could not continue the previous session: the transcript of run \d+ was not found\.\n/,
      );
      expect(r.main.outputs['session-id']).not.toBe(first.main.outputs['session-id']);
      expect(await world.originLog('gemini-run/issue-1')).toContain('Add TODO.md');
    });
});

// Gemini never starts in these, so the mode does not matter: they run once.
describe('the action, end to end, before gemini starts', () => {
  const worldOf = useActionWorld({ noUnexpectedCalls: true });

  it('an actor without write access is refused with a comment, and nothing runs', async () => {
    const world = worldOf();
    const r = await world.run({
      mode: 'headless',
      script: 'plain-answer',
      payload: world.labeledPayload('gemini-run', 'mallory'),
    });
    expect(r.main.exitCode).toBe(0);
    expect(r.main.outputs.status).toBe('refused');
    expect(r.gemini.requests).toHaveLength(0);
    expect(
      world.github.comments(1).some((c) => c.body.includes('@mallory') && c.body.includes('write access')),
    ).toBe(true);
  });

  it('another label → skipped, without touching GitHub or gemini', async () => {
    const world = worldOf();
    const r = await world.run({
      mode: 'headless',
      script: 'plain-answer',
      payload: world.labeledPayload('bug'),
    });
    expect(r.main.exitCode).toBe(0);
    expect(r.main.outputs.status).toBe('skipped');
    expect(r.gemini.requests).toHaveLength(0);
    expect(world.github.requests).toHaveLength(0);
  });

  it('bad input gets one clear line: malformed creds, unknown model, broken payload', async () => {
    const world = worldOf();
    const creds = await world.run({
      mode: 'headless',
      script: 'plain-answer',
      inputs: { 'gemini-api-key': '', 'gemini-oauth-creds': '{"access_token": "ya29.secret-not-json' },
    });
    assertOneLineFailure(creds.main, /gemini-oauth-creds/);
    expect(creds.main.outputs.status).toBe('misconfigured');
    expect(visible(creds.main.stdout)).not.toContain('ya29.secret');

    const model = await world.run({
      mode: 'headless',
      script: 'plain-answer',
      inputs: { model: 'gemini-9-ultra' },
    });
    assertOneLineFailure(model.main, /gemini-9-ultra.*gemini-2\.5-flash/);

    const broken = await world.run({
      mode: 'headless',
      script: 'plain-answer',
      eventName: 'issue_comment',
      payload: { action: 'created' },
    });
    assertOneLineFailure(broken.main, /issue_comment/);
    expect(broken.post.exitCode).toBe(0);

    // Work already in the tree would be committed as the agent's: refused before gemini starts.
    await writeFile(join(world.workspace, 'build-output.txt'), 'x');
    const dirty = await world.run({ mode: 'headless', script: 'plain-answer' });
    assertOneLineFailure(dirty.main, /uncommitted change\(s\) before the run \(e\.g\. build-output\.txt\)/);
    expect(dirty.gemini.requests).toHaveLength(0);
  });
});
