/**
 * The action end to end: `node dist/index.js` then `node dist/post.js` with INPUT_* and GITHUB_* variables, the
 * real gemini 0.42.0 against the fake Gemini API, the fake GitHub through the real Octokit, and a workspace
 * whose origin is a bare repository.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { ActionWorld, GEMINI_API_KEY, GITHUB_TOKEN, type StepResult } from '../harness/action-job.js';

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

/** The log without the runner's `::add-mask::` commands (they are how secrets get masked, never shown). */
function visible(log: string): string {
  return log
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');
}

function assertNoSecrets(world: ActionWorld, texts: string[]): void {
  const everything = [
    ...texts.map(visible),
    JSON.stringify(world.github.requests.map((r) => r.body)),
    ...world.github.pulls().map((p) => `${p.title}\n${p.body}`),
  ].join('\n');
  for (const secret of [
    GITHUB_TOKEN,
    GEMINI_API_KEY,
    Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64'),
  ]) {
    expect(everything).not.toContain(secret);
  }
}

describe.each(['interactive', 'headless'] as const)('the action, end to end (%s)', (mode) => {
  let world: ActionWorld;
  beforeEach(async () => {
    world = await ActionWorld.create();
    await world.checkout();
  });
  afterEach(async () => {
    world.github.assertNoUnexpected();
    // In every test: no secret in any log, output, summary, telemetry file, artifact, PR or comment.
    assertNoSecrets(world, world.published);
    await world[Symbol.asyncDispose]();
  });

  it('label → PR with scrubbed commits, summary comment and issue comment; re-run updates the same PR', async () => {
    const first = await world.run({
      mode,
      script: commitScript('NOTES.md', 'Add NOTES.md'),
    });
    expect(first.main.stderr).toBe('');
    expect(first.main.exitCode, first.main.stdout).toBe(0);
    expect(first.main.outputs).toMatchObject({
      status: 'finished',
      branch: 'gemini-run/issue-1',
      'pr-number': '2',
      'commit-count': '1',
    });
    expect(first.main.outputs['session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.main.outputs.models).toContain('gemini-2.5-flash');
    expect(Number(first.main.outputs['total-tokens'])).toBeGreaterThan(0);

    const log = await world.originLog('gemini-run/issue-1');
    expect(log).toContain('Add NOTES.md');
    expect(log).not.toMatch(/Co-authored-by: Gemini/i);
    expect(log).toContain('github-actions[bot]');
    expect(await world.originFile('gemini-run/issue-1', 'NOTES.md')).toContain('# NOTES.md');
    expect(await world.originFile('gemini-run/issue-1', 'GEMINI.local.md')).toBe('');

    const [pull] = world.github.pulls();
    expect(pull).toMatchObject({ number: 2, draft: false, head: 'gemini-run/issue-1', base: 'main' });
    expect(pull?.body).toContain('Closes #1');
    expect(pull?.body).toContain('Done: NOTES.md is committed.');
    expect(pull?.body).not.toMatch(/Co-authored-by/i);
    const prComments = world.github.comments(2);
    expect(prComments).toHaveLength(1);
    expect(prComments[0]?.body).toContain('gemini --resume');
    expect(prComments[0]?.body).toMatch(/Transcript: artifact `gemini-run-\d+-1` of \[run \d+\]/);
    const issueComments = world.github.comments(1).filter((c) => c.body.includes('gemini-run:issue'));
    expect(issueComments).toHaveLength(1);
    expect(issueComments[0]?.body).toContain('#2');
    expect(first.main.summary).toContain('gemini --resume');
    expect(first.post.exitCode).toBe(0);

    // The checkout's credential is back after the post step; nothing of the run is left in the workspace.
    const config = await readFile(join(world.workspace, '.git', 'config'), 'utf8');
    expect(config).toContain('extraheader');
    expect((await readdir(world.workspace)).sort()).not.toContain('GEMINI.local.md');

    // Re-run for the same issue: same branch, same PR, one more commit, no second PR.
    await world.checkout();
    const second = await world.run({
      mode,
      script: commitScript('MORE.md', 'Add MORE.md'),
    });
    expect(second.main.exitCode, second.main.stdout).toBe(0);
    expect(second.main.outputs).toMatchObject({ status: 'finished', 'pr-number': '2', 'commit-count': '1' });
    expect(world.github.pulls()).toHaveLength(1);
    const log2 = await world.originLog('gemini-run/issue-1');
    expect(log2).toContain('Add MORE.md');
    expect(log2).toContain('Add NOTES.md');
    expect(world.github.comments(2).filter((c) => c.body.includes('gemini-run:summary'))).toHaveLength(1);
    expect(world.github.comments(1).filter((c) => c.body.includes('gemini-run:issue'))).toHaveLength(1);

    assertNoSecrets(world, [
      first.main.stdout,
      first.main.stderr,
      first.main.summary,
      first.telemetry,
      JSON.stringify(first.main.outputs),
      second.main.stdout,
    ]);
  });

  it('the agent finds no token or key in its env or the git config', async () => {
    const r = await world.run({
      mode,
      script: spyScript,
      env: { SOME_SECRET: 'hunter2-secret-value' },
    });
    expect(r.main.outputs.status, r.main.stdout).toBe('finished');
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

  it('a finished run without commits ends no-changes with a comment and no PR', async () => {
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

  it('timeout → the partial commit is pushed as a draft PR and the step fails', async () => {
    const script: Script = {
      description: 'commits, then the next model call hangs',
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
      ],
    };
    const started = Date.now();
    const r = await world.run({
      mode,
      script,
      inputs: { 'timeout-minutes': '0.25' },
    });
    expect(Date.now() - started).toBeLessThan(90_000);
    expect(r.main.outputs).toMatchObject({ status: 'timed-out', 'commit-count': '1', 'pr-number': '2' });
    expect(r.main.exitCode).toBe(1);
    expect(r.main.stdout).toMatch(/::error::gemini ended timed-out/);
    expect(world.github.pulls()[0]?.draft).toBe(true);
    expect(await world.originLog('gemini-run/issue-1')).toContain('Partial work');
  });

  it('a daily-quota wall ends quota-exhausted within seconds, fails the step and tells the user what to do', async () => {
    const started = Date.now();
    const r = await world.run({ mode, script: 'quota-daily' });
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(r.main.outputs.status, r.main.stdout).toBe('quota-exhausted');
    expect(r.main.exitCode).toBe(1);
    expect(r.main.stdout).toMatch(/::error::gemini ended quota-exhausted/);
    expect(world.github.pulls()).toHaveLength(0);
    const [comment] = world.github.comments(1).filter((c) => c.body.includes('gemini-run:issue'));
    expect(comment?.body).toContain('quota-exhausted');
    expect(comment?.body).toContain('Wait for it to reset');
  });

  it('an actor without write access is refused with a comment, and nothing runs', async () => {
    const r = await world.run({
      mode,
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
    const r = await world.run({
      mode,
      script: 'plain-answer',
      payload: world.labeledPayload('bug'),
    });
    expect(r.main.exitCode).toBe(0);
    expect(r.main.outputs.status).toBe('skipped');
    expect(r.gemini.requests).toHaveLength(0);
    expect(world.github.requests).toHaveLength(0);
  });

  it('a comment on the run PR continues the session: history sent, new commit on the same PR, both turns in the summary', async () => {
    const first = await world.run({
      mode,
      script: commitScript('NOTES.md', 'Add NOTES.md'),
    });
    expect(first.main.outputs['pr-number'], first.main.stdout).toBe('2');
    const firstSession = first.main.outputs['session-id'];
    await world.checkout();
    const payload = world.commentPayload('/gemini also add a TODO file', { issue: 2, isPull: true });
    const r = await world.run({
      mode,
      script: commitScript('TODO.md', 'Add TODO.md'),
      eventName: 'issue_comment',
      payload,
    });
    expect(r.main.exitCode, r.main.stdout).toBe(0);
    expect(r.main.outputs).toMatchObject({
      status: 'finished',
      'pr-number': '2',
      branch: 'gemini-run/issue-1',
      'commit-count': '1',
      'session-id': firstSession,
    });
    expect(r.main.stdout).toContain(`Continuing session ${firstSession}`);
    expect(world.github.reactions.map((x) => x.content)).toContain('eyes');
    // The model's first request of the follow-up carries the first conversation.
    const sent = JSON.stringify(r.gemini.modelRequests()[0]?.body);
    expect(sent).toContain('Done: NOTES.md is committed.');
    expect(world.github.pulls()).toHaveLength(1);
    const log = await world.originLog('gemini-run/issue-1');
    expect(log).toContain('Add TODO.md');
    expect(log).toContain('Add NOTES.md');
    const summaries = world.github.comments(2).filter((c) => c.body.includes('gemini-run:summary'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.body).toContain('Done: TODO.md is committed.');
    expect(summaries[0]?.body).toContain('Earlier runs on this pull request');
    expect(summaries[0]?.body).toContain('Done: NOTES.md is committed.');
  });

  it('a comment on a PR whose transcript is gone starts fresh with the PR as context', async () => {
    const first = await world.run({ mode, script: commitScript('NOTES.md', 'Add NOTES.md') });
    expect(first.main.outputs['pr-number']).toBe('2');
    await rm(join(world.tmp, 'transcripts'), { recursive: true, force: true });
    await world.checkout();
    const payload = world.commentPayload('/gemini also add a TODO file', { issue: 2, isPull: true });
    const r = await world.run({
      mode,
      script: commitScript('TODO.md', 'Add TODO.md'),
      eventName: 'issue_comment',
      payload,
    });
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

  it('bad input gets one clear line: malformed creds, unknown model, broken payload', async () => {
    const creds = await world.run({
      mode,
      script: 'plain-answer',
      inputs: { 'gemini-api-key': '', 'gemini-oauth-creds': '{"access_token": "ya29.secret-not-json' },
    });
    assertOneLineFailure(creds.main, /gemini-oauth-creds/);
    expect(creds.main.outputs.status).toBe('auth-failed');
    expect(visible(creds.main.stdout)).not.toContain('ya29.secret');

    const model = await world.run({
      mode,
      script: 'plain-answer',
      inputs: { model: 'gemini-9-ultra' },
    });
    assertOneLineFailure(model.main, /gemini-9-ultra.*gemini-2\.5-flash/);

    const broken = await world.run({
      mode,
      script: 'plain-answer',
      eventName: 'issue_comment',
      payload: { action: 'created' },
    });
    assertOneLineFailure(broken.main, /issue_comment/);
    expect(broken.post.exitCode).toBe(0);

    // Work already in the tree would be committed as the agent's: refused before gemini starts.
    await writeFile(join(world.workspace, 'build-output.txt'), 'x');
    const dirty = await world.run({ mode, script: 'plain-answer' });
    assertOneLineFailure(dirty.main, /uncommitted change\(s\) before the run \(e\.g\. build-output\.txt\)/);
    expect(dirty.gemini.requests).toHaveLength(0);
  });
});
