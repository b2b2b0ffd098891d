import { rm } from 'node:fs/promises';
import { removeContextFile } from '../gemini/context-file.js';
import { stopRecordedServers } from '../tmux/cleanup.js';
import type { Logger } from '../util/log.js';

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
  if (o.runDir) {
    await stopRecordedServers(o.runDir, o.log, o.tmuxPath);
    await rm(o.runDir, { recursive: true, force: true });
  }
  if (o.worktree) await removeContextFile(o.worktree).catch(() => undefined);
}
