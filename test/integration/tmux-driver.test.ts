import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { TitleEdges, titleHookCommand } from '../../src/run/title-edge.js';
import { UserError } from '../../src/util/errors.js';
import {
  TmuxDriver,
  renderPaneScript,
  shQuote,
  tmuxServerAlive,
  type PaneCommand,
} from '../../src/tmux/tmux.js';
import { descendantsOf, isProcessAlive, processStartTime } from '../../src/util/process.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor<T>(fn: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

describe('pane script (pure)', () => {
  it('quotes every word and clears the environment', () => {
    const script = renderPaneScript(
      { command: '/bin/echo', args: [`it's`, '$HOME', 'a;b'], env: { A: `x'y` }, cwd: '/tmp/x y' },
      '/run/pane.exit',
    );
    expect(script).toContain(`cd '/tmp/x y'`);
    expect(script).toContain(
      `env -i 'A=x'\\''y' 'TERM=screen-256color' '/bin/echo' 'it'\\''s' '$HOME' 'a;b'`,
    );
    expect(script).toContain(`mv '/run/pane.exit.tmp' '/run/pane.exit'`);
  });
  it('starts the program through the run-as prefix, with the environment still cleared', () => {
    const script = renderPaneScript(
      {
        command: '/bin/echo',
        args: ['hi'],
        env: { A: '1' },
        cwd: '/w',
        runAs: ['sudo', '-n', '-u', 'gemini-agent-1', '--'],
      },
      '/run/pane.exit',
    );
    expect(script).toContain(`'sudo' '-n' '-u' 'gemini-agent-1' '--' env -i 'A=1'`);
  });
  it('rejects an environment name the shell cannot carry', () => {
    expect(() => renderPaneScript({ command: 'x', args: [], env: { 'A B': '1' }, cwd: '/' }, '/e')).toThrow(
      /invalid environment variable name/,
    );
  });
  it('shQuote round-trips through sh', () => {
    expect(shQuote(`a'b`)).toBe(`'a'\\''b'`);
  });
  it('finds descendants in ps output', () => {
    const ps = ' 1 0\n 10 1\n 11 10\n 12 11\n 13 1\n 14 12\n';
    expect(descendantsOf(10, ps)).toEqual([10, 11, 12, 14]);
    // A dead root still leads to its orphans-to-be that ps lists under it.
    expect(descendantsOf(99, ' 100 99\n')).toEqual([100]);
  });
});

describe('TmuxDriver (real tmux)', () => {
  let n = 0;

  /** A temp dir removed when the test finishes (after the drivers in it stop: finish hooks run last-in first). */
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'tmux-drv-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  async function start(
    pane: Partial<PaneCommand> & { command: string; args: string[] },
  ): Promise<TmuxDriver> {
    const dir = await tempDir();
    const d = await TmuxDriver.create({
      id: `t${process.pid}-${Date.now()}-${n++}`,
      runDir: dir,
      pane: { env: {}, cwd: dir, ...pane },
      enterDelayMs: 50,
    });
    onTestFinished(async () => {
      await d.stop();
    });
    return d;
  }

  it("records a hostile window title as text: the title hook's shell never runs what the program put there", async () => {
    const dir = await tempDir();
    const file = join(dir, 'titles');
    const pwned = join(dir, 'pwned');
    const hostile = [
      `$(touch ${pwned})`,
      `\`touch ${pwned}\``,
      `x'; touch ${pwned}; echo '`,
      `x"; touch ${pwned}; echo "`,
      '-n',
    ];
    const script = [
      ...hostile.map((t) => `printf '\\033]0;%s\\007' ${shQuote(t)}; sleep 0.2`),
      "printf '\\033]0;%s\\007' '◇  Ready (repo)'",
      'sleep 30',
    ].join('; ');
    const d = await TmuxDriver.create({
      id: `t${process.pid}-${Date.now()}-${n++}`,
      runDir: dir,
      pane: { command: '/bin/sh', args: ['-c', script], env: { PATH: '/usr/bin:/bin' }, cwd: dir },
      setup: [titleHookCommand(file)],
    });
    onTestFinished(async () => {
      await d.stop();
    });
    const edges = new TitleEdges();
    await vi.waitFor(
      async () => {
        const text = await readFile(file, 'utf8').catch(() => '');
        expect(text).toContain('Ready');
      },
      { timeout: 10_000, interval: 50 },
    );
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    for (const l of lines) edges.line(l);
    expect(lines.map((l) => l.slice('t:'.length))).toEqual(
      expect.arrayContaining([...hostile, '◇  Ready (repo)']),
    );
    expect(edges.idle).toBe(true);
    await expect(stat(pwned)).rejects.toThrow();
  });

  it('a missing tmux is a one-line user error', async () => {
    const dir = await tempDir();
    const p = TmuxDriver.create({
      id: 'missing',
      runDir: dir,
      pane: { command: 'true', args: [], env: {}, cwd: dir },
      tmuxPath: join(dir, 'no-tmux'),
    });
    await expect(p).rejects.toBeInstanceOf(UserError);
    await expect(p).rejects.toThrow(/tmux not found/);
  });

  it('types literal text with quotes and semicolons, then Enter', async () => {
    const d = await start({ command: 'cat', args: [] });
    const text = `echo "a b"; it's $HOME \\n Enter C-c`;
    await d.typeText(text);
    const lines = await waitFor(async () => {
      const l = await d.capture();
      // cat echoes the typed line (tty echo) and then prints it after Enter: two copies.
      return l.filter((x) => x === text).length === 2 ? l : undefined;
    });
    expect(lines.filter((x) => x === text)).toHaveLength(2);
    expect((await d.paneState()).dead).toBe(false);
  });

  it('passes exactly the given environment', async () => {
    const d = await start({
      command: 'sh',
      args: ['-c', 'sleep 0.2; echo "V=$V H=${HOME:-none} T=$TERM"; exit 0'],
      env: { V: 'x y' },
    });
    const st = await waitFor(async () => {
      const s = await d.paneState();
      return s.dead ? s : undefined;
    });
    expect(st.exitCode).toBe(0);
    // With scrollback: tmux 3.3 may scroll a dead pane's first line away when it prints its notice.
    expect(await d.capture(100)).toContain('V=x y H=none T=screen-256color');
  });

  it('reads exit codes 0 and 3 from the wrapper, even for an instant exit', async () => {
    const ok = await start({ command: 'true', args: [] });
    const bad = await start({ command: 'sh', args: ['-c', 'exit 3'] });
    for (const [d, code] of [
      [ok, 0],
      [bad, 3],
    ] as const) {
      const st = await waitFor(async () => {
        const s = await d.paneState();
        return s.dead && s.exitCode !== null ? s : undefined;
      });
      expect(st.exitCode).toBe(code);
    }
  });

  it('reports a program killed by a signal', async () => {
    const d = await start({ command: 'sleep', args: ['30'] });
    // The sleep itself: the pane's sh briefly has other children (the script's `rm -f "$0"`).
    const sleeper = await waitFor(async () => {
      for (const pid of await d.panePids()) {
        const name = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
        if (name.trim() === 'sleep') return pid;
      }
      return undefined;
    });
    process.kill(sleeper, 'SIGKILL');
    const st = await waitFor(async () => {
      const s = await d.paneState();
      return s.dead ? s : undefined;
    });
    expect(st.exitCode).toBe(137);
  });

  it('sends a single Escape', async () => {
    // od shows the raw bytes the program received: one ESC (033), nothing more.
    const d = await start({
      command: 'sh',
      args: ['-c', 'stty raw -echo; echo raw-mode; head -c 1 | od -c; sleep 5'],
    });
    // The key must arrive after stty, or the line discipline eats it.
    await waitFor(async () => ((await d.capture()).some((l) => l.includes('raw-mode')) ? true : undefined));
    await d.sendEscape();
    const lines = await waitFor(async () => {
      const l = await d.capture();
      return l.some((x) => x.includes('033')) ? l : undefined;
    });
    expect(lines.join('\n')).toMatch(/0000000 +033/);
  });

  it('the pane script (it holds the environment) is gone while the program still runs', async () => {
    const d = await start({
      command: 'sh',
      args: ['-c', 'echo started; sleep 5'],
      env: { SECRET_KEY: 'k-123' },
    });
    await waitFor(async () => ((await d.capture()).some((l) => l.includes('started')) ? true : undefined));
    expect((await d.paneState()).dead).toBe(false);
    await expect(stat(join(d.exitFile, '..', 'pane.sh'))).rejects.toThrow();
  });

  it('stop kills the whole tree, the server and the script, and is idempotent', async () => {
    // A grandchild in its own session, as a tool started by the agent might be.
    const d = await start({ command: 'sh', args: ['-c', 'setsid sleep 60 & sleep 60'] });
    // Both sleeps, however slowly a loaded machine forks them.
    const pids = await waitFor(async () => {
      const p = await d.panePids();
      const names = await Promise.all(p.map((pid) => readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')));
      return names.filter((n) => n.trim() === 'sleep').length === 2 ? p : undefined;
    });
    expect(await tmuxServerAlive(d.socket)).toBe(true);
    // The socket is on record for the post step's cleanup (src/tmux/cleanup.ts).
    expect(await readFile(join(d.exitFile, '..', 'tmux-sockets'), 'utf8')).toBe(`${d.socket}\n`);
    const report = await d.stop();
    expect(report.survivors).toEqual([]);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    expect(await tmuxServerAlive(d.socket)).toBe(false);
    await expect(stat(join(d.exitFile, '..', 'pane.sh'))).rejects.toThrow();
    // No stale socket file either.
    const socketDir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);
    expect(await readdir(socketDir).catch(() => [])).not.toContain(d.socket);
    expect((await d.stop()).survivors).toEqual([]);
    expect((await d.paneState()).dead).toBe(true);
  });

  it('a signalled owner process takes its tmux server and pane processes with it', async () => {
    const dir = await tempDir();
    const script = join(dir, 'owner.mts');
    const tmuxModule = join(import.meta.dirname, '..', '..', 'src', 'tmux', 'tmux.ts');
    await writeFile(
      script,
      [
        `import { TmuxDriver } from ${JSON.stringify(tmuxModule)};`,
        `const d = await TmuxDriver.create({ id: 'owner-${process.pid}-${Date.now()}', runDir: ${JSON.stringify(dir)},`,
        `  pane: { command: 'sleep', args: ['60'], env: {}, cwd: ${JSON.stringify(dir)} } });`,
        // Wait for the pane's tree (sh → sleep) to exist; a loaded machine forks slowly.
        `let pids = await d.panePids();`,
        `for (let i = 0; i < 100 && pids.length < 2; i++) { await new Promise((r) => setTimeout(r, 50)); pids = await d.panePids(); }`,
        `console.log(JSON.stringify({ socket: d.socket, pids }));`,
        `setInterval(() => undefined, 1000);`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const info = await new Promise<{ socket: string; pids: number[] }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0] as string));
      });
      child.once('exit', () => reject(new Error(`owner exited early: ${out}`)));
    });
    expect(info.pids.length).toBeGreaterThanOrEqual(2);
    expect(await tmuxServerAlive(info.socket)).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_c, sig) => resolve(sig)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(await tmuxServerAlive(info.socket)).toBe(false);
    // Signalled on the way out; a killed process lingers until its new parent reaps it.
    await waitFor(() => Promise.resolve(info.pids.some((pid) => isProcessAlive(pid)) ? undefined : true));
  });
});

describe('processStartTime', () => {
  it('names a live process for good and nothing for a gone one', () => {
    const mine = processStartTime(process.pid);
    expect(mine).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(mine);
    expect(processStartTime(2 ** 22 + 1)).toBeUndefined();
  });
});
