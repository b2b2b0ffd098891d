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
/** What the live runs opened on the host and must close on a signal (chains, ACLs, claims), newest last. */
const signalTeardowns = new Set<() => Promise<void>>();
/**
 * How long a signal's teardowns may take before the process ends anyway: a cancelled GitHub job gets SIGINT, then
 * SIGTERM 7.5 s later, then SIGKILL 2.5 s after that.
 */
const TEARDOWN_BOUND_MS = 7_000;
let tearingDown = false;
/** The first fatal signal this process got: it is ending, so a change to the host makes no further step. */
let signalled: NodeJS.Signals | undefined;
/** Said when a signal starts a teardown (the CLI prints a line: a Ctrl-C that goes quiet looks like a hang). */
let notice: ((signal: NodeJS.Signals, teardowns: number) => void) | undefined;

/** Sets what is said when a signal arrives while a run is live (one per process: the entry point's). */
export function onSignalTeardown(say: (signal: NodeJS.Signals, teardowns: number) => void): void {
  notice = say;
}

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

/**
 * Newest first, each on its own (one that fails does not keep the others), all within the bound. A run's code goes
 * on while they run and may open something more (a claim taken a moment before the signal, guarded a moment
 * after): those are torn down too, until none is left.
 */
async function runSignalTeardowns(): Promise<void> {
  const each = (async () => {
    while (signalTeardowns.size > 0) {
      const all = [...signalTeardowns].reverse();
      signalTeardowns.clear();
      for (const teardown of all) await teardown().catch(() => undefined);
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, TEARDOWN_BOUND_MS)));
  await Promise.race([each, bound]);
  clearTimeout(timer);
}

function onFatalSignal(signal: NodeJS.Signals): void {
  // A second signal while the first one's teardown runs (GitHub's SIGTERM after its SIGINT): it is bounded, and
  // ending now would leave half of what it removes.
  if (tearingDown) return;
  tearingDown = true;
  signalled ??= signal;
  try {
    notice?.(signal, signalTeardowns.size);
  } catch {
    // saying it is best effort
  }
  runExitCleanups();
  void runSignalTeardowns().finally(() => {
    tearingDown = false;
    uninstallExitListeners();
    // Re-raise so the process ends the way it would have without us, unless someone else handles the signal.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

let listening = false;

function syncListeners(): void {
  const wanted = exitCleanups.size > 0 || signalTeardowns.size > 0;
  if (wanted && !listening) {
    process.on('exit', runExitCleanups);
    for (const s of FATAL_SIGNALS) process.on(s, onFatalSignal);
    listening = true;
  } else if (!wanted && !tearingDown) {
    uninstallExitListeners();
  }
}

function uninstallExitListeners(): void {
  if (!listening) return;
  process.removeListener('exit', runExitCleanups);
  for (const s of FATAL_SIGNALS) process.removeListener(s, onFatalSignal);
  listening = false;
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
  exitCleanups.add(once);
  syncListeners();
  return () => {
    done = true;
    exitCleanups.delete(once);
    syncListeners();
  };
}

/**
 * Runs `teardown` if this process is signalled (SIGINT, SIGTERM, SIGHUP) before the returned release function is
 * called, after the synchronous cleanups (the agent's processes are gone by then) and before the process ends:
 * what a run changed on the host — an iptables chain, ACL entries, a claim, a user, a directory — is removed
 * rather than left for the next run or `gemini-run doctor`. Teardowns run newest first, bounded in all.
 */
export function guardSignalTeardown(teardown: () => Promise<void>): () => void {
  let done = false;
  const once = async (): Promise<void> => {
    if (done) return;
    done = true;
    await teardown();
  };
  signalTeardowns.add(once);
  syncListeners();
  return () => {
    done = true;
    signalTeardowns.delete(once);
    syncListeners();
  };
}

/** Thrown by a change to the host that a signal stopped: the process is ending and undoes what was made. */
class StoppedBySignal extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
    this.name = 'StoppedBySignal';
  }
}

/**
 * A change to the host made in steps (a chain's rules, ACL entries on directories), undone by `undo` if a signal
 * arrives. Undoing while the steps go on would leave the later ones behind, and the process ends right after its
 * teardowns: so once a signal came `step()` throws StoppedBySignal (`make` calls it before each step), and the
 * teardown waits for the step in flight before it undoes. A change begun after the signal makes no step.
 * `unguard` ends the guard (the change is undone by its owner, or kept).
 */
export function guardHostChange<T>(
  make: (step: () => void) => Promise<T>,
  undo: () => Promise<void>,
): { made: Promise<T>; unguard: () => void } {
  // The teardown cannot run before `made` is set: a signal is handled on a later turn of the event loop.
  const unguard = guardSignalTeardown(async () => {
    await made.catch(() => undefined);
    await undo();
  });
  const made = make(() => {
    if (signalled) throw new StoppedBySignal(signalled);
  });
  return { made, unguard };
}
