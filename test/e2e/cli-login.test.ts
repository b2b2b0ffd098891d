/**
 * `gemini-run login`, `auth status`, `export-creds` and `logout` end to end: the CLI runs as a process
 * (tsx on src/cli/main.ts), drives the real gemini 0.42.0 in its own tmux server, and Google is played by
 * test/harness/oauth-proxy.ts. Every home is a temp dir.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { CONSUMER_REFUSAL_MESSAGE, OAuthProxy } from '../harness/oauth-proxy.js';

const GEMINI = join(process.cwd(), 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
// tsx by path: the CLI runs with cwd = the temp home, where a bare 'tsx' would not resolve.
const CLI = [
  '--import',
  pathToFileURL(join(process.cwd(), 'node_modules', 'tsx', 'dist', 'loader.mjs')).href,
  join(process.cwd(), 'src', 'cli', 'main.ts'),
];
const GOOD = '4/0-good-code';

let proxy: OAuthProxy;
let home: string;

beforeEach(async () => {
  proxy = await OAuthProxy.start({ validCodes: [GOOD] });
  home = await mkdtemp(join(tmpdir(), 'gemini-run-login-e2e-'));
});

afterEach(async () => {
  await proxy.close();
  await rm(home, { recursive: true, force: true });
});

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI; `answers` are typed on stdin one per authorization URL that appears on stdout (like an
 * operator who reads the URL, signs in and pastes the code).
 */
function cli(args: string[], answers: string[] = [], extraEnv: Record<string, string> = {}): Promise<CliRun> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    GEMINI_RUN_GEMINI_PATH: GEMINI,
    TMUX_TMPDIR: home,
    ...proxy.env(),
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      env,
      cwd: home,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let answered = 0;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const urls = stdout.match(/https:\/\/accounts\.google\.com\/\S+/g)?.length ?? 0;
      while (answered < urls && answered < answers.length) child.stdin.write(`${answers[answered++]}\n`);
      if (answered >= answers.length && answers.length > 0 && urls > answers.length) child.stdin.end();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    if (answers.length === 0) child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** No tmux server of ours survives a login (the socket dir is TMUX_TMPDIR=home). */
async function tmuxServers(): Promise<string[]> {
  // The login's server did live here: otherwise this check would pass vacuously.
  expect((await stat(join(home, `tmux-${process.getuid?.() ?? 0}`))).isDirectory()).toBe(true);
  const r = await exec('sh', ['-c', `ls ${home}/tmux-* 2>/dev/null || true`], { allowAllExitCodes: true });
  const sockets = r.stdout.split('\n').filter((l) => l.includes('gemini-run-login'));
  const alive: string[] = [];
  for (const s of sockets) {
    const name = s.split('/').pop() ?? '';
    const ls = await exec('tmux', ['-L', name, 'list-sessions'], {
      env: { PATH: process.env.PATH ?? '', TMUX_TMPDIR: home },
      allowAllExitCodes: true,
    });
    if (ls.exitCode === 0) alive.push(name);
  }
  return alive;
}

/** Pids of live processes whose environment says GEMINI_CLI_HOME=<home> (the login's gemini). */
async function geminiPidsFor(dir: string): Promise<number[]> {
  const needle = `GEMINI_CLI_HOME=${dir}\0`;
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readFile(`/proc/${entry}/environ`, 'utf8')).includes(needle)) pids.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** What the CLI left in the home about the login's throw-away project: its folders, registry entry, temp files. */
async function loginLeftovers(): Promise<string[]> {
  const dir = join(home, '.gemini');
  const found: string[] = [];
  for (const base of ['tmp', 'history']) {
    for (const e of await readdir(join(dir, base)).catch(() => [])) {
      if (e.startsWith('gemini-run-login-')) found.push(`${base}/${e}`);
    }
  }
  for (const e of await readdir(dir).catch(() => [])) if (/^projects\.json\..*\.tmp$/.test(e)) found.push(e);
  const registry = await readFile(join(dir, 'projects.json'), 'utf8').catch(() => '{}');
  for (const k of Object.keys((JSON.parse(registry) as { projects?: object }).projects ?? {})) {
    if (k.includes('gemini-run-login-')) found.push(`projects.json: ${k}`);
  }
  return found;
}

describe('gemini-run login (real gemini 0.42.0, offline Google)', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s while waiting for the code stops the session and gemini, and leaves no temp files',
    async (signal, exitCode) => {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: home,
        GEMINI_RUN_GEMINI_PATH: GEMINI,
        TMUX_TMPDIR: home,
        ...proxy.env(),
      };
      const child = spawn(process.execPath, [...CLI, 'login', '--home', home], {
        env,
        cwd: home,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('https://accounts.google.com/')) resolve();
        });
      });
      expect(await geminiPidsFor(home)).not.toEqual([]);
      // The CLI did make its project folder for the login's working directory: the check below is not vacuous.
      expect(await loginLeftovers()).toContainEqual(expect.stringMatching(/^tmp\/gemini-run-login-/));
      child.kill(signal);
      expect(await closed).toBe(exitCode);
      expect(stderr).toContain(`gemini-run login: cancelled (${signal}); the login session was stopped.`);
      expect(await geminiPidsFor(home)).toEqual([]);
      expect(await tmuxServers()).toEqual([]);
      expect(await loginLeftovers()).toEqual([]);
    },
  );

  it('a wrong code shows a new URL; the right one logs in; then status, export, logout', async () => {
    const r = await cli(['login', '--home', home], ['wrong-code', GOOD]);
    expect(r.stderr).toContain('The code was refused (invalid_grant)');
    expect(r.code, r.stderr).toBe(0);
    const urls = r.stdout.match(/https:\/\/accounts\.google\.com\/\S+/g) ?? [];
    expect(urls).toHaveLength(2);
    expect(urls[0]).not.toBe(urls[1]);
    expect(r.stdout).toContain(`Logged in as ${proxy.config.email}`);
    // the TUI came up after loadCodeAssist, so the account is confirmed
    expect(r.stdout).toContain('Plan: Gemini Code Assist Standard');
    expect(r.stderr).not.toContain('did not confirm');
    const credsFile = join(home, '.gemini', 'oauth_creds.json');
    const creds = JSON.parse(await readFile(credsFile, 'utf8')) as Record<string, unknown>;
    expect(proxy.accepts(creds.access_token as string)).toBe(true);
    expect(creds.refresh_token).toEqual(expect.any(String));
    expect((await stat(credsFile)).mode & 0o777).toBe(0o600);
    // our settings were merged first, so the CLI took the plain-stdin path
    const settings = JSON.parse(await readFile(join(home, '.gemini', 'settings.json'), 'utf8')) as {
      security: { auth: { selectedType: string } };
      general: { enableAutoUpdate: boolean };
    };
    expect(settings.security.auth.selectedType).toBe('oauth-personal');
    expect(settings.general.enableAutoUpdate).toBe(false);
    expect(await tmuxServers()).toEqual([]);
    expect(await loginLeftovers()).toEqual([]);

    const status = await cli(['auth', 'status', '--json', '--home', home]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      credsPresent: true,
      refreshTokenPresent: true,
      accessTokenExpired: false,
      account: proxy.config.email,
      authType: 'oauth-personal',
      usable: true,
    });

    const exported = await cli(['export-creds', '--home', home]);
    expect(exported.code).toBe(0);
    const decoded = JSON.parse(Buffer.from(exported.stdout.trim(), 'base64').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(decoded.access_token).toBe(creds.access_token);
    expect(exported.stderr).toContain('gh secret set GEMINI_OAUTH_CREDS');
    expect(exported.stderr).not.toContain(creds.access_token as string);

    const again = await cli(['login', '--home', home]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toContain('already logged in');

    const out = await cli(['logout', '--home', home]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Logged out ${proxy.config.email}`);
    await expect(stat(credsFile)).rejects.toThrow();
    expect(JSON.parse(await readFile(join(home, '.gemini', 'google_accounts.json'), 'utf8'))).toEqual({
      active: null,
      old: [proxy.config.email],
    });
    const after = await cli(['auth', 'status', '--home', home]);
    expect(after.code).toBe(1);
    expect(after.stdout).toContain("no oauth_creds.json: run 'gemini-run login'");
  });

  it("ends with the CLI's own message after the second wrong code, and keeps earlier creds with --force", async () => {
    await mkdir(join(home, '.gemini'), { recursive: true });
    const old = JSON.stringify(proxy.seedCreds());
    await writeFile(join(home, '.gemini', 'oauth_creds.json'), old, { mode: 0o600 });
    const r = await cli(['login', '--home', home, '--force'], ['bad-1', 'bad-2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('gemini-run login: login failed: Failed to authenticate with user code.');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(await readFile(join(home, '.gemini', 'oauth_creds.json'), 'utf8')).toBe(old);
    expect(await tmuxServers()).toEqual([]);
  });

  it("a consumer account refused by Code Assist fails the login with Google's message", async () => {
    proxy.config.refuseAccount = CONSUMER_REFUSAL_MESSAGE;
    const r = await cli(['login', '--home', home, '--code', GOOD]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').pop()).toBe(
      `gemini-run login: Google refused this account for the Gemini CLI: ${CONSUMER_REFUSAL_MESSAGE}`,
    );
    await expect(stat(join(home, '.gemini', 'oauth_creds.json'))).rejects.toThrow();
    expect(await tmuxServers()).toEqual([]);
  });

  it('--code: a refused code fails, and no URL its one try cannot use is shown', async () => {
    const r = await cli(['login', '--home', home, '--code', 'not-it']);
    expect(r.code).toBe(1);
    expect(r.stdout.match(/https:\/\/accounts\.google\.com\/\S+/g)).toHaveLength(1);
    expect(r.stderr).toContain('the authorization code was refused (invalid_grant)');
    await expect(stat(join(home, '.gemini', 'oauth_creds.json'))).rejects.toThrow();
  });

  it('--code while Google cannot be reached: says the network, never that the code was refused', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const offline = { HTTPS_PROXY: `http://127.0.0.1:${closed}`, https_proxy: `http://127.0.0.1:${closed}` };
    const r = await cli(['login', '--home', home, '--code', GOOD], [], offline);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n').pop()).toMatch(
      /^gemini-run login: Google's token endpoint could not be reached to check the code \(.*\): check this host's network and HTTPS_PROXY, then log in again\.$/,
    );
    expect(r.stderr).not.toMatch(/refused/);
    expect(r.stdout.match(/https:\/\/accounts\.google\.com\/\S+/g)).toHaveLength(1);
  });
});
