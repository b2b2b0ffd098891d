import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { DEFAULT_GEMINI_VERSION, profileFor } from '../gemini/cli-profile.js';
import { OWNED_SETTINGS, RUN_HOME_SETTINGS } from '../gemini/settings.js';
import { TmuxDriver } from '../tmux/tmux.js';
import { signalProcess } from '../util/process.js';
import { exec, type ExecResult } from '../util/exec.js';
import { probeProfile, type ProbeProfile } from './expectations.js';
import { startProbeFake, type ProbeFake, type ProbeStep } from './fake.js';
import { parseOtelEvents, type OtelLogEvent } from './otel.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** The model every probe pins with `-m`, so the CLI's router adds no classifier calls to the fake's log. */
export const PROBE_MODEL = 'gemini-2.5-flash';

export interface ProbeContextOptions {
  /** The gemini executable under test: a `bundle/gemini.js` or anything runnable. */
  gemini: string;
  /** Absolute deadline (ms epoch) of the probe; everything started is bounded by it. */
  deadline: number;
  /** Parent of the probe's temp dir (default: os.tmpdir()). */
  tmpRoot?: string;
  /** Basename of the worktree (the CLI derives its project slug from it). */
  worktreeName?: string;
  /** Whose expectations the probe checks (default: the pinned version's). */
  profile?: ProbeProfile;
}

/** The profile probes expect when their caller names none. */
export const PINNED_PROFILE: ProbeProfile = probeProfile(
  profileFor(DEFAULT_GEMINI_VERSION, { allowUnchecked: false }),
);

export interface Interactive {
  driver: TmuxDriver;
  /** The visible screen plus scrollback, joined. */
  screen(): Promise<string>;
  /** Waits until the screen matches; returns the screen, or undefined at the deadline. */
  waitForScreen(re: RegExp, timeoutMs?: number): Promise<string | undefined>;
  /** Waits until the CLI exited; returns its exit code or undefined at the deadline. */
  waitForExit(timeoutMs?: number): Promise<number | undefined>;
}

/** Expands `a.b.c` keys into nested objects (settings.json is nested in 0.42.0). Pure. */
function expandDotted(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next === 'object' && next !== null && !Array.isArray(next))
        node = next as Record<string, unknown>;
      else node = node[part] = {};
    }
    node[parts[parts.length - 1] as string] = value;
  }
  return out;
}

/**
 * Everything one probe may use: a fresh isolated Gemini home (the product's own settings: auto-update and usage
 * statistics off, API-key auth), a git worktree, a telemetry outfile, a fresh fake Gemini API, and tmux on a
 * socket of its own. `dispose()` stops every process and removes every file the probe made.
 */
export class ProbeContext {
  private readonly fakes: ProbeFake[] = [];
  private readonly drivers: TmuxDriver[] = [];
  private fake?: ProbeFake;
  /** A headless gemini still running at the deadline and killed there: the CLI hung, not a behaviour observed. */
  cutAtDeadline = false;

  private constructor(
    readonly gemini: string,
    readonly deadline: number,
    /** The probe's private temp dir; everything below is inside it. */
    readonly root: string,
    /** GEMINI_CLI_HOME */
    readonly home: string,
    readonly tmpDir: string,
    readonly worktree: string,
    readonly telemetryFile: string,
    /** The checked behaviour the probe compares against. */
    readonly profile: ProbeProfile,
  ) {}

  static async create(o: ProbeContextOptions): Promise<ProbeContext> {
    const root = await realpath(await mkdtemp(join(o.tmpRoot ?? tmpdir(), 'gemini-probe-')));
    const ctx = new ProbeContext(
      o.gemini,
      o.deadline,
      root,
      join(root, 'home'),
      join(root, 'tmp'),
      join(root, 'work', o.worktreeName ?? 'probe-repo'),
      join(root, 'telemetry.log'),
      o.profile ?? PINNED_PROFILE,
    );
    await mkdir(ctx.tmpDir, { recursive: true });
    await ctx.writeHome(ctx.home);
    await ctx.initRepo(ctx.worktree);
    return ctx;
  }

  /** A second isolated home beside the first (for resume across homes). */
  async writeHome(home: string): Promise<string> {
    await mkdir(join(home, '.gemini'), { recursive: true, mode: 0o700 });
    // The product's run-home settings, so the probes check the CLI the way runs use it.
    const settings = expandDotted({ ...OWNED_SETTINGS('api-key'), ...RUN_HOME_SETTINGS });
    await writeFile(join(home, '.gemini', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    return home;
  }

  async initRepo(dir: string): Promise<string> {
    await mkdir(dir, { recursive: true });
    await this.git(dir, ['init', '-q', '-b', 'main']);
    await this.git(dir, ['config', 'gc.auto', '0']);
    await writeFile(join(dir, 'README.md'), '# probe\n');
    await this.git(dir, ['add', '-A']);
    await this.git(dir, ['commit', '-q', '-m', 'initial']);
    return dir;
  }

  /** Runs git with a scrubbed environment and a fixed identity. */
  git(cwd: string, args: string[]): Promise<ExecResult> {
    return exec('git', args, { cwd, env: this.gitEnv(), timeoutMs: 15_000 });
  }

  private gitEnv(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      GIT_CONFIG_NOSYSTEM: '1',
      // As the product passes it: the run home's redaction strips GIT_AUTHOR_* from the agent's shell.
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'Probe Author',
      GIT_CONFIG_KEY_1: 'user.email',
      GIT_CONFIG_VALUE_1: 'probe@example.invalid',
    };
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** Starts this probe's fake Gemini API (one per probe; a second call replaces the script on a new server). */
  async startFake(steps: ProbeStep[]): Promise<ProbeFake> {
    const fake = await startProbeFake(steps);
    this.fakes.push(fake);
    this.fake = fake;
    return fake;
  }

  /**
   * The allow-listed environment of gemini (nothing from ours but PATH): isolated home and TMPDIR, API-key
   * auth against the fake, local-file telemetry with a 50 ms batch delay, and never CI or GITHUB_ACTIONS
   * (they force headless mode). `extra` entries set to undefined are removed.
   */
  env(extra: Record<string, string | undefined> = {}, home = this.home): Record<string, string> {
    const env: Record<string, string | undefined> = {
      ...this.gitEnv(),
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: home,
      GEMINI_CLI_HOME: home,
      TMPDIR: this.tmpDir,
      LANG: 'C.UTF-8',
      GEMINI_API_KEY: 'probe-fake-key',
      GOOGLE_GEMINI_BASE_URL: this.fake?.url,
      // Halves start-up time on a 2-core machine; the relaunch only raises the heap limit.
      GEMINI_CLI_NO_RELAUNCH: 'true',
      GEMINI_TELEMETRY_ENABLED: 'true',
      GEMINI_TELEMETRY_TARGET: 'local',
      GEMINI_TELEMETRY_OUTFILE: this.telemetryFile,
      GEMINI_TELEMETRY_LOG_PROMPTS: 'false',
      OTEL_BLRP_SCHEDULE_DELAY: '50',
      ...extra,
    };
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
    return out;
  }

  /** How to start the binary under test: a `.js` bundle runs under this node. */
  command(args: string[]): { command: string; args: string[] } {
    return this.gemini.endsWith('.js')
      ? { command: process.execPath, args: [this.gemini, ...args] }
      : { command: this.gemini, args };
  }

  /** Runs gemini with pipes (so headless), bounded by the probe's deadline. */
  async headless(
    args: string[],
    o: { env?: Record<string, string | undefined>; cwd?: string; input?: string; home?: string } = {},
  ): Promise<ExecResult & { durationMs: number }> {
    const { command, args: argv } = this.command(args);
    const started = Date.now();
    const res = await exec(command, argv, {
      cwd: o.cwd ?? this.worktree,
      env: this.env(o.env, o.home),
      input: o.input ?? '',
      allowAllExitCodes: true,
      timeoutMs: Math.max(1000, this.remainingMs()),
    });
    if (res.exitCode === 137 && this.remainingMs() === 0) this.cutAtDeadline = true;
    return { ...res, durationMs: Date.now() - started };
  }

  /** Starts gemini in a tmux pane (a real TTY) on a socket of its own. */
  async interactive(
    args: string[],
    o: { env?: Record<string, string | undefined>; cwd?: string } = {},
  ): Promise<Interactive> {
    const { command, args: argv } = this.command(args);
    const runDir = join(this.root, `pane-${this.drivers.length}`);
    await mkdir(runDir, { recursive: true });
    const driver = await TmuxDriver.create({
      id: `probe-${randomUUID().slice(0, 12)}`,
      runDir,
      pane: { command, args: argv, env: this.env(o.env), cwd: o.cwd ?? this.worktree },
      width: 160,
      height: 50,
    });
    this.drivers.push(driver);
    const screen = async () => (await driver.capture(400)).join('\n');
    return {
      driver,
      screen,
      waitForScreen: async (re, timeoutMs = this.remainingMs()) => {
        const until = Math.min(this.deadline, Date.now() + timeoutMs);
        for (;;) {
          const s = await screen();
          if (re.test(s)) return s;
          if (Date.now() >= until) return undefined;
          await sleep(150);
        }
      },
      waitForExit: async (timeoutMs = this.remainingMs()) => {
        const until = Math.min(this.deadline, Date.now() + timeoutMs);
        for (;;) {
          const st = await driver.paneState();
          if (st.dead || st.exitCode !== null) return st.exitCode ?? undefined;
          if (Date.now() >= until) return undefined;
          await sleep(150);
        }
      },
    };
  }

  /** Sends one raw key to a pane. Only the probe suite does this (for Ctrl-C); the product's driver cannot. */
  async sendRawKey(i: Interactive, key: string): Promise<void> {
    await exec('tmux', ['-L', i.driver.socket, 'send-keys', '-t', 'run', key], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '' },
      timeoutMs: 5000,
    });
  }

  async telemetry(): Promise<OtelLogEvent[]> {
    try {
      return parseOtelEvents(await readFile(this.telemetryFile, 'utf8'));
    } catch {
      return [];
    }
  }

  /** Polls the telemetry file until `done(events)` holds; returns the last events read either way. */
  async waitForTelemetry(
    done: (events: OtelLogEvent[]) => boolean,
    timeoutMs = this.remainingMs(),
  ): Promise<OtelLogEvent[]> {
    const until = Math.min(this.deadline, Date.now() + timeoutMs);
    for (;;) {
      const events = await this.telemetry();
      if (done(events) || Date.now() >= until) return events;
      await sleep(100);
    }
  }

  /** `<home>/.gemini/tmp` */
  projectsTmp(home = this.home): string {
    return join(home, '.gemini', 'tmp');
  }

  /** Every session file under the home, as paths relative to `<home>/.gemini/tmp`. */
  async sessionFiles(home = this.home): Promise<string[]> {
    const base = this.projectsTmp(home);
    const out: string[] = [];
    for (const slug of await readdir(base).catch(() => [] as string[])) {
      const chats = join(base, slug, 'chats');
      for (const f of await readdir(chats).catch(() => [] as string[])) {
        if (f.startsWith('session-')) out.push(join(slug, 'chats', f));
      }
    }
    return out.sort();
  }

  async waitFor<T>(
    get: () => Promise<T | undefined>,
    timeoutMs = this.remainingMs(),
  ): Promise<T | undefined> {
    const until = Math.min(this.deadline, Date.now() + timeoutMs);
    for (;;) {
      const v = await get();
      if (v !== undefined || Date.now() >= until) return v;
      await sleep(100);
    }
  }

  worktreeBase(): string {
    return basename(this.worktree);
  }

  /** Stops every pane (processes first) and fake, removes the temp dir. Never throws. */
  async dispose(): Promise<string[]> {
    const problems: string[] = [];
    for (const d of this.drivers) {
      const report = await d.stop().catch(() => ({ survivors: [-1] }));
      if (report.survivors.length > 0)
        problems.push(`pane processes survived: ${report.survivors.join(',')}`);
      // tmux 3.3a leaves the socket file behind after kill-server; do not litter the shared socket dir.
      const uid = process.getuid?.() ?? 0;
      await rm(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${uid}`, d.socket), { force: true }).catch(
        () => undefined,
      );
    }
    // Headless children live outside tmux; after an interrupt nothing else would stop them. Every process a
    // probe starts runs in a directory under root, which is how we find them (Linux /proc; elsewhere a no-op).
    const stray = await processesUnder(this.root);
    for (const pid of stray) {
      signalProcess(pid, 'SIGKILL');
    }
    // SIGKILL is asynchronous: removing the dir while one is still dying lets it recreate files there.
    for (let i = 0; i < 40 && (await processesUnder(this.root)).length > 0; i++) await sleep(50);
    for (const f of this.fakes) await f.close().catch(() => undefined);
    await rm(this.root, { recursive: true, force: true }).catch(() => undefined);
    return problems;
  }
}

/** Pids (other than ours) whose working directory is `dir` or below it. */
async function processesUnder(dir: string): Promise<number[]> {
  const pids = await readdir('/proc').catch(() => [] as string[]);
  const out: number[] = [];
  for (const p of pids) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    const cwd = await readlink(`/proc/${p}/cwd`).catch(() => undefined);
    if (cwd !== undefined && (cwd === dir || cwd.startsWith(`${dir}/`))) out.push(Number(p));
  }
  return out;
}
