/**
 * The toolkit CLI in-process: dispatch, usage errors, help texts, and the file-only commands (auth status,
 * logout, export-creds) on temp homes. Login, doctor and setup against the real gemini are in test/e2e/cli-*.
 */
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLineReader,
  parseCommandArgs,
  renderTable,
  UsageError,
  type CliIO,
} from '../../src/cli/args.js';
import { COMMANDS, main } from '../../src/cli/main.js';
import {
  checkDisk,
  checkGeminiVersion,
  checkNode,
  checkSettings,
  renderChecks,
} from '../../src/cli/commands/doctor.js';
import { humanDuration } from '../../src/cli/commands/auth.js';
import { parseDotEnv } from '../../src/cli/host-config.js';
import { wrapText } from '../../src/cli/args.js';
import { evaluateAuth, signedOutAccounts } from '../../src/gemini/auth-status.js';

class Sink extends Writable {
  text = '';
  isTTY?: boolean;
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

let home: string;

function io(o: { tty?: boolean; env?: NodeJS.ProcessEnv } = {}): CliIO & { stdout: Sink; stderr: Sink } {
  const stdout = new Sink();
  if (o.tty) stdout.isTTY = true;
  return {
    stdout,
    stderr: new Sink(),
    stdin: new PassThrough(),
    env: { HOME: home, PATH: process.env.PATH, ...o.env },
    cwd: home,
  };
}

const HOUR = 3_600_000;

async function writeCreds(creds: object, account?: string): Promise<void> {
  await mkdir(join(home, '.gemini'), { recursive: true });
  await writeFile(join(home, '.gemini', 'oauth_creds.json'), JSON.stringify(creds), { mode: 0o600 });
  if (account) {
    await writeFile(
      join(home, '.gemini', 'google_accounts.json'),
      JSON.stringify({ active: account, old: ['a@x.io'] }),
    );
  }
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'gemini-run-cli-unit-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('dispatch', () => {
  it('lists every command in --help and exits 0', async () => {
    const t = io();
    expect(await main(['--help'], t)).toBe(0);
    for (const c of COMMANDS) expect(t.stdout.text).toContain(`  ${c.name} `);
  });

  it('an unknown command is a one-line usage error (exit 2)', async () => {
    const t = io();
    expect(await main(['lgoin'], t)).toBe(2);
    expect(t.stderr.text).toBe(
      "gemini-run: unknown command 'lgoin'. Run 'gemini-run --help' for the list.\n",
    );
  });

  it.each(COMMANDS.map((c) => c.name))('%s --help has examples; a bad flag exits 2', async (name) => {
    const t = io();
    expect(await main([name, '--help'], t)).toBe(0);
    expect(t.stdout.text).toMatch(new RegExp(`^usage: gemini-run ${name}`));
    expect(t.stdout.text).toContain('Examples:');
    const bad = io();
    expect(await main([name, '--no-such-flag'], bad)).toBe(2);
    expect(bad.stderr.text).toBe(
      `gemini-run ${name}: unknown option '--no-such-flag'. Run 'gemini-run ${name} --help'.\n`,
    );
  });

  it('run --help names the flags that shape a run, and a bad budget or settings is one usage line', async () => {
    const t = io();
    expect(await main(['run', '--help'], t)).toBe(0);
    for (const flag of [
      '--settings',
      '--instructions',
      '--allowed-tools',
      '--exclude-tools',
      '--extensions',
      '--max-tokens',
    ])
      expect(t.stdout.text).toContain(flag);
    const bad = io();
    expect(await main(['run', '--prompt', 'x', '--max-tokens', 'lots'], bad)).not.toBe(0);
    expect(bad.stderr.text).toMatch(/--max-tokens must be a whole number/);
    // Mode and timeout go through the schemas of the action's inputs, with the flag's name in the message.
    for (const [flag, value, message] of [
      ['--mode', 'batch', /^gemini-run run: --mode must be interactive or headless/m],
      ['--timeout-minutes', '0', /--timeout-minutes must be a number of minutes above 0 and at most 360/],
      ['--timeout-minutes', '361', /--timeout-minutes must be a number of minutes above 0 and at most 360/],
    ] as const) {
      const t2 = io();
      expect(await main(['run', '--prompt', 'x', flag, value], t2)).toBe(2);
      expect(t2.stderr.text).toMatch(message);
    }
    const badJson = io();
    expect(await main(['run', '--prompt', 'x', '--settings', '{nope'], badJson)).not.toBe(0);
    expect(badJson.stderr.text.trim().split('\n')).toHaveLength(1);
    expect(badJson.stderr.text).toMatch(/'settings' is not valid JSON/);
  });

  it('help <command> prints that command', async () => {
    const t = io();
    expect(await main(['help', 'logout'], t)).toBe(0);
    expect(t.stdout.text).toMatch(/^usage: gemini-run logout/);
  });

  it('auth needs the status subcommand', async () => {
    const t = io();
    expect(await main(['auth'], t)).toBe(2);
    expect(t.stderr.text).toContain("missing subcommand 'status'");
    const u = io();
    expect(await main(['auth', 'stats'], u)).toBe(2);
    expect(u.stderr.text).toContain("unknown subcommand 'stats'");
  });

  it('flags that only work together are checked together, in one usage line, before anything runs', async () => {
    for (const [argv, message] of [
      [['setup', '--runner-user', 'runner'], /--runner-user works only with --agent-users \(the host step/],
      [['setup', '--agent-users', '2'], /--agent-users works only with --runner-user/],
      [
        ['setup', '--agent-users', '2', '--runner-user', 'runner', '--prefix', '/opt/x'],
        /--agent-users does not go with --prefix/,
      ],
      [['doctor', '--json', '--wide'], /--wide does not go with --json/],
      [['probe', '--list', '--json'], /--list does not go with --json/],
    ] as const) {
      const t = io();
      expect(await main([...argv], t), argv.join(' ')).toBe(2);
      expect(t.stderr.text).toMatch(message);
      expect(t.stderr.text.trim().split('\n')).toHaveLength(1);
      expect(t.stdout.text).toBe('');
    }
    // Nothing was installed into the caller's home.
    expect(await readdir(home)).toEqual([]);
  });

  it('a flag without its value is a usage error', async () => {
    const t = io();
    expect(await main(['login', '--home'], t)).toBe(2);
    expect(t.stderr.text).toContain("option '--home <value>' needs a value");
  });
});

describe('parseCommandArgs', () => {
  it('rejects stray positionals and keeps typed values', () => {
    expect(() => parseCommandArgs('x', ['extra'], {})).toThrow(UsageError);
    const p = parseCommandArgs('x', ['--home', '/h', '--json'], {
      home: { type: 'string' },
      json: { type: 'boolean' },
    });
    expect(p.values).toEqual({ home: '/h', json: true });
    expect(p.help).toBe(false);
  });
});

describe('auth status', () => {
  it('usable creds: exit 0 with account, expiry and auth type', async () => {
    await writeCreds(
      { access_token: 'ya29.x', refresh_token: '1//r', expiry_date: Date.now() + HOUR },
      'me@corp.com',
    );
    await writeFile(
      join(home, '.gemini', 'settings.json'),
      '{"security":{"auth":{"selectedType":"oauth-personal"}}}',
    );
    const t = io();
    expect(await main(['auth', 'status', '--json'], t)).toBe(0);
    const s = JSON.parse(t.stdout.text) as Record<string, unknown>;
    expect(s).toMatchObject({
      usable: true,
      account: 'me@corp.com',
      authType: 'oauth-personal',
      refreshTokenPresent: true,
    });
    expect(t.stdout.text).not.toContain('ya29.x');
    const text = io();
    expect(await main(['auth', 'status'], text)).toBe(0);
    expect(text.stdout.text).toMatch(/access token: +valid for (59|60) minutes/);
  });

  it('expired without refresh token: exit 1 and says what to do', async () => {
    await writeCreds({ access_token: 'ya29.x', expiry_date: Date.now() - HOUR });
    const t = io();
    expect(await main(['auth', 'status'], t)).toBe(1);
    expect(t.stdout.text).toContain(
      "the access token expired and there is no refresh token: run 'gemini-run login' again",
    );
  });

  it('a damaged creds file is reported without its contents', async () => {
    await mkdir(join(home, '.gemini'), { recursive: true });
    await writeFile(
      join(home, '.gemini', 'oauth_creds.json'),
      '{"access_token": "secret-value", "expiry_date": "soon"}',
    );
    const t = io({ env: { GEMINI_CLI_HOME: home } });
    expect(await main(['auth', 'status', '--json'], t)).toBe(1);
    expect(t.stdout.text).not.toContain('secret-value');
    expect(JSON.parse(t.stdout.text)).toMatchObject({ credsPresent: true, usable: false });
  });

  it('evaluateAuth: an expired token with a refresh token is usable', () => {
    const s = evaluateAuth({
      home: '/h',
      credsPresent: true,
      creds: { access_token: 'a', refresh_token: 'r', expiry_date: 1000 },
      now: 2000,
      authType: 'gemini-api-key',
    });
    expect(s.usable).toBe(true);
    expect(s.accessTokenExpired).toBe(true);
    expect(s.problems).toEqual([expect.stringContaining("settings select auth 'gemini-api-key'")]);
  });
});

describe('logout', () => {
  it('removes the creds and moves the active account to old; idempotent', async () => {
    await writeCreds({ access_token: 'ya29.x', refresh_token: '1//r' }, 'me@corp.com');
    const t = io();
    expect(await main(['logout'], t)).toBe(0);
    expect(t.stdout.text).toContain('Logged out me@corp.com');
    expect(JSON.parse(await readFile(join(home, '.gemini', 'google_accounts.json'), 'utf8'))).toEqual({
      active: null,
      old: ['a@x.io', 'me@corp.com'],
    });
    const again = io();
    expect(await main(['logout'], again)).toBe(0);
    expect(again.stdout.text).toContain('Not logged in');
  });

  it('signedOutAccounts starts fresh from a damaged file, like the CLI', () => {
    expect(signedOutAccounts('{nope')).toEqual({ active: null, old: [] });
    expect(signedOutAccounts(undefined)).toEqual({ active: null, old: [] });
    expect(signedOutAccounts('{"active":"b","old":["b"]}')).toEqual({ active: null, old: ['b'] });
  });
});

describe('export-creds', () => {
  it('refuses a terminal without --force, in one line, printing nothing', async () => {
    await writeCreds({ access_token: 'ya29.x', refresh_token: '1//r' });
    const t = io({ tty: true });
    expect(await main(['export-creds'], t)).toBe(1);
    expect(t.stdout.text).toBe('');
    expect(t.stderr.text.trim().split('\n')).toHaveLength(1);
    expect(t.stderr.text).toContain('refusing to print a credential to a terminal');
    const forced = io({ tty: true });
    expect(await main(['export-creds', '--force'], forced)).toBe(0);
    expect(forced.stdout.text).not.toBe('');
  });

  it('prints base64 of the creds to a pipe, and the how-to on stderr', async () => {
    const creds = { access_token: 'ya29.x', refresh_token: '1//r', expiry_date: 5 };
    await writeCreds(creds);
    const t = io();
    expect(await main(['export-creds'], t)).toBe(0);
    expect(JSON.parse(Buffer.from(t.stdout.text.trim(), 'base64').toString('utf8'))).toEqual(creds);
    expect(t.stdout.text.trim()).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(t.stderr.text).toContain('gh secret set GEMINI_OAUTH_CREDS');
  });

  it('no creds: one-line error naming the file', async () => {
    const t = io();
    expect(await main(['export-creds'], t)).toBe(1);
    expect(t.stderr.text).toBe(
      `gemini-run export-creds: no creds at ${join(home, '.gemini', 'oauth_creds.json')}: run 'gemini-run login' first\n`,
    );
  });

  it('refuses creds that can no longer work', async () => {
    await writeCreds({ access_token: 'ya29.x', expiry_date: 1 });
    const t = io();
    expect(await main(['export-creds'], t)).toBe(1);
    expect(t.stdout.text).toBe('');
    expect(t.stderr.text).toContain('no refresh_token');
  });
});

describe('helpers', () => {
  it('renderTable aligns columns', () => {
    expect(renderTable(['A', 'BB'], [['xxx', 'y']])).toBe('A    BB\n---  --\nxxx  y');
  });

  it('createLineReader hands out lines across prompts, then undefined at the end', async () => {
    const s = new PassThrough();
    const r = createLineReader(s);
    s.write('one\r\ntw');
    expect(await r.next()).toBe('one');
    const pending = r.next();
    s.write('o\nthree');
    expect(await pending).toBe('two');
    s.end();
    expect(await r.next()).toBe('three');
    expect(await r.next()).toBeUndefined();
    r.close();
  });

  it('createLineReader keeps a character whole when a chunk ends inside it', async () => {
    const s = new PassThrough();
    const r = createLineReader(s);
    const bytes = Buffer.from('código\n');
    // 'ó' is two bytes: the first chunk ends between them.
    s.write(bytes.subarray(0, 2));
    s.write(bytes.subarray(2));
    expect(await r.next()).toBe('código');
    r.close();
  });
});

describe('doctor checks (pure)', () => {
  it('settings: all owned values present = ok; missing = fail/warn with a fix', () => {
    const good = {
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      context: { fileName: ['GEMINI.local.md', 'GEMINI.md', 'AGENTS.md'] },
    };
    expect(checkSettings(good, '/h/.gemini/settings.json').map((c) => c.status)).toEqual(['ok', 'ok', 'ok']);
    const bad = checkSettings({ general: { enableAutoUpdate: false } }, '/h/.gemini/settings.json');
    expect(bad.map((c) => c.status)).toEqual(['fail', 'fail', 'warn']);
    for (const c of bad) expect(c.fix).toContain("run 'gemini-run setup'");
    // a single string context name is accepted by the CLI too
    expect(checkSettings({ context: { fileName: 'GEMINI.md' } }, 'f')[2]?.detail).toContain(
      'missing GEMINI.local.md, AGENTS.md',
    );
  });

  it('gemini: every checked version passes naming its profile; others fail in one line unless allowed', () => {
    expect(checkGeminiVersion('0.42.0', '/g (PATH)', false)).toEqual({
      name: 'gemini',
      status: 'ok',
      detail: '0.42.0 at /g (PATH); profile 0.42.0',
    });
    expect(checkGeminiVersion('0.61.0', '/g (PATH)', false)).toMatchObject({
      status: 'ok',
      detail: '0.61.0 at /g (PATH); profile 0.61.0',
    });
    const refused = checkGeminiVersion('0.55.0', '/g (PATH)', false);
    expect(refused).toMatchObject({
      status: 'fail',
      detail: '0.55.0 at /g (PATH); not checked by the probes',
    });
    expect(refused.fix).toMatch(/^gemini 0\.55\.0 has not been checked .*--allow-unchecked-gemini-version/);
    expect(refused.fix).not.toContain('\n');
    expect(checkGeminiVersion('0.55.0', '/g (PATH)', true)).toMatchObject({
      status: 'warn',
      detail: '0.55.0 at /g (PATH); unchecked, runs would use the 0.42.0 profile',
      fix: expect.stringContaining('gemini-run probe'),
    });
    expect(checkGeminiVersion('0.70.1', '/g', true).detail).toContain('the 0.61.0 profile');
  });

  it('node and disk thresholds', () => {
    expect(checkNode('v20.0.0').status).toBe('ok');
    expect(checkNode('v18.19.1')).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('Node.js 20'),
    });
    expect(checkDisk(2 * 1024 ** 3, '/h').status).toBe('ok');
    expect(checkDisk(100 * 1024 ** 2, '/h')).toMatchObject({ status: 'fail', detail: '0.1 GiB free in /h' });
  });
});

describe('the toolkit as people read it', () => {
  it('says durations as people say them', () => {
    expect(humanDuration(-1605302 * 60_000)).toBe('3 years');
    expect(humanDuration(3600_000)).toBe('60 minutes');
    expect(humanDuration(3 * 3600_000)).toBe('3 hours');
    expect(humanDuration(36 * 3600_000)).toBe('36 hours');
    expect(humanDuration(10 * 24 * 3600_000)).toBe('10 days');
    expect(humanDuration(45 * 24 * 3600_000)).toBe('6 weeks');
    expect(humanDuration(1000)).toBe('1 second');
    expect(humanDuration(61_000)).toBe('1 minute');
    expect(humanDuration(400)).toBe('a moment');
  });

  it("fits doctor's table into 100 columns, wrapping long details and fixes; --wide keeps one row", () => {
    const long = `/home/runner/${'x'.repeat(150)}/bundle/gemini.js (GEMINI_RUN_GEMINI_PATH) does not run`;
    const checks = [
      { name: 'node', status: 'ok' as const, detail: 'v24.1.0' },
      {
        name: 'gemini',
        status: 'fail' as const,
        detail: long,
        fix: "reinstall it with 'gemini-run setup' ".repeat(5),
      },
    ];
    const text = renderChecks(checks);
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(text).toMatch(/^FAIL {4}gemini +\/home\/runner\/x+$/m);
    expect(text).toMatch(/^ +fix: reinstall it/m);
    expect(text.replace(/\s+/g, '')).toContain(long.replace(/\s+/g, ''));
    expect(renderChecks(checks, true).split('\n')[3]).toContain(long);
  });

  it('wraps at spaces and cuts only words longer than a line', () => {
    expect(wrapText('aa bb cc', 5)).toEqual(['aa bb', 'cc']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('', 4)).toEqual(['']);
  });

  it("reads a runner's .env as the runner does: KEY=VALUE at the first '=', comments and blanks skipped", () => {
    expect(
      parseDotEnv(
        "# Add to the runner's .env\nGEMINI_RUN_GEMINI_PATH=/a/b=c\n\n  GEMINI_RUN_HOST_HOME = /home/r \nnoise\n",
      ),
    ).toEqual({ GEMINI_RUN_GEMINI_PATH: '/a/b=c', GEMINI_RUN_HOST_HOME: '/home/r' });
  });
});
