/**
 * A runner environment the action cannot use fails in one line that names what is wrong, never a Node stack: an
 * empty or non-JSON event file (which @actions/github used to parse, and throw on, while loading), or a missing
 * GITHUB_WORKSPACE. The post step, which must always clean up, starts too.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT, runNode } from '../harness/action-job.js';

async function stepEnv(event: string): Promise<{ env: Record<string, string>; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'gemini-run-badenv-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const eventPath = join(dir, 'event.json');
  await writeFile(eventPath, event);
  for (const f of ['output', 'state', 'summary']) await writeFile(join(dir, f), '');
  return {
    dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'issues',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: 'acme/widgets',
      GITHUB_WORKSPACE: dir,
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STATE: join(dir, 'state'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      RUNNER_TEMP: dir,
      'INPUT_GITHUB-TOKEN': 'ghs_notUsedBecauseTheStepStopsBefore000000',
    },
  };
}

const STACK = /^\s+at |SyntaxError|node:internal/m;

describe('a runner environment the action cannot use', () => {
  it.each([
    ['an empty event file', ''],
    ['a non-JSON event file', '{"action": "labeled",'],
  ])(
    '%s: one line naming the file, no stack, in the main step; the post step still runs',
    async (_, event) => {
      const { env, dir } = await stepEnv(event);
      const main = await runNode(join(ROOT, 'dist', 'index.js'), env, dir);
      expect(main.exitCode).toBe(1);
      const out = `${main.stdout}\n${main.stderr}`;
      expect(out).toMatch(
        /::error::Cannot read the event payload at .*event\.json: it is missing or not JSON\./,
      );
      expect(out).not.toMatch(STACK);
      const post = await runNode(join(ROOT, 'dist', 'post.js'), env, dir);
      expect(post.exitCode, post.stderr).toBe(0);
      expect(`${post.stdout}\n${post.stderr}`).not.toMatch(STACK);
      expect(post.stdout).toMatch(/Nothing to clean up/);
    },
  );

  it('a missing GITHUB_WORKSPACE is named', async () => {
    const { env, dir } = await stepEnv('{}');
    delete env.GITHUB_WORKSPACE;
    const main = await runNode(join(ROOT, 'dist', 'index.js'), env, dir);
    expect(main.exitCode).toBe(1);
    expect(main.stdout).toMatch(
      /::error::This does not look like a GitHub Actions job: GITHUB_WORKSPACE is not set\./,
    );
  });
});
