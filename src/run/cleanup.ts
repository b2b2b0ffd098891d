import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { removeContextFile } from '../gemini/context-file.js';
import { SOCKETS_FILE } from '../tmux/tmux.js';
import { exec } from '../util/exec.js';
import type { Logger } from '../util/log.js';
import { killProcessGroup, signalProcess } from '../util/process.js';

/**
 * Cleanup after a run that may have died half-way (the post step, a self-hosted runner's next job). Idempotent:
 * every part tolerates what is already gone. Only our own sockets are touched, never the default tmux server.
 */
export async function cleanupRun(o: {
  runDir?: string;
  worktree?: string;
  log: Logger;
  tmuxPath?: string;
}): Promise<void> {
  const tmux = o.tmuxPath ?? 'tmux';
  if (o.runDir) {
    const sockets = await readFile(join(o.runDir, SOCKETS_FILE), 'utf8').catch(() => '');
    for (const socket of sockets.split('\n').filter((s) => /^gemini-run-[A-Za-z0-9_-]+$/.test(s))) {
      const panes = await exec(tmux, ['-L', socket, 'list-panes', '-a', '-F', '#{pane_pid}'], {
        allowAllExitCodes: true,
      }).catch(() => undefined);
      if (!panes || panes.exitCode !== 0) continue;
      for (const pid of panes.stdout
        .split('\n')
        .map(Number)
        .filter((n) => n > 1)) {
        // The pane's process group: gemini in a dialog survives its tmux server otherwise.
        if (!killProcessGroup(pid, 'SIGKILL')) signalProcess(pid, 'SIGKILL');
      }
      await exec(tmux, ['-L', socket, 'kill-server'], { allowAllExitCodes: true }).catch(() => undefined);
      o.log.info(`Stopped tmux server ${socket}`);
    }
    await rm(o.runDir, { recursive: true, force: true });
  }
  if (o.worktree) await removeContextFile(o.worktree).catch(() => undefined);
}
