/**
 * Stops the tmux servers a run recorded (SOCKETS_FILE) when the run may have died half-way: the post step, a
 * self-hosted runner's next job. Idempotent, and only our own sockets: never the default tmux server.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exec } from '../util/exec.js';
import type { Logger } from '../util/log.js';
import { killProcessGroup, signalProcess } from '../util/process.js';
import { SOCKETS_FILE, isRunSocket } from './tmux.js';

export async function stopRecordedServers(runDir: string, log: Logger, tmuxPath = 'tmux'): Promise<void> {
  const sockets = await readFile(join(runDir, SOCKETS_FILE), 'utf8').catch(() => '');
  for (const socket of sockets.split('\n').filter(isRunSocket)) {
    const panes = await exec(tmuxPath, ['-L', socket, 'list-panes', '-a', '-F', '#{pane_pid}'], {
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
    await exec(tmuxPath, ['-L', socket, 'kill-server'], { allowAllExitCodes: true }).catch(() => undefined);
    log.info(`Stopped tmux server ${socket}`);
  }
}
