import { spawn } from 'node:child_process';
import { killProcessGroup } from './process.js';

export interface ExecOptions {
  cwd?: string;
  /** The complete environment of the child. Never defaulted to process.env implicitly by callers that isolate. */
  env?: NodeJS.ProcessEnv;
  /** Text (or bytes) written to stdin, then stdin is closed. */
  input?: string | Buffer;
  /** Do not throw on a non-zero exit. */
  allowAllExitCodes?: boolean;
  /** Kill the child (SIGKILL to its process group) after this many ms. */
  timeoutMs?: number;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout as the bytes the child wrote, for output that need not be UTF-8 (raw git objects). */
  stdoutBytes?: Buffer;
}

class ExecError extends Error {
  override readonly name = 'ExecError';
  constructor(
    readonly command: string,
    readonly result: ExecResult,
  ) {
    const detail = result.stderr.trim().split('\n').slice(-3).join(' | ');
    super(`${command} exited ${result.exitCode}${detail ? `: ${detail}` : ''}`);
  }
}

/**
 * The one exec wrapper every subprocess goes through (git, tmux, npm, gemini probes). It never goes through a
 * shell, forces a non-interactive, C-locale environment for tools whose output we parse, and returns exit code
 * and output instead of streaming them into the log.
 */
export function exec(file: string, args: readonly string[], opts: ExecOptions = {}): Promise<ExecResult> {
  const env = {
    ...(opts.env ?? process.env),
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'Never',
    LC_ALL: 'C',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: opts.timeoutMs !== undefined,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let timer: NodeJS.Timeout | undefined;
    if (opts.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        if (!killProcessGroup(child.pid, 'SIGKILL')) child.kill('SIGKILL');
      }, opts.timeoutMs);
    }
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      const result: ExecResult = {
        exitCode: code ?? (signal ? 128 + signalNumber(signal) : 1),
        stdout: stdoutBytes.toString('utf8'),
        stdoutBytes,
        stderr: Buffer.concat(err).toString('utf8'),
      };
      if (result.exitCode !== 0 && !opts.allowAllExitCodes) {
        reject(new ExecError([file, ...args.slice(0, 2)].join(' '), result));
      } else {
        resolve(result);
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return table[signal] ?? 0;
}
