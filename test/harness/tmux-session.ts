/**
 * A minimal tmux helper for harness tests only (the product's driver is src/tmux/tmux.ts). Each session runs on
 * its own server (`-L <unique socket>`, `-f /dev/null`), so nothing touches the user's default tmux server.
 */
import { randomUUID } from 'node:crypto';
import { exec } from '../../src/util/exec.js';

export interface TmuxSessionOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The complete environment of the command (passed through `env -i`, so the tmux server's env does not leak in). */
  env: Record<string, string>;
  width?: number;
  height?: number;
}

export class TmuxSession {
  private disposed = false;

  private constructor(
    readonly socket: string,
    readonly panePid: number,
  ) {}

  static async start(o: TmuxSessionOptions): Promise<TmuxSession> {
    const socket = `gr-harness-${randomUUID().slice(0, 8)}`;
    const envArgs = Object.entries(o.env).map(([k, v]) => `${k}=${v}`);
    await tmux(socket, [
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(o.width ?? 200),
      '-y',
      String(o.height ?? 50),
      '-c',
      o.cwd,
      'env',
      '-i',
      ...envArgs,
      o.command,
      ...o.args,
    ]);
    // Keep the pane after the command exits so its last screen can still be captured.
    await tmux(socket, ['set-option', '-t', 'main', 'remain-on-exit', 'on']);
    const pid = Number((await tmux(socket, ['display-message', '-p', '-t', 'main', '#{pane_pid}'])).trim());
    return new TmuxSession(socket, pid);
  }

  async capture(): Promise<string> {
    return tmux(this.socket, ['capture-pane', '-p', '-t', 'main']);
  }

  /** Types `text` literally, waits for the TUI to take it, then presses Enter. */
  async sendLine(text: string, settleMs = 300): Promise<void> {
    await tmux(this.socket, ['send-keys', '-t', 'main', '-l', text]);
    await new Promise((r) => setTimeout(r, settleMs));
    await tmux(this.socket, ['send-keys', '-t', 'main', 'Enter']);
  }

  /** Sends named keys (e.g. `Escape`, `Enter`), not literal text. */
  async sendKeys(...keys: string[]): Promise<void> {
    await tmux(this.socket, ['send-keys', '-t', 'main', ...keys]);
  }

  /**
   * Pastes `text` as a bracketed paste, waits, then presses Enter. Use this for text with `?`: typed literally
   * (send-keys -l), 0.42.0's prompt swallows every `?` as the shortcuts-help toggle (observed live).
   */
  async pasteLine(text: string, settleMs = 300): Promise<void> {
    const buffer = `gr-${randomUUID().slice(0, 8)}`;
    await tmux(this.socket, ['set-buffer', '-b', buffer, text]);
    await tmux(this.socket, ['paste-buffer', '-p', '-d', '-b', buffer, '-t', 'main']);
    await new Promise((r) => setTimeout(r, settleMs));
    await tmux(this.socket, ['send-keys', '-t', 'main', 'Enter']);
  }

  async isDead(): Promise<boolean> {
    const r = await exec('tmux', ['-L', this.socket, 'display-message', '-p', '-t', 'main', '#{pane_dead}'], {
      allowAllExitCodes: true,
    });
    return r.exitCode !== 0 || r.stdout.trim() === '1';
  }

  /** Polls until `pred(screen)` holds; returns the screen. Throws with the last screen on timeout. */
  async waitForScreen(pred: (screen: string) => boolean, timeoutMs: number): Promise<string> {
    const end = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < end) {
      screen = await this.capture();
      if (pred(screen)) return screen;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`tmux: screen condition not met in ${timeoutMs} ms; last screen:\n${screen}`);
  }

  async waitForExit(timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (await this.isDead()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`tmux: pane still alive after ${timeoutMs} ms`);
  }

  /**
   * Kills the pane's process group (a tmux server kill alone leaves gemini's node processes alive), then the
   * server, then checks that no process of the group is left.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    killGroup(this.panePid, 'SIGTERM');
    await waitGroupGone(this.panePid, 2000);
    killGroup(this.panePid, 'SIGKILL');
    await exec('tmux', ['-L', this.socket, 'kill-server'], { allowAllExitCodes: true });
    if (!(await waitGroupGone(this.panePid, 3000))) {
      throw new Error(`tmux: processes of group ${this.panePid} survived the disposer`);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

async function tmux(socket: string, args: readonly string[]): Promise<string> {
  return (await exec('tmux', ['-L', socket, '-f', '/dev/null', ...args])).stdout;
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!groupAlive(pgid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !groupAlive(pgid);
}
