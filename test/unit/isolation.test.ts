import { describe, expect, it } from 'vitest';
import { homeAt } from '../../src/gemini/home.js';
import { buildEnv, launchArgv } from '../../src/gemini/spawn.js';
import { ancestorsOf, parseAcls, traverseDecision, treeAclSpec } from '../../src/isolation/access.js';
import {
  claimIsLive,
  createUserCommands,
  parsePasswdLine,
  reapArgv,
  runAsPrefix,
} from '../../src/isolation/agent-user.js';
import { includesDropIns, sudoersRule, withBlock } from '../../src/isolation/host-setup.js';
import { isZombieStatus, uidsOfStatus } from '../../src/isolation/procs.js';
import { applyTokenResponse } from '../../src/proxy/oauth-token.js';

const user = { name: 'gemini-agent-3', uid: 997, gid: 993 };

describe('agent processes (pure)', () => {
  it('reads real, effective and saved uid from /proc status', () => {
    expect(uidsOfStatus('Name:\tsleep\nUid:\t997\t997\t997\t997\nGid:\t1\t1\t1\t1\n')).toEqual([
      997, 997, 997,
    ]);
    expect(uidsOfStatus('Name:\tx\n')).toEqual([]);
  });
  it('a zombie counts as gone', () => {
    expect(isZombieStatus('State:\tZ (zombie)\n')).toBe(true);
    expect(isZombieStatus('State:\tS (sleeping)\n')).toBe(false);
  });
});

describe('ACL listings (pure)', () => {
  it("reads getfacl --skip-base: each file's entries beyond the mode bits, odd names unescaped", () => {
    const listing = [
      '# file: /w/tree',
      '# owner: root',
      '# group: root',
      'user::rwx',
      'user:997:--x',
      'group::---',
      'mask::--x',
      'other::---',
      'default:user::rwx',
      '',
      '# file: /w/a\\012b c',
      'user::rw-',
      'group::r--',
      'mask::r--',
      'other::r--',
      '',
    ].join('\n');
    expect([...parseAcls(listing)]).toEqual([
      ['/w/tree', ['user:997:--x', 'mask::--x', 'default:user::rwx']],
      ['/w/a\nb c', ['mask::r--']],
    ]);
  });
});

describe('agent users (pure)', () => {
  it('parses getent passwd lines and refuses garbage', () => {
    expect(parsePasswdLine('gemini-agent-3:x:997:993:gemini-run agent:/nonexistent:/bin/sh')).toEqual(user);
    expect(parsePasswdLine('nope')).toBeUndefined();
    expect(parsePasswdLine('a:x:b:c:d:e:f')).toBeUndefined();
  });
  it('creates a system user in its own group and in gemini-agents, with a real shell and no sudo group', () => {
    const [group, add] = createUserCommands('gemini-agent-1');
    expect(group).toEqual(['groupadd', '--system', '-f', 'gemini-agents']);
    expect(add).toContain('--user-group');
    expect(add?.join(' ')).toContain('--groups gemini-agents');
    expect(add?.join(' ')).toContain('--shell /bin/sh');
    expect(add?.join(' ')).not.toMatch(/sudo|docker/);
  });
  it('switches users with no_new_privs: as root by setpriv, otherwise through sudo -n', () => {
    expect(runAsPrefix(user, 'root')).toEqual([
      'setpriv',
      '--reuid=997',
      '--regid=993',
      '--clear-groups',
      '--no-new-privs',
      '--',
    ]);
    expect(runAsPrefix(user, 'sudo')).toEqual([
      'sudo',
      '-n',
      '-u',
      'gemini-agent-3',
      '--',
      'setpriv',
      '--no-new-privs',
      '--',
    ]);
    expect(runAsPrefix(user, 'agent-sudo')).toEqual(runAsPrefix(user, 'sudo'));
  });
  it("reaps with kill(-1) as the agent's own uid", () => {
    expect(reapArgv(user, 'sudo')).toEqual([
      'sudo',
      '-n',
      '-u',
      'gemini-agent-3',
      '--',
      'sh',
      '-c',
      'kill -KILL -1',
    ]);
    expect(reapArgv(user, 'root').slice(-3)).toEqual(['sh', '-c', 'kill -KILL -1']);
  });
  it('a claim is live only while its process runs with the same start time', () => {
    const startOf = (pid: number) => (pid === 42 ? '1000' : undefined);
    expect(claimIsLive('42 1000\n', startOf)).toBe(true);
    expect(claimIsLive('42 999\n', startOf)).toBe(false); // the pid was reused by another process
    expect(claimIsLive('43 1000\n', startOf)).toBe(false);
    expect(claimIsLive('garbage', startOf)).toBe(false);
  });
});

describe('file access (pure)', () => {
  it('opens trees to the agent, and to a non-root action through default entries', () => {
    expect(treeAclSpec(997, 0)).toBe('u:997:rwX,d:u:997:rwX');
    expect(treeAclSpec(997, 1001)).toBe('u:997:rwX,d:u:997:rwX,u:1001:rwX,d:u:1001:rwX');
  });
  it('lists every directory above a path', () => {
    expect(ancestorsOf('/home/runner/work/repo')).toEqual([
      '/',
      '/home',
      '/home/runner',
      '/home/runner/work',
    ]);
  });
  it('grants traverse only where it is ours to grant', () => {
    expect(traverseDecision({ uid: 1001, mode: 0o40755 }, 1001)).toBe('ok');
    expect(traverseDecision({ uid: 1001, mode: 0o40750 }, 1001)).toBe('grant');
    expect(traverseDecision({ uid: 0, mode: 0o40700 }, 1001)).toBe('blocked');
    expect(traverseDecision({ uid: 1001, mode: 0o40700 }, 0)).toBe('grant');
  });
});

describe('sudoers for self-hosted runners (pure)', () => {
  it('lets the runner start processes as the agent users and nothing else', () => {
    const rule = sudoersRule('runner');
    expect(rule).toContain('runner ALL=(%gemini-agents) NOPASSWD: ALL');
    expect(rule).not.toMatch(/\(ALL|root/);
    expect(() => sudoersRule('runner ALL=(ALL) ALL #')).toThrow(/not a user name/);
  });
  it('with iptables on the host: root for the checked wrapper only, never for iptables itself', () => {
    const rule = sudoersRule('runner', '/usr/local/libexec/gemini-run/iptables');
    const lines = rule.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines).toEqual([
      'runner ALL=(%gemini-agents) NOPASSWD: ALL',
      'runner ALL=(root) NOPASSWD: /usr/local/libexec/gemini-run/iptables',
    ]);
    expect(rule).not.toMatch(/sbin\/ip6?tables/);
  });
  it("sees whether /etc/sudoers reads drop-ins (the official runner image's does not)", () => {
    expect(includesDropIns('root ALL=(ALL:ALL) ALL\n@includedir /etc/sudoers.d\n')).toBe(true);
    expect(includesDropIns('#includedir /etc/sudoers.d\n')).toBe(true);
    expect(includesDropIns('%sudo ALL=(ALL:ALL) NOPASSWD:ALL\n')).toBe(false);
  });
  it('appends the block once and replaces it on a second setup', () => {
    const once = withBlock('%sudo ALL=(ALL:ALL) NOPASSWD:ALL', sudoersRule('runner'));
    const twice = withBlock(once, sudoersRule('builder'));
    expect(once.startsWith('%sudo ALL=(ALL:ALL) NOPASSWD:ALL\n# BEGIN gemini-run')).toBe(true);
    expect(twice.match(/BEGIN gemini-run/g)).toHaveLength(1);
    expect(twice).toContain('builder ALL=');
    expect(twice).not.toContain('runner ALL=');
  });
});

describe('the agent side of the environment', () => {
  const home = homeAt('/agent/home');
  const base = {
    home,
    telemetryFile: '/agent/t.json',
    tmpDir: '/agent/tmp',
    sourceEnv: { PATH: '/usr/bin', HOME: '/home/runner' },
  };
  it('API key auth behind the proxy: a placeholder and the proxy URL, never the key', () => {
    const env = buildEnv({
      ...base,
      auth: { kind: 'api-key', apiKey: 'AIzaREALKEY' },
      modelEndpoint: { kind: 'gemini-api', baseUrl: 'http://127.0.0.1:9', placeholder: 'gemini-run-ph' },
    });
    expect(env.GEMINI_API_KEY).toBe('gemini-run-ph');
    expect(env.GOOGLE_GEMINI_BASE_URL).toBe('http://127.0.0.1:9');
    expect(env.NO_PROXY).toContain('127.0.0.1');
    expect(JSON.stringify(env)).not.toContain('AIzaREALKEY');
  });
  it('OAuth behind the proxy: access-token mode on a placeholder, no creds', () => {
    const creds = { access_token: 'ya29.REAL', refresh_token: '1//REFRESH', expiry_date: 1 };
    const env = buildEnv({
      ...base,
      auth: { kind: 'oauth', creds },
      modelEndpoint: { kind: 'code-assist', baseUrl: 'http://127.0.0.1:9', placeholder: 'gemini-run-ph' },
    });
    expect(env).toMatchObject({
      GOOGLE_GENAI_USE_GCA: 'true',
      GOOGLE_CLOUD_ACCESS_TOKEN: 'gemini-run-ph',
      CODE_ASSIST_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(JSON.stringify(env)).not.toMatch(/ya29\.REAL|1\/\/REFRESH/);
  });
  it("the agent's own HOME and name, and safe.directory for the runner's worktree", () => {
    const env = buildEnv({
      ...base,
      auth: { kind: 'api-key', apiKey: 'k' },
      gitIdentity: { name: 'bot', email: 'bot@example.com' },
      agentUser: { name: 'gemini-agent-3', home: '/agent/home', worktree: '/w' },
    });
    expect(env).toMatchObject({ HOME: '/agent/home', USER: 'gemini-agent-3', GIT_CONFIG_COUNT: '3' });
    expect(env.GIT_CONFIG_KEY_2).toBe('safe.directory');
    expect(env.GIT_CONFIG_VALUE_2).toBe('/w');
  });
  it('starts through the run-as prefix with env -i, the environment on the command line', () => {
    const spec = {
      command: '/node',
      args: ['gemini.js'],
      env: { A: '1', PATH: '/bin' },
      cwd: '/w',
      sessionId: 's',
      runAs: ['sudo', '-n', '-u', 'u', '--'],
    };
    expect(launchArgv(spec)).toEqual({
      file: 'sudo',
      args: ['-n', '-u', 'u', '--', 'env', '-i', 'A=1', 'PATH=/bin', '/node', 'gemini.js'],
      env: { PATH: '/bin' },
    });
    expect(launchArgv({ ...spec, runAs: undefined }).file).toBe('/node');
  });
});

describe('OAuth refresh (pure)', () => {
  it('takes the new token and expiry, and keeps the refresh token when Google sends none', () => {
    const creds = { access_token: 'old', refresh_token: 'r1', expiry_date: 0, scope: 's' };
    expect(applyTokenResponse(creds, { access_token: 'new', expires_in: 3600 }, 1000)).toEqual({
      access_token: 'new',
      refresh_token: 'r1',
      expiry_date: 3_601_000,
      scope: 's',
    });
    expect(
      applyTokenResponse(creds, { access_token: 'n', expires_in: 1, refresh_token: 'r2' }, 0).refresh_token,
    ).toBe('r2');
  });
});
