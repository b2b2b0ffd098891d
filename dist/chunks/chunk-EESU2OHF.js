import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  SOCKETS_FILE,
  exec,
  isRunSocket,
  killProcessGroup,
  removeContextFile,
  signalProcess
} from "./chunk-4XTRUCB4.js";

// src/run/cleanup.ts
import { rm } from "node:fs/promises";

// src/tmux/cleanup.ts
import { readFile } from "node:fs/promises";
import { join } from "node:path";
async function stopRecordedServers(runDir, log, tmuxPath = "tmux") {
  const sockets = await readFile(join(runDir, SOCKETS_FILE), "utf8").catch(() => "");
  for (const socket of sockets.split("\n").filter(isRunSocket)) {
    const panes = await exec(tmuxPath, ["-L", socket, "list-panes", "-a", "-F", "#{pane_pid}"], {
      allowAllExitCodes: true
    }).catch(() => void 0);
    if (!panes || panes.exitCode !== 0) continue;
    for (const pid of panes.stdout.split("\n").map(Number).filter((n) => n > 1)) {
      if (!killProcessGroup(pid, "SIGKILL")) signalProcess(pid, "SIGKILL");
    }
    await exec(tmuxPath, ["-L", socket, "kill-server"], { allowAllExitCodes: true }).catch(() => void 0);
    log.info(`Stopped tmux server ${socket}`);
  }
}

// src/run/cleanup.ts
async function cleanupRun(o) {
  if (o.runDir) {
    await stopRecordedServers(o.runDir, o.log, o.tmuxPath);
    await rm(o.runDir, { recursive: true, force: true });
  }
  if (o.worktree) await removeContextFile(o.worktree).catch(() => void 0);
}

export {
  cleanupRun
};
