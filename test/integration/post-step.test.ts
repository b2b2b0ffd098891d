/**
 * The post step after a main step that died half-way: it must stop the run's tmux server and everything in its
 * pane, remove the run dir (the isolated home) and the context file, and restore the checkout's credential — and
 * that of a second checkout an earlier step made inside the workspace.
 */
import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVault } from '../../src/git/vault.js';
import { inspectWorkspace, isolateWorkspaceCredentials } from '../../src/git/workspace.js';
import { SOCKETS_FILE } from '../../src/tmux/tmux.js';
import { exec } from '../../src/util/exec.js';
import { ACTION_NODE, ROOT } from '../harness/action-job.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (this machine's pid 1 does not reap orphans) has exited: it counts as dead.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('post step', () => {
  let repo: WorkRepo | undefined;
  let tmp: string | undefined;
  let socket: string | undefined;
  afterEach(async () => {
    if (socket) await exec('tmux', ['-L', socket, 'kill-server'], { allowAllExitCodes: true });
    await repo?.[Symbol.asyncDispose]();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('cleans up after a main step that crashed mid-run', async () => {
    repo = await createWorkRepo();
    tmp = await mkdtemp(join(tmpdir(), 'gemini-run-post-'));
    const runDir = join(tmp, 'run');
    await mkdir(join(runDir, 'home', '.gemini'), { recursive: true });
    await writeFile(join(runDir, 'home', '.gemini', 'oauth_creds.json'), '{}');
    const header = 'AUTHORIZATION: basic c2VjcmV0';
    await exec('git', ['config', 'http.https://github.com/.extraheader', header], {
      cwd: repo.dir,
      env: repo.env,
    });
    // A second checkout into the workspace (`path: tools`), with a token of its own.
    const tools = join(repo.dir, 'tools');
    const toolsHeader = 'AUTHORIZATION: basic dG9vbHMtc2VjcmV0';
    await exec('git', ['clone', '-q', repo.originDir, tools], { env: repo.env });
    await writeFile(join(repo.dir, '.git', 'info', 'exclude'), 'tools/\n', { flag: 'a' });
    await exec('git', ['config', 'http.https://github.com/.extraheader', toolsHeader], {
      cwd: tools,
      env: repo.env,
    });
    // As the main step leaves it: the .git inspected and saved, the vault made, the credential moved aside...
    const snapshot = await inspectWorkspace(repo.dir, join(runDir, 'workspace-git'));
    const vault = await createVault({
      worktree: repo.dir,
      dir: join(runDir, 'vault.git'),
      objectFormat: 'sha1',
    });
    const saved = await isolateWorkspaceCredentials(snapshot, join(tmp, 'stash'));
    expect(await readFile(join(tools, '.git', 'config'), 'utf8')).not.toContain(toolsHeader);
    await writeFile(join(repo.dir, 'GEMINI.local.md'), 'task');
    // ...and the agent's doing before the main step died: config and a hook for whoever runs git next.
    await exec('git', ['config', 'core.fsmonitor', 'touch /tmp/never'], { cwd: repo.dir, env: repo.env });
    await writeFile(join(repo.dir, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\ntouch /tmp/never\n', {
      mode: 0o755,
    });

    // A "gemini" left running in the run's own tmux server, ignoring SIGHUP like a TUI in a dialog would.
    socket = `gemini-run-posttest${process.pid}`;
    await exec('tmux', [
      '-L',
      socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      'sh',
      '-c',
      "trap '' HUP; sleep 600",
    ]);
    const pid = Number((await exec('tmux', ['-L', socket, 'list-panes', '-F', '#{pane_pid}'])).stdout.trim());
    expect(alive(pid)).toBe(true);
    await writeFile(join(runDir, SOCKETS_FILE), `${socket}\n`);

    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      STATE_runDir: runDir,
      STATE_worktree: repo.dir,
      STATE_savedCredentials: JSON.stringify(saved),
      STATE_workspace: JSON.stringify({ snapshot, vault: vault.dir }),
    };
    const out = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const child = spawn(ACTION_NODE, [join(ROOT, 'dist', 'post.js')], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    });
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain('::warning::');
    expect(out.stdout).toContain(`Stopped tmux server ${socket}`);
    for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    expect(
      (await exec('tmux', ['-L', socket, 'list-sessions'], { allowAllExitCodes: true })).exitCode,
    ).not.toBe(0);
    expect(await exists(runDir)).toBe(false);
    expect(await exists(join(repo.dir, 'GEMINI.local.md'))).toBe(false);
    // The post step rebuilt the .git before the credential came back: the agent's config and hook are gone.
    const config = await readFile(join(repo.dir, '.git', 'config'), 'utf8');
    expect(config).toContain(header);
    expect(config).not.toContain('fsmonitor');
    expect(await exists(join(repo.dir, '.git', 'hooks', 'post-checkout'))).toBe(false);
    // The second checkout, which the run left alone, is kept with its credential back.
    expect(out.stdout).toContain(
      'Kept 1 nested repository that were there before the run, as they were: tools/.git',
    );
    expect(await readFile(join(tools, '.git', 'config'), 'utf8')).toContain(toolsHeader);
    const status = await exec('git', ['status', '--porcelain'], { cwd: repo.dir, env: repo.env });
    expect(status.stdout.trim()).toBe('');
  });

  it('with nothing to clean, says so and succeeds', async () => {
    const out = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const child = spawn(ACTION_NODE, [join(ROOT, 'dist', 'post.js')], {
        env: { PATH: process.env.PATH },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Nothing to clean up.');
  });
});
