/**
 * The action's cases where the checked CLIs differ (telemetry batch, exit codes, transcript grammar, what a cancel
 * leaves, resume), as one table run over each binary: test/e2e/action.test.ts on 0.42.0 and
 * test/e2e/action-latest.test.ts on 0.61.0 call `describeVersionedCases` (two files, so CI runs them side by
 * side). What each version does differently is a field of `CheckedBinary`, not a copy of the case.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { profileFor } from '../../src/gemini/cli-profile.js';
import { exec } from '../../src/util/exec.js';
import type { ActionWorld } from './action-job.js';
import { assertNoSecrets, useActionWorld } from './action-world.js';
import { scrubbedGitEnv } from './repo.js';

export interface CheckedBinary {
  version: '0.42.0' | '0.61.0';
  /** Action inputs that select it (none: the action's default). */
  inputs: Record<string, string>;
  /**
   * A cancel rolls the model's history back to before the turn (0.61.0), so a session whose only turn timed out
   * has nothing to resume; 0.42.0 keeps the cancelled turn.
   */
  rollsBackCancelledTurn: boolean;
  /**
   * Cases run in one mode only on this binary (the others run in both): where what differs between versions is
   * in one mode's handling, the other mode's run repeats the first binary's.
   */
  oneMode?: Partial<Record<'timeout' | 'quota', 'interactive' | 'headless'>>;
}

export const commitScript = (file: string, message: string): Script => ({
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

/** A `/gemini …` comment on the run's pull request (#2), answered by a run that commits TODO.md. */
export async function commentFollowUp(
  world: ActionWorld,
  o: { mode: 'interactive' | 'headless'; inputs?: Record<string, string>; text?: string },
): ReturnType<ActionWorld['run']> {
  await world.checkout();
  return world.run({
    mode: o.mode,
    script: commitScript('TODO.md', 'Add TODO.md'),
    eventName: 'issue_comment',
    payload: world.commentPayload(o.text ?? '/gemini also add a TODO file', { issue: 2, isPull: true }),
    ...(o.inputs ? { inputs: o.inputs } : {}),
  });
}

export function describeVersionedCases(bin: CheckedBinary): void {
  describe.each(['interactive', 'headless'] as const)(`the action on gemini ${bin.version} (%s)`, (mode) => {
    const worldOf = useActionWorld({ noUnexpectedCalls: true });
    const inputs = bin.inputs;

    it('label → PR with scrubbed commits, summary comment and issue comment; re-run updates the same PR', async () => {
      const world = worldOf();
      const first = await world.run({ mode, script: commitScript('NOTES.md', 'Add NOTES.md'), inputs });
      expect(first.main.stderr).toBe('');
      expect(first.main.exitCode, first.main.stdout).toBe(0);
      expect(first.main.stdout).toContain(`Using gemini ${bin.version}`);
      // The window title, not the telemetry batch (5 s on 0.61.0), ended the turn.
      if (mode === 'interactive') expect(first.main.stdout).toContain('agent is idle (edge: window title)');
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

      // Re-run for the same issue: same branch, same PR, one more commit, no second PR. This one signs its commit
      // through the fake GitHub's Git database API (the bundled Octokit's git endpoints, an existing branch moved).
      await world.checkout();
      const second = await world.run({
        mode,
        script: commitScript('MORE.md', 'Add MORE.md'),
        inputs: { ...inputs, 'sign-commits': 'required' },
      });
      expect(second.main.exitCode, second.main.stdout).toBe(0);
      expect(second.main.stdout).toMatch(/Re-created 1 commit\(s\) through GitHub's API/);
      const tip = await exec(
        'git',
        ['--git-dir', world.repo.originDir, 'cat-file', 'commit', 'gemini-run/issue-1'],
        {
          env: scrubbedGitEnv(),
        },
      );
      expect(tip.stdout).toMatch(
        /^committer GitHub <noreply@github\.com> .*\ngpgsig -----BEGIN PGP SIGNATURE-----$/m,
      );
      expect(tip.stdout).toContain(`parent ${first.main.outputs['head-sha']}`);
      expect(second.main.outputs).toMatchObject({
        status: 'finished',
        'pr-number': '2',
        'commit-count': '1',
      });
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

    const inMode = (c: 'timeout' | 'quota') => (bin.oneMode?.[c] ?? mode) === mode;

    if (inMode('timeout'))
      it('timeout → the partial commit is pushed as a draft PR and the step fails; nothing runs after the timeout', async () => {
        const world = worldOf();
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
          ],
        };
        const started = Date.now();
        const r = await world.run({ mode, script, inputs: { ...inputs, 'timeout-minutes': '0.25' } });
        expect(Date.now() - started).toBeLessThan(90_000);
        expect(r.main.outputs, r.main.stdout).toMatchObject({
          status: 'timed-out',
          'commit-count': '1',
          'pr-number': '2',
        });
        expect(r.main.exitCode).toBe(1);
        expect(r.main.stdout).toMatch(/::error::gemini ended timed-out/);
        expect(r.main.stdout).toContain('fenced: every further model call is refused');
        expect(world.github.pulls()[0]?.draft).toBe(true);
        const log = await world.originLog('gemini-run/issue-1');
        expect(log).toContain('Partial work');
        expect(log).not.toMatch(/Late/);
        if (
          mode === 'interactive' &&
          profileFor(bin.version, { allowUnchecked: false }).nudgesAfterCancel > 0
        ) {
          // The proxy refused the TUI's nudges: they never reached the model (headless and 0.42.0 do not nudge).
          const bodies = JSON.stringify(r.gemini.modelRequests().map((q) => q.body));
          expect(bodies).not.toContain('You successfully executed a tool');
        }
        // Even where the cancel left nothing resumable and the CLI deleted its session file at /quit (0.61.0), the
        // run kept a copy: the summary still lists the turn's tool call.
        expect(r.main.outputs['transcript-path']).not.toBe('');
        const summary = world.github.comments(2).find((c) => c.body.includes('gemini-run:summary'));
        expect(summary?.body).toContain('| shell | `run_shell_command` | 1 | 0 |');
        if (mode !== 'interactive') return;

        // A follow-up: 0.42.0 resumes the cancelled session; 0.61.0 refuses to --resume it (exit 42, "No previous
        // sessions found"), so the follow-up starts afresh and says why, instead of crashing.
        const next = await commentFollowUp(world, { mode, inputs, text: '/gemini go on' });
        expect(next.main.outputs, next.main.stdout).toMatchObject({ status: 'finished', 'pr-number': '2' });
        // Resumed or not, the agent is told the last run was cut off (0.61.0's resumed model forgets that turn).
        expect(JSON.stringify(next.gemini.modelRequests()[0]?.body)).toContain(
          'The previous run on this pull request was stopped at its time limit, in the middle of its work.',
        );
        const comments = world.github
          .comments(2)
          .map((c) => c.body)
          .join('\n');
        if (bin.rollsBackCancelledTurn) {
          expect(next.main.outputs['session-id']).not.toBe(r.main.outputs['session-id']);
          expect(comments).toContain('could not continue the previous session: nothing in it can be resumed');
        } else {
          expect(next.main.outputs['session-id']).toBe(r.main.outputs['session-id']);
          expect(comments).not.toContain('could not continue the previous session');
          expect(JSON.stringify(next.gemini.modelRequests()[0]?.body)).toContain('Partial work');
        }
      });

    if (inMode('quota'))
      it('a daily-quota wall ends quota-exhausted within seconds, fails the step and tells the user what to do', async () => {
        const world = worldOf();
        const started = Date.now();
        const r = await world.run({ mode, script: 'quota-daily', inputs });
        expect(Date.now() - started).toBeLessThan(45_000);
        expect(r.main.outputs.status, r.main.stdout).toBe('quota-exhausted');
        expect(r.main.exitCode).toBe(1);
        expect(r.main.stdout).toMatch(/::error::gemini ended quota-exhausted/);
        // 0.61.0 exits 173 (HTTP 429 & 0xFF): an exit code, not a signal.
        expect(r.main.stdout).not.toMatch(/signal 45/);
        expect(world.github.pulls()).toHaveLength(0);
        const [comment] = world.github.comments(1).filter((c) => c.body.includes('gemini-run:issue'));
        expect(comment?.body).toContain('quota-exhausted');
        expect(comment?.body).toContain('Wait for it to reset');
        // When: the API's retry delay where the message carries it (headless), else the next midnight Pacific.
        expect(comment?.body).toMatch(/The quota resets at \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(in \d/);
      });

    // fix-ci (issue 26), on the pinned version: the same session reads the CI failure and fixes it.
    if (bin.version === '0.42.0')
      it('a CI failure on the run PR: the same session fixes it on the same PR; the same failure again stops the loop', async () => {
        const world = worldOf();
        const first = await world.run({ mode, script: commitScript('NOTES.md', 'Add NOTES.md'), inputs });
        expect(first.main.outputs['pr-number'], first.main.stdout).toBe('2');
        const failed = (id: number, headSha: string) =>
          world.failedCiRun({
            id,
            headSha,
            log: '##[group]Run npm test\nnpm test\n##[endgroup]\nAssertionError: NOTES.md has no title line\n##[error]Process completed with exit code 1.\n',
          });
        /** A fix run for the CI run `id` failed at `headSha`, whose agent would commit `file`. */
        const fixRun = async (id: number, headSha: string, file: string, subject: string) => {
          await world.checkout();
          return world.run({
            mode,
            script: commitScript(file, subject),
            eventName: 'workflow_run',
            payload: failed(id, headSha),
            inputs: { ...inputs, 'fix-ci': 'true' },
          });
        };
        const fix = await fixRun(7001, first.main.outputs['head-sha']!, 'TITLE.md', 'Give the notes a title');
        expect(fix.main.exitCode, fix.main.stdout).toBe(0);
        expect(fix.main.outputs).toMatchObject({
          status: 'finished',
          'pr-number': '2',
          'session-id': first.main.outputs['session-id'],
        });
        // The model's first request holds run 1's conversation and the failure's log excerpt.
        const asked = JSON.stringify(fix.gemini.modelRequests()[0]?.body);
        expect(asked).toContain('Done: NOTES.md is committed.');
        expect(asked).toContain('AssertionError: NOTES.md has no title line');
        expect(await world.originLog('gemini-run/issue-1')).toContain('Give the notes a title');
        expect(world.github.pulls()).toHaveLength(1);

        // Its CI fails the same way: the loop stops, says so on the PR, and gemini never starts.
        const again = await fixRun(7002, fix.main.outputs['head-sha']!, 'X.md', 'Another try');
        expect(again.main.exitCode, again.main.stdout).toBe(0);
        expect(again.main.outputs.status).toBe('skipped');
        expect(again.gemini.modelRequests()).toHaveLength(0);
        expect(await world.originLog('gemini-run/issue-1')).not.toContain('Another try');
        const stop = world.github.comments(2).filter((c) => c.body.includes('gemini-run:ci-fix-stop'));
        expect(stop).toHaveLength(1);
        expect(stop[0]?.body).toContain('the same failure came back');
      });

    // on-quota: defer (issue 29): a pause at the wall, the same session after the reset. On both versions: 0.42.0
    // stops at its quota dialog (headless: its error), 0.61.0 exits 173; the deferral reads the status, not the CLI.
    it('a daily-quota wall defers (step green, work pushed, PR labelled); a schedule resumes the same session after the reset and finishes', async () => {
      const world = worldOf();
      const defer = { ...inputs, 'on-quota': 'defer' };
      const RESET_S = 4;
      const wall = (steps: Script['steps']): Script => ({
        description: `the daily quota runs out, its reset ${RESET_S} s ahead`,
        steps: [...steps, { error: { status: 429, kind: 'daily-quota', retryDelaySeconds: RESET_S } }],
      });
      const sweep = async (script: Script) => {
        await world.checkout();
        return world.run({
          mode,
          script,
          eventName: 'schedule',
          payload: { schedule: '*/30 * * * *' },
          inputs: defer,
        });
      };
      const deferral = () =>
        world.github.comments(2).find((c) => c.body.startsWith('<!-- gemini-run:deferred -->'))?.body ?? '';
      const resetOf = () => Date.parse(/"resetAt":"([^"]+)"/.exec(deferral())?.[1] ?? '');
      const untilReset = async () => {
        const wait = resetOf() - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait + 200));
      };

      const first = await world.run({
        mode,
        script: wall(commitScript('NOTES.md', 'Add NOTES.md').steps.slice(0, 2)),
        inputs: defer,
      });
      expect(first.main.exitCode, first.main.stdout).toBe(0);
      expect(first.main.outputs).toMatchObject({
        status: 'deferred',
        conclusion: 'success',
        'pr-number': '2',
      });
      expect(await world.originLog('gemini-run/issue-1')).toContain('Add NOTES.md');
      expect(world.github.issue(2)?.labels).toContain('gemini-run:deferred');
      expect(deferral()).toMatch(/"attempt":1/);
      // The reset is the API's retry delay (0.42.0's dialog does not say it: the model proxy saw the 429).
      const at = resetOf();
      expect(Math.abs(at - Date.now())).toBeLessThan(RESET_S * 1000 + 30_000);
      console.log(
        `deferral e2e: ${Math.round((at - Date.now()) / 100) / 10} s before the reset at the first sweep`,
      );
      if (Date.now() < at - 1500) {
        const early = await sweep(commitScript('NEVER.md', 'Never'));
        expect(early.main.outputs.status, early.main.stdout).toBe('skipped');
        expect(early.gemini.modelRequests()).toHaveLength(0);
      }

      // After the reset: resumed in the same session (a wall again re-defers: pipeline-deferral.test.ts).
      await untilReset();
      const done = await sweep(commitScript('MORE.md', 'Add MORE.md'));
      expect(done.main.exitCode, done.main.stdout).toBe(0);
      expect(done.main.outputs).toMatchObject({
        status: 'finished',
        'pr-number': '2',
        'session-id': first.main.outputs['session-id'],
      });
      expect(JSON.stringify(done.gemini.modelRequests()[0]?.body)).toContain('Add NOTES.md');
      expect(await world.originLog('gemini-run/issue-1')).toContain('Add MORE.md');
      expect(world.github.pulls()).toHaveLength(1);
      expect(world.github.issue(2)?.labels).not.toContain('gemini-run:deferred');
      expect(deferral()).not.toContain('"resetAt"');
    });

    it('a comment on the run PR continues the session: history sent, new commit on the same PR, both turns in the summary', async () => {
      const world = worldOf();
      const first = await world.run({ mode, script: commitScript('NOTES.md', 'Add NOTES.md'), inputs });
      expect(first.main.outputs['pr-number'], first.main.stdout).toBe('2');
      const firstSession = first.main.outputs['session-id'];
      const r = await commentFollowUp(world, { mode, inputs });
      expect(r.main.exitCode, r.main.stdout).toBe(0);
      expect(r.main.outputs).toMatchObject({
        status: 'finished',
        'pr-number': '2',
        branch: 'gemini-run/issue-1',
        'commit-count': '1',
        'session-id': firstSession,
      });
      expect(r.main.stdout).toContain(`Continuing session ${firstSession}`);
      expect(JSON.stringify(r.gemini.modelRequests()[0]?.body)).not.toContain('### Before this run');
      expect(world.github.reactions.map((x) => x.content)).toContain('eyes');
      // The model's first request of the follow-up carries the first conversation.
      expect(JSON.stringify(r.gemini.modelRequests()[0]?.body)).toContain('Done: NOTES.md is committed.');
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
  });
}
