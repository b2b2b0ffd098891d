import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { appendFile, chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';
import { exec, type ExecResult } from '../util/exec.js';
import {
  descendantsOf,
  guardProcessExit,
  isProcessAlive,
  killProcessGroup,
  processStartTime,
  signalProcess,
} from '../util/process.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** File in a run dir listing the tmux sockets the run started, one per line; the post step's cleanup reads it. */
export const SOCKETS_FILE = 'tmux-sockets';

/** What runs in the pane. Structurally the adapter's SpawnSpec, so the driver does not depend on the adapter. */
export interface PaneCommand {
  command: string;
  args: string[];
  /** The complete environment of the program; nothing is inherited from the tmux server or from us. */
  env: Record<string, string>;
  cwd: string;
  /** Argv prefix that starts the program as another user (the agent's); the pane's shell stays ours. */
  runAs?: string[];
}

export interface PaneState {
  /** The program (and its wrapper) has exited, or the server is gone. */
  dead: boolean;
  /** The pane's wrapper shell: its pid is also the pane's process group and session id. */
  pid?: number;
  /** From the wrapper's exit file: tmux's #{pane_dead_status} is empty after a clean exit (live, tmux 3.3a). */
  exitCode: number | null;
  /** The signal that killed the wrapper itself, when tmux saw one. */
  signal?: number;
}

export interface StopReport {
  /** Pids of the run that were still alive after the stop (should be empty). */
  survivors: number[];
}

/**
 * The only way the project talks to a terminal program. Deliberately small: typing literal text + Enter and a
 * single Escape are the only inputs; there is no Ctrl-C and no double Escape (both do destructive things in
 * the Gemini TUI).
 */
export interface TmuxDriver {
  readonly socket: string;
  readonly exitFile: string;
  /** Types text literally, waits for the TUI to take it in, then presses Enter. */
  typeText(text: string): Promise<void>;
  /** Exactly one Escape key press. */
  sendEscape(): Promise<void>;
  /** The visible screen (plus `lines` of scrollback when given), trailing blank lines dropped. */
  capture(lines?: number): Promise<string[]>;
  paneState(): Promise<PaneState>;
  /** The pane's process and all its live descendants. */
  panePids(): Promise<number[]>;
  /** Signals the pane's process group and every descendant found (tools may start their own sessions). */
  killPane(signal?: NodeJS.Signals): Promise<void>;
  /** Kills the pane's processes, then the server, then checks nothing is left. Idempotent. */
  stop(): Promise<StopReport>;
  /** The same, synchronously and without verification: for process exit and signal handlers only. */
  stopSync(): void;
}

export interface TmuxCreateOptions {
  /** Unique per run; the socket is `gemini-run-<id>`. */
  id: string;
  /** Where the pane script and the exit-code file live (the run's private directory). */
  runDir: string;
  pane: PaneCommand;
  width?: number;
  height?: number;
  tmuxPath?: string;
  /** Pause between the literal text and Enter; the CLI drops an Enter that arrives with the text (live). */
  enterDelayMs?: number;
  /** More server commands (hooks) for the start-up invocation, so they are in place before the program runs. */
  setup?: string[][];
}

const PANE_TERM = 'screen-256color';

/** Quotes one word for a POSIX shell. */
export function shQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The pane's script: `env -i` gives the program exactly the spec's environment, and the exit code lands in a
 * file because tmux does not report it after a clean exit. Kept in a 0700 file instead of tmux's argv so that
 * environment values (an API key) never appear in a `ps` listing of the tmux client. Exported for tests.
 */
export function renderPaneScript(pane: PaneCommand, exitFile: string): string {
  const env = { ...pane.env, TERM: PANE_TERM };
  const assignments = Object.entries(env).map(([key, value]) => {
    if (!ENV_NAME.test(key)) throw new Error(`invalid environment variable name: ${key}`);
    return shQuote(`${key}=${value}`);
  });
  const prefix = [...(pane.runAs ?? []).map(shQuote), 'env', '-i'];
  const argv = [pane.command, ...pane.args].map(shQuote);
  return [
    '#!/bin/sh',
    '# Written by gemini-run for one run. It removes itself at once: it holds the environment (an API key), and',
    '# sh keeps reading the open file.',
    'rm -f "$0"',
    `cd ${shQuote(pane.cwd)} || { echo 127 > ${shQuote(exitFile)}; exit 127; }`,
    [...prefix, ...assignments, ...argv].join(' '),
    'code=$?',
    `echo "$code" > ${shQuote(`${exitFile}.tmp`)} && mv ${shQuote(`${exitFile}.tmp`)} ${shQuote(exitFile)}`,
    'exit "$code"',
    '',
  ].join('\n');
}

/** What a started server hands its driver. */
interface DriverParts {
  tmuxPath: string;
  socket: string;
  paneId: string;
  panePid: number | undefined;
  scriptFile: string;
  exitFile: string;
  env: NodeJS.ProcessEnv;
  enterDelayMs: number;
  socketPath: string;
}

class TmuxDriverImpl implements TmuxDriver {
  readonly socket: string;
  readonly exitFile: string;
  private stopped = false;
  private readonly releaseGuard: () => void;
  /** The processes of this pane we have seen: pid → start time, so a reused pid is never signalled. */
  private readonly known = new Map<number, string | undefined>();

  private readonly tmuxPath: string;
  private readonly paneId: string;
  private readonly panePid: number | undefined;
  private readonly scriptFile: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly enterDelayMs: number;
  /** tmux 3.3 leaves the socket file behind after kill-server; a self-hosted runner would collect them. */
  private readonly socketPath: string;

  constructor(o: DriverParts) {
    this.tmuxPath = o.tmuxPath;
    this.socket = o.socket;
    this.paneId = o.paneId;
    this.panePid = o.panePid;
    this.scriptFile = o.scriptFile;
    this.exitFile = o.exitFile;
    this.env = o.env;
    this.enterDelayMs = o.enterDelayMs;
    this.socketPath = o.socketPath;
    if (this.panePid) this.track(this.panePid);
    this.releaseGuard = guardProcessExit(() => this.stopSync());
  }

  private track(pid: number): void {
    if (!this.known.has(pid)) this.known.set(pid, processStartTime(pid));
  }

  /** Still the very process we saw (not a reuse of its pid by another one), and alive. */
  private isOurs(pid: number): boolean {
    const seen = this.known.get(pid);
    if (seen !== undefined && processStartTime(pid) !== seen) return false;
    return isProcessAlive(pid);
  }

  private ours(): number[] {
    return [...this.known.keys()].filter((pid) => this.isOurs(pid));
  }

  private tmux(args: string[]): Promise<ExecResult> {
    return exec(this.tmuxPath, ['-L', this.socket, ...args], {
      env: this.env,
      allowAllExitCodes: true,
      timeoutMs: 10_000,
    });
  }

  private async tmuxOk(args: string[]): Promise<ExecResult> {
    const r = await this.tmux(args);
    if (r.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${r.stderr.trim()}`);
    return r;
  }

  async typeText(text: string): Promise<void> {
    // -l: literal, so `;`, quotes and key names like "Enter" are typed as characters.
    await this.tmuxOk(['send-keys', '-t', this.paneId, '-l', '--', text]);
    await sleep(this.enterDelayMs);
    await this.tmuxOk(['send-keys', '-t', this.paneId, 'Enter']);
  }

  async sendEscape(): Promise<void> {
    await this.tmuxOk(['send-keys', '-t', this.paneId, 'Escape']);
  }

  async capture(lines?: number): Promise<string[]> {
    const args = ['capture-pane', '-p', '-J', '-t', this.paneId];
    if (lines !== undefined && lines > 0) args.push('-S', `-${lines}`);
    const r = await this.tmux(args);
    if (r.exitCode !== 0) return [];
    const out = r.stdout.split('\n').map((l) => l.replace(/\s+$/, ''));
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return out;
  }

  private async readExitFile(): Promise<number | null> {
    try {
      const text = (await readFile(this.exitFile, 'utf8')).trim();
      return /^\d+$/.test(text) ? Number(text) : null;
    } catch {
      return null;
    }
  }

  async paneState(): Promise<PaneState> {
    const r = await this.tmux([
      'display-message',
      '-p',
      '-t',
      this.paneId,
      '#{pane_dead}|#{pane_pid}|#{pane_dead_status}|#{pane_dead_signal}',
    ]);
    const exitCode = await this.readExitFile();
    if (r.exitCode !== 0) return { dead: true, pid: this.panePid, exitCode };
    const [dead, pid, status, signal] = r.stdout.trim().split('|');
    const state: PaneState = { dead: dead === '1', pid: pid ? Number(pid) : this.panePid, exitCode };
    if (state.exitCode === null && state.dead && status) state.exitCode = Number(status);
    if (signal && state.dead) state.signal = Number(signal);
    return state;
  }

  async panePids(): Promise<number[]> {
    if (!this.panePid || !this.isOurs(this.panePid)) return [];
    const r = await exec('ps', ['-A', '-o', 'pid=,ppid='], { allowAllExitCodes: true, env: this.env });
    const pids = descendantsOf(this.panePid, r.stdout);
    for (const p of pids) this.track(p);
    return pids;
  }

  async killPane(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const pids = await this.panePids();
    // The pane's program is a session leader started by tmux, so its pid is its process group.
    if (this.panePid && this.isOurs(this.panePid)) killProcessGroup(this.panePid, signal);
    for (const pid of pids) if (this.isOurs(pid)) signalProcess(pid, signal);
  }

  stopSync(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.panePid && this.isOurs(this.panePid)) killProcessGroup(this.panePid, 'SIGKILL');
    for (const pid of this.ours()) signalProcess(pid, 'SIGKILL');
    spawnSync(this.tmuxPath, ['-L', this.socket, 'kill-server'], {
      env: this.env,
      stdio: 'ignore',
      timeout: 5000,
    });
    rmSync(this.scriptFile, { force: true });
    rmSync(this.socketPath, { force: true });
    this.releaseGuard();
  }

  async stop(): Promise<StopReport> {
    if (!this.stopped) {
      this.stopped = true;
      this.releaseGuard();
      // Processes first: the server's death does not end a gemini sitting in a dialog (live).
      await this.panePids();
      if (this.ours().length > 0) {
        await this.killPane('SIGTERM');
        for (let i = 0; i < 10 && this.ours().length > 0; i++) await sleep(50);
        await this.killPane('SIGKILL');
        for (const pid of this.ours()) signalProcess(pid, 'SIGKILL');
      }
      await this.tmux(['kill-server']);
      await rm(this.scriptFile, { force: true });
      await rm(this.socketPath, { force: true });
    }
    for (let i = 0; i < 40 && this.ours().length > 0; i++) await sleep(50);
    return { survivors: this.ours() };
  }
}

/** `tmux -V` ("tmux 3.3a"), or undefined when tmux is missing or does not run. */
export async function tmuxVersion(tmuxPath = 'tmux'): Promise<string | undefined> {
  const r = await exec(tmuxPath, ['-V'], { allowAllExitCodes: true, timeoutMs: 10_000 }).catch(
    () => undefined,
  );
  return r?.exitCode === 0 ? r.stdout.trim() : undefined;
}

const SOCKET_PREFIX = 'gemini-run-';

/** The run's own socket: the id's safe characters behind our prefix, never the default server's name. */
function socketName(id: string): string {
  return `${SOCKET_PREFIX}${id.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

/** Whether a name (read back from a run dir) is one socketName makes: the only servers a cleanup may stop. */
export function isRunSocket(name: string): boolean {
  return (
    name.length > SOCKET_PREFIX.length &&
    name.startsWith(SOCKET_PREFIX) &&
    socketName(name.slice(SOCKET_PREFIX.length)) === name
  );
}

/** Environment of the tmux client and server themselves; the pane gets its own through `env -i`. */
function tmuxEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  for (const key of ['HOME', 'TMUX_TMPDIR', 'USER', 'LOGNAME']) {
    const v = process.env[key];
    if (v !== undefined) env[key] = v;
  }
  // UTF-8 so capture-pane keeps the TUI's box and bullet characters.
  env.LANG = 'C.UTF-8';
  return env;
}

/** Starts a tmux server on the run's own socket with the program in its single pane. */
async function createTmuxDriver(o: TmuxCreateOptions): Promise<TmuxDriver> {
  const tmuxPath = o.tmuxPath ?? 'tmux';
  const socket = socketName(o.id);
  const scriptFile = join(o.runDir, 'pane.sh');
  const exitFile = join(o.runDir, 'pane.exit');
  await rm(exitFile, { force: true });
  // Recorded before the server exists, so a post step can stop it even if this process dies right after.
  await appendFile(join(o.runDir, SOCKETS_FILE), `${socket}\n`, { mode: 0o600 });
  await writeFile(scriptFile, renderPaneScript(o.pane, exitFile), { mode: 0o700 });
  await chmod(scriptFile, 0o700);
  const width = String(o.width ?? 220);
  const height = String(o.height ?? 50);
  const env = tmuxEnv();
  // One invocation: the options exist before the pane's program starts, so even an instant exit remains.
  const commands: string[][] = [
    ['start-server'],
    ['set-option', '-g', 'remain-on-exit', 'on'],
    ['set-option', '-g', 'history-limit', '5000'],
    ['set-option', '-g', 'default-terminal', PANE_TERM],
    ['set-option', '-g', 'default-size', `${width}x${height}`],
    ...(o.setup ?? []),
    [
      'new-session',
      '-d',
      '-s',
      'run',
      '-x',
      width,
      '-y',
      height,
      '-P',
      '-F',
      '#{pane_id} #{pane_pid} #{socket_path}',
      'sh',
      scriptFile,
    ],
  ];
  const argv = [
    '-L',
    socket,
    '-f',
    '/dev/null',
    '-u',
    ...commands.flatMap((c, i) => (i === 0 ? c : [';', ...c])),
  ];
  const r = await exec(tmuxPath, argv, { env, allowAllExitCodes: true, timeoutMs: 10_000 }).catch(
    (e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new UserError(`tmux not found (${tmuxPath}): install tmux, or run in headless mode`);
      }
      throw e;
    },
  );
  const m = /^(%\d+) (\d+) (.+)$/.exec(r.stdout.trim());
  if (r.exitCode !== 0 || !m) {
    await exec(tmuxPath, ['-L', socket, 'kill-server'], { env, allowAllExitCodes: true, timeoutMs: 5000 });
    await rm(scriptFile, { force: true });
    throw new Error(`could not start tmux on socket ${socket}: ${r.stderr.trim() || r.stdout.trim()}`);
  }
  return new TmuxDriverImpl({
    tmuxPath,
    socket,
    paneId: m[1] as string,
    panePid: Number(m[2]),
    scriptFile,
    exitFile,
    env,
    enterDelayMs: o.enterDelayMs ?? 300,
    socketPath: m[3] as string,
  });
}

/** Whether a server is listening on the run's socket (for tests and leak checks). */
export async function tmuxServerAlive(socket: string, tmuxPath = 'tmux'): Promise<boolean> {
  const r = await exec(tmuxPath, ['-L', socket, 'list-sessions'], {
    env: tmuxEnv(),
    allowAllExitCodes: true,
    timeoutMs: 5000,
  });
  return r.exitCode === 0;
}

/** The seam: `TmuxDriver.create(...)`; tests may substitute any object implementing the interface. */
export const TmuxDriver = { create: createTmuxDriver };
