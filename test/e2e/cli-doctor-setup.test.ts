/**
 * `gemini-run doctor` and `gemini-run setup` end to end in temp homes, against the real gemini 0.42.0
 * (node_modules) and, once, a real npm install of the pinned version into a temp prefix (only with
 * GEMINI_RUN_TEST_NETWORK=1).
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { arch, homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Check } from '../../src/cli/commands/doctor.js';
import { GEMINI_LATEST_BIN } from '../harness/gemini-launcher.js';
import { NETWORK_SKIPPED, NETWORK_TESTS } from '../harness/network.js';

const GEMINI = join(process.cwd(), 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
const CLI = [
  '--import',
  pathToFileURL(join(process.cwd(), 'node_modules', 'tsx', 'dist', 'loader.mjs')).href,
  join(process.cwd(), 'src', 'cli', 'main.ts'),
];
/** PATH with node and tmux but without node_modules/.bin (so no gemini unless a test adds one). */
const BASE_PATH = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'gemini-run-doctor-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      env: { PATH: BASE_PATH, HOME: home, ...env },
      cwd: home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 280_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function byName(checks: Check[], name: string): Check | undefined {
  return checks.find((c) => c.name === name);
}

describe('gemini-run doctor', () => {
  it('fails on a fresh host home with a fix for every failure; the pinned gemini passes', async () => {
    const r = await cli(['doctor', '--json', '--gemini', GEMINI]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
    expect(report.ok).toBe(false);
    expect(byName(report.checks, 'node')?.status).toBe('ok');
    expect(byName(report.checks, 'tmux')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^tmux \d/),
    });
    expect(byName(report.checks, 'gemini')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('0.42.0'),
    });
    expect(byName(report.checks, 'settings: auto-update')?.status).toBe('fail');
    expect(byName(report.checks, 'settings: usage statistics')?.status).toBe('fail');
    expect(byName(report.checks, 'login')?.status).toBe('warn');
    expect(byName(report.checks, 'free disk')?.status).toBe('ok');
    for (const c of report.checks.filter((x) => x.status !== 'ok')) expect(c.fix, c.name).toBeTruthy();

    const table = await cli(['doctor', '--gemini', GEMINI]);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^STATUS +CHECK +DETAIL$/m);
    expect(table.stdout).toMatch(/^FAIL +settings: auto-update +on /m);
    expect(table.stdout).toMatch(/^ +fix: run 'gemini-run setup'/m);
    expect(table.stdout).toContain('check(s) failed.');
    for (const line of table.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('accepts the real gemini 0.61.0 and names its profile', async () => {
    const r = await cli(['doctor', '--json', '--gemini', GEMINI_LATEST_BIN]);
    expect(byName((JSON.parse(r.stdout) as { checks: Check[] }).checks, 'gemini')).toEqual({
      name: 'gemini',
      status: 'ok',
      detail: `0.61.0 at ${GEMINI_LATEST_BIN} (--gemini); profile 0.61.0`,
    });
  });

  it('refuses an unchecked gemini in one line unless allowed, and flags a missing one', async () => {
    const fake = join(home, 'gemini');
    await writeFile(fake, '#!/bin/sh\necho 0.41.9\n');
    await chmod(fake, 0o755);
    const env = { PATH: `${home}${delimiter}${BASE_PATH}` };
    const r = await cli(['doctor', '--json'], env);
    const gemini = byName((JSON.parse(r.stdout) as { checks: Check[] }).checks, 'gemini');
    expect(gemini).toMatchObject({
      status: 'fail',
      detail: `0.41.9 at ${fake} (PATH); not checked by the probes`,
    });
    expect(gemini?.fix).toMatch(
      /^gemini 0\.41\.9 has not been checked [^\n]*--allow-unchecked-gemini-version/,
    );
    expect(r.code).toBe(1);

    const allowed = await cli(['doctor', '--json', '--allow-unchecked-gemini-version'], env);
    expect(byName((JSON.parse(allowed.stdout) as { checks: Check[] }).checks, 'gemini')).toMatchObject({
      status: 'warn',
      detail: `0.41.9 at ${fake} (PATH); unchecked, runs would use the 0.42.0 profile`,
    });

    const none = await cli(['doctor', '--json']);
    expect(byName((JSON.parse(none.stdout) as { checks: Check[] }).checks, 'gemini')).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('gemini-run setup'),
    });
  });
});

describe('gemini-run setup', () => {
  it('with an existing pinned gemini: merges settings, prints the .env lines; doctor then passes', async () => {
    const r = await cli(['setup', '--gemini', GEMINI, '--home', home]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`GEMINI_RUN_GEMINI_PATH=${GEMINI}`);
    expect(r.stdout).toContain(`GEMINI_RUN_HOST_HOME=${home}`);
    const settings = JSON.parse(await readFile(join(home, '.gemini', 'settings.json'), 'utf8')) as {
      general: Record<string, unknown>;
      privacy: Record<string, unknown>;
    };
    expect(settings.general).toEqual({ enableAutoUpdate: false, enableAutoUpdateNotification: false });
    expect(settings.privacy.usageStatisticsEnabled).toBe(false);

    const doctor = await cli(['doctor', '--json'], { GEMINI_RUN_GEMINI_PATH: GEMINI });
    const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: Check[] };
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(doctor.code).toBe(0);
    expect(byName(report.checks, 'gemini')?.detail).toContain('(GEMINI_RUN_GEMINI_PATH)');
  });

  it("the README's one-host flow: setup >> ~/actions-runner/.env, then doctor passes in a fresh HOME", async () => {
    // What an earlier setup installed at the default place (a fresh HOME has no $RUNNER_TOOL_CACHE): no npm here.
    const dir = join(home, '.cache', 'gemini-run', 'tool-cache', 'gemini-cli', '0.42.0', arch());
    await mkdir(join(dir, 'node_modules', '@google'), { recursive: true });
    await symlink(dirname(dirname(GEMINI)), join(dir, 'node_modules', '@google', 'gemini-cli'));
    await writeFile(`${dir}.complete`, '');
    const runner = join(home, 'actions-runner');
    await mkdir(runner);
    const r = await cli(['setup']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('sudo gemini-run setup --agent-users 4 --runner-user');
    await writeFile(join(runner, '.env'), r.stdout);
    const doctor = await cli(['doctor']);
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(new RegExp(`^OK +runner .env +${runner}/.env`, 'm'));
    expect(doctor.stdout).toMatch(/^OK +gemini +0\.42\.0 at\b/m);
    for (const line of doctor.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('says a --gemini that is not there does not exist', async () => {
    const r = await cli(['setup', '--gemini', '/nonexistent/gemini']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'gemini-run setup: /nonexistent/gemini does not exist: pass the path of a gemini 0.42.0, or leave --gemini out to install one\n',
    );
  });

  it('refuses a gemini of another version', async () => {
    const fake = join(home, 'gemini');
    await writeFile(fake, '#!/bin/sh\necho 0.61.0\n');
    await chmod(fake, 0o755);
    const r = await cli(['setup', '--gemini', fake]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`gemini-run setup: ${fake} reports version '0.61.0', expected 0.42.0\n`);
  });

  it('takes the version it is asked for (--gemini-version), and only an exact one', async () => {
    const fake = join(home, 'gemini');
    await writeFile(fake, '#!/bin/sh\necho 0.61.0\n');
    await chmod(fake, 0o755);
    const r = await cli(['setup', '--gemini', fake, '--gemini-version', '0.61.0', '--home', home]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`GEMINI_RUN_GEMINI_PATH=${fake}`);
    const range = await cli(['setup', '--gemini', fake, '--gemini-version', '^0.61']);
    expect(range.code).toBe(1);
    expect(range.stderr).toBe(
      "gemini-run setup: --gemini-version must be an exact version like 0.42.0, not '^0.61'\n",
    );
    await writeFile(fake, '#!/bin/sh\necho 0.55.0\n');
    const unchecked = await cli(['setup', '--gemini', fake, '--gemini-version', '0.55.0', '--home', home]);
    expect(unchecked.code).toBe(1);
    expect(unchecked.stderr).toMatch(
      /^gemini-run setup: gemini 0\.55\.0 has not been checked .*--allow-unchecked-gemini-version/,
    );
    const allowed = await cli([
      'setup',
      '--gemini',
      fake,
      '--gemini-version',
      '0.55.0',
      '--allow-unchecked-gemini-version',
      '--home',
      home,
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
  });

  it(
    'installs the pinned gemini from the npm registry into a prefix the user owns; doctor finds it in the tool cache',
    { timeout: 300_000 },
    async ({ skip }) => {
      skip(!NETWORK_TESTS, NETWORK_SKIPPED);
      const prefix = join(home, 'tool-cache');
      const npmDir = dirname(process.execPath);
      // The host's npm configuration (registry, proxy CA) still applies with HOME pointing at the temp home.
      const env: NodeJS.ProcessEnv = {
        PATH: BASE_PATH,
        npm_config_cache: join(home, 'npm-cache'),
        npm_config_update_notifier: 'false',
        npm_config_userconfig: join(homedir(), '.npmrc'),
      };
      for (const k of [
        'NODE_EXTRA_CA_CERTS',
        'SSL_CERT_FILE',
        'SSL_CERT_DIR',
        'HTTPS_PROXY',
        'HTTP_PROXY',
        'NO_PROXY',
      ]) {
        if (process.env[k]) env[k] = process.env[k];
      }
      const r = await cli(['setup', '--prefix', prefix, '--home', home, '--npm', join(npmDir, 'npm')], env);
      expect(r.code, r.stderr).toBe(0);
      const line = /^GEMINI_RUN_GEMINI_PATH=(.+)$/m.exec(r.stdout)?.[1];
      expect(line).toMatch(
        new RegExp(
          `^${prefix}/gemini-cli/0\\.42\\.0/[^/]+/node_modules/@google/gemini-cli/bundle/gemini\\.js$`,
        ),
      );
      const doctor = await cli(['doctor', '--json', '--tool-cache', prefix], env);
      const gemini = byName((JSON.parse(doctor.stdout) as { checks: Check[] }).checks, 'gemini');
      expect(gemini).toMatchObject({ status: 'ok', detail: expect.stringContaining('(tool cache)') });
      // A second setup reuses the complete install.
      const again = await cli(
        ['setup', '--prefix', prefix, '--home', home, '--npm', join(npmDir, 'npm')],
        env,
      );
      expect(again.code).toBe(0);
      expect(again.stderr).toContain('Using cached gemini 0.42.0');
    },
  );
});
