/**
 * The docker side of the image test: find a daemon, build the stand-in base (scripts/image/build-base.sh) and the
 * runner image (deploy/runner/Dockerfile) the way a user builds it, and run commands in its containers. Containers
 * use the host's network: the fake GitHub and the fake Gemini API listen on the host's 127.0.0.1, and builds reach
 * the npm registry and the Debian mirror the way the host does.
 */
import { join } from 'node:path';
import { exec, type ExecResult } from '../../src/util/exec.js';
import { ROOT } from '../harness/action-job.js';

export const STAND_IN = 'gemini-run-test/actions-runner:stand-in';
export const IMAGE = 'gemini-run-test/runner:test';

function firstLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).pop() ?? '';
}

/** Throws one line saying what to do when no docker daemon answers; the test must not pass without one. */
export async function requireDocker(): Promise<string> {
  const r = await exec('docker', ['version', '--format', '{{.Server.Version}}'], {
    allowAllExitCodes: true,
    timeoutMs: 20_000,
  }).catch((e: unknown) => ({ exitCode: -1, stdout: '', stderr: String(e) }));
  if (r.exitCode !== 0 || !r.stdout.trim()) {
    throw new Error(
      `The runner-image test needs a docker daemon and none answers (${firstLine(r.stderr) || `exit ${r.exitCode}`}): run .ci/run, or install docker.io and start dockerd as root.`,
    );
  }
  return r.stdout.trim();
}

async function run(file: string, args: string[], what: string, timeoutMs: number): Promise<ExecResult> {
  const r = await exec(file, args, { allowAllExitCodes: true, timeoutMs, cwd: ROOT });
  if (r.exitCode !== 0) {
    throw new Error(`${what} failed (exit ${r.exitCode}): ${firstLine(r.stderr) || firstLine(r.stdout)}`);
  }
  return r;
}

/** The stand-in for ghcr.io/actions/actions-runner; reused while build-base.sh is unchanged. */
export async function ensureStandIn(): Promise<string> {
  const r = await run(
    join(ROOT, 'scripts', 'image', 'build-base.sh'),
    [STAND_IN],
    'Building the stand-in base',
    15 * 60_000,
  );
  return r.stdout.trim();
}

/** `docker build` of deploy/runner/Dockerfile with the build arguments a user passes for the real base. */
export async function buildRunnerImage(buildArgs: Record<string, string>, tag = IMAGE): Promise<void> {
  const args = ['build', '--network', 'host', '-q', '-f', 'deploy/runner/Dockerfile', '-t', tag];
  for (const [k, v] of Object.entries(buildArgs)) args.push('--build-arg', `${k}=${v}`);
  // The classic builder: BuildKit would look the base up in a registry, and none is reachable here.
  await exec('docker', [...args, '.'], {
    cwd: ROOT,
    env: { ...process.env, DOCKER_BUILDKIT: '0' },
    timeoutMs: 15 * 60_000,
  }).catch((e: unknown) => {
    throw new Error(`docker build of deploy/runner/Dockerfile failed: ${(e as Error).message}`);
  });
  // The image an earlier dist/ made, untagged now: without this every changed bundle leaves ~120 MB behind.
  await exec(
    'docker',
    ['image', 'prune', '--force', '--filter', 'label=io.github.gemini-run.gemini-cli-version'],
    { allowAllExitCodes: true, timeoutMs: 120_000 },
  );
}

/** `docker run --rm` of one command in a fresh container of the image. */
export function runInImage(argv: string[], o: { user?: string; image?: string } = {}): Promise<ExecResult> {
  return exec(
    'docker',
    ['run', '--rm', '--network', 'host', ...(o.user ? ['--user', o.user] : []), o.image ?? IMAGE, ...argv],
    { allowAllExitCodes: true, timeoutMs: 5 * 60_000 },
  );
}

/** One long-lived container, as a runner pod is: every step of a job runs in it with `docker exec`. */
export class RunnerContainer implements AsyncDisposable {
  private constructor(readonly id: string) {}

  /**
   * `mounts`: host path → container path (read-only when the target ends in `:ro`); `options`: more `docker run`
   * options (capabilities, as a pod's securityContext sets them; environment names).
   */
  static async start(
    mounts: Record<string, string>,
    options: string[] = [],
    /** Values for `--env NAME` options: they travel in the client's environment, not on its command line. */
    env: Record<string, string> = {},
  ): Promise<RunnerContainer> {
    const volumes = Object.entries(mounts).flatMap(([from, to]) => ['-v', `${from}:${to}`]);
    const args = [
      'run',
      '-d',
      '--init',
      '--network',
      'host',
      ...options,
      ...volumes,
      IMAGE,
      'sleep',
      'infinity',
    ];
    const r = await exec('docker', args, {
      allowAllExitCodes: true,
      timeoutMs: 60_000,
      env: { ...process.env, ...env },
    });
    if (r.exitCode !== 0) {
      throw new Error(`Starting a runner container failed: ${firstLine(r.stderr) || `exit ${r.exitCode}`}`);
    }
    return new RunnerContainer(r.stdout.trim());
  }

  exec(argv: string[], o: { user?: string } = {}): Promise<ExecResult> {
    return exec('docker', ['exec', '--user', o.user ?? 'runner', this.id, ...argv], {
      allowAllExitCodes: true,
      timeoutMs: 60_000,
    });
  }

  /** The container's root filesystem as the host sees it: read there, nothing inside can hide or deny a file. */
  async rootfs(): Promise<string> {
    const r = await run(
      'docker',
      ['inspect', '--format', '{{.GraphDriver.Data.MergedDir}}', this.id],
      'Finding the container filesystem',
      30_000,
    );
    return r.stdout.trim();
  }

  /**
   * The argv that runs `argv` in this container as `runner` with exactly the names of `env` (their values travel
   * in the docker client's environment, not on its command line); PATH stays the image's.
   */
  execArgv(argv: string[], env: Record<string, string>, cwd: string): string[] {
    const names = Object.keys(env).filter((k) => k !== 'PATH');
    return [
      'exec',
      '--user',
      'runner',
      '--workdir',
      cwd,
      ...names.flatMap((k) => ['-e', k]),
      this.id,
      ...argv,
    ];
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await exec('docker', ['rm', '-f', this.id], { allowAllExitCodes: true, timeoutMs: 60_000 });
  }
}
