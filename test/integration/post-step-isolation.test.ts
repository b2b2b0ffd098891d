/**
 * The post step after a main step that died with its agent running: every process of the agent's uid (a
 * `setsid` daemon included) ends, the agent's files in the worktree are the runner's again, the agent's
 * directory is gone and its user is free for the next run.
 */
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAIMS_DIR } from '../../src/isolation/agent-user.js';
import { pidsOfUid } from '../../src/isolation/procs.js';
import { sandboxStateSchema } from '../../src/isolation/sandbox.js';
import { exec } from '../../src/util/exec.js';
import { ACTION_NODE, ROOT } from '../harness/action-job.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

describe.skipIf(process.getuid?.() !== 0)('post step with an isolated agent (as root)', () => {
  let repo: WorkRepo | undefined;
  let tmp: string | undefined;
  afterEach(async () => {
    await repo?.[Symbol.asyncDispose]();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("ends every process of the agent's uid, gives the files back and frees the user", async () => {
    repo = await createWorkRepo();
    tmp = await mkdtemp(join(tmpdir(), 'gemini-run-post-iso-'));
    const died = await exec(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test', 'harness', 'main-step-dies.ts'), tmp, repo.dir],
      { cwd: ROOT },
    );
    const state = sandboxStateSchema.parse(JSON.parse(died.stdout.trim()));
    expect(await pidsOfUid(state.user.uid)).not.toEqual([]);
    expect((await stat(join(repo.dir, 'agent-was-here'))).uid).toBe(state.user.uid);

    const out = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const child = spawn(ACTION_NODE, [join(ROOT, 'dist', 'post.js')], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, STATE_sandbox: JSON.stringify(state) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`No process of ${state.user.name} is left.`);
    expect(await pidsOfUid(state.user.uid)).toEqual([]);
    expect((await stat(join(repo.dir, 'agent-was-here'))).uid).toBe(0);
    expect(await exists(state.dir)).toBe(false);
    expect(await exists(join(CLAIMS_DIR, `${state.user.name}.lock`))).toBe(false);
  });
});
