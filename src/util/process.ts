/**
 * Processes of our own: signalling them and their groups, telling a live one from a reused pid, and making sure a
 * cancelled job leaves nothing behind. Every kill in the project goes through here.
 */
import { readFileSync } from 'node:fs';

/** Sends a signal; false when the process (or group, for a negative pid) is gone or not ours to signal. */
export function signalProcess(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Signals the process group a leader's pid names (a child spawned `detached`, a tmux pane's program): the
 * program and everything it started that stayed in its group. False when there is no such group.
 */
export function killProcessGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): boolean {
  if (!pid || pid <= 1) return false;
  return signalProcess(-pid, signal);
}

/** Alive and not a zombie (containers whose init does not reap leave zombies around forever). */
export function isProcessAlive(pid: number): boolean {
  // A zombie is dead for our purposes: it holds no connection and runs nothing; its parent just has not reaped it.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    // no /proc (macOS) or already gone: ask the kernel
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but is not ours — still alive.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A process's start time (clock ticks since boot, /proc/<pid>/stat field 22): with the pid it names one process
 * for good. pid_max is 32768 here and a long test suite wraps it, so a bare remembered pid may by now belong to
 * someone else's process — another run's gemini. Undefined when the process is gone (or there is no /proc).
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Parses `ps -A -o pid=,ppid=` into the descendants of root (root included when alive). Exported for tests. */
export function descendantsOf(root: number, psOutput: string): number[] {
  const children = new Map<number, number[]>();
  const alive = new Set<number>();
  for (const line of psOutput.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    const ppid = Number(m[2]);
    alive.add(pid);
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = alive.has(root) ? [root] : [];
  if (!alive.has(root)) queue.push(...(children.get(root) ?? []));
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

const FATAL_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The cleanups of every live run in this process, behind one listener per event (many runs, no listener leak). */
const exitCleanups = new Set<() => void>();

function runExitCleanups(): void {
  for (const cleanup of [...exitCleanups]) {
    exitCleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // best effort: the process is going away
    }
  }
}

function onFatalSignal(signal: NodeJS.Signals): void {
  runExitCleanups();
  uninstallExitListeners();
  // Re-raise so the process ends the way it would have without us, unless someone else handles the signal.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function installExitListeners(): void {
  process.on('exit', runExitCleanups);
  for (const s of FATAL_SIGNALS) process.on(s, onFatalSignal);
}

function uninstallExitListeners(): void {
  process.removeListener('exit', runExitCleanups);
  for (const s of FATAL_SIGNALS) process.removeListener(s, onFatalSignal);
}

/**
 * Runs `cleanup` (synchronous) if this process exits or is signalled before the returned release function is
 * called: a cancelled job must not leave a gemini behind.
 */
export function guardProcessExit(cleanup: () => void): () => void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    cleanup();
  };
  if (exitCleanups.size === 0) installExitListeners();
  exitCleanups.add(once);
  return () => {
    done = true;
    exitCleanups.delete(once);
    if (exitCleanups.size === 0) uninstallExitListeners();
  };
}
