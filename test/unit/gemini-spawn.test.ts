import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeAt } from '../../src/gemini/home.js';
import {
  ENV_ALLOW_LIST,
  FIXED_INSTRUCTION,
  buildEnv,
  buildHeadlessSpec,
  buildInteractiveSpec,
  heapLimitMb,
  newSessionId,
} from '../../src/gemini/spawn.js';
import type { AuthConfig } from '../../src/domain/types.js';
import { hostileEnv } from '../harness/hostile-env.js';

const GEMINI = resolve('node_modules/@google/gemini-cli/bundle/gemini.js');
const home = homeAt('/runs/1/home');

function envFor(auth: AuthConfig, extra: Partial<Parameters<typeof buildEnv>[0]> = {}) {
  return buildEnv({
    home,
    auth,
    telemetryFile: '/runs/1/telemetry.json',
    tmpDir: '/runs/1/tmp',
    sourceEnv: hostileEnv,
    ...extra,
  });
}

describe('buildEnv', () => {
  it('is an allow-list: no CI, no GitHub/Actions/input/runner variables, no other secrets', () => {
    for (const auth of [
      { kind: 'api-key', apiKey: 'AIza' },
      { kind: 'vertex-ai', project: 'p', location: 'l' },
      { kind: 'oauth', creds: { access_token: 'x' } },
    ] satisfies AuthConfig[]) {
      const env = envFor(auth);
      for (const name of Object.keys(env)) {
        expect(name).not.toMatch(
          /^(CI|GITHUB_.*|GH_TOKEN|ACTIONS_.*|INPUT_.*|RUNNER_.*|NPM_TOKEN|AWS_.*|OTEL_EXPORTER.*|GEMINI_CLI_INTEGRATION_TEST|NODE_OPTIONS)$/,
        );
      }
      expect(Object.values(env).join('\n')).not.toMatch(/SECRET|evil/);
    }
  });

  it('sets home, per-run TMPDIR, no-browser, telemetry with a short batch delay, and no relaunch', () => {
    const env = envFor({ kind: 'api-key', apiKey: 'AIza' });
    expect(env).toMatchObject({
      PATH: '/usr/bin:/bin',
      HOME: '/home/runner',
      LANG: 'C.UTF-8',
      LC_CTYPE: 'C.UTF-8',
      SHELL: '/bin/bash',
      TERM: 'xterm-256color',
      TMPDIR: '/runs/1/tmp',
      GEMINI_CLI_HOME: '/runs/1/home',
      NO_BROWSER: 'true',
      GEMINI_TELEMETRY_ENABLED: 'true',
      GEMINI_TELEMETRY_TARGET: 'local',
      GEMINI_TELEMETRY_OUTFILE: '/runs/1/telemetry.json',
      GEMINI_TELEMETRY_LOG_PROMPTS: 'false',
      OTEL_BLRP_SCHEDULE_DELAY: '50',
      GEMINI_CLI_NO_RELAUNCH: 'true',
      HTTPS_PROXY: 'http://proxy:3128',
      no_proxy: 'localhost',
      NODE_EXTRA_CA_CERTS: '/ca.pem',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
      GIT_AUTHOR_NAME: 'Runner',
      GEMINI_API_KEY: 'AIza',
    });
    expect(
      envFor({ kind: 'api-key', apiKey: 'k' }, { relaunch: true }).GEMINI_CLI_NO_RELAUNCH,
    ).toBeUndefined();
  });

  it('auth variables only for their kind', () => {
    const api = envFor({ kind: 'api-key', apiKey: 'AIza' });
    expect(api.GOOGLE_GENAI_USE_VERTEXAI).toBeUndefined();
    expect(api.GOOGLE_APPLICATION_CREDENTIALS).toBeUndefined();
    expect(api.CLOUDSDK_CORE_PROJECT).toBeUndefined();

    const vertex = envFor({ kind: 'vertex-ai', project: 'p', location: 'europe-west4' });
    expect(vertex).toMatchObject({
      GOOGLE_GENAI_USE_VERTEXAI: 'true',
      GOOGLE_CLOUD_PROJECT: 'p',
      GOOGLE_CLOUD_LOCATION: 'europe-west4',
      GOOGLE_APPLICATION_CREDENTIALS: '/gha-creds.json',
      CLOUDSDK_CORE_PROJECT: 'proj',
    });
    expect(vertex.GEMINI_API_KEY).toBeUndefined();

    const oauth = envFor({ kind: 'oauth', creds: { access_token: 'x' }, project: 'ca-proj' });
    expect(oauth.GOOGLE_CLOUD_PROJECT).toBe('ca-proj');
    expect(oauth.GEMINI_API_KEY).toBeUndefined();
    expect(oauth.GOOGLE_APPLICATION_CREDENTIALS).toBeUndefined();
    expect(Object.values(oauth)).not.toContain('x');
  });

  it('a given git identity wins over the source env', () => {
    const env = envFor({ kind: 'api-key', apiKey: 'k' }, { gitIdentity: { name: 'Bot', email: 'bot@x' } });
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'Bot',
      GIT_CONFIG_KEY_1: 'user.email',
      GIT_CONFIG_VALUE_1: 'bot@x',
    });
    // GIT_AUTHOR_* from the source would beat the config; they are not copied when an identity is given.
    for (const k of ENV_ALLOW_LIST.gitIdentity) expect(env[k]).toBeUndefined();
  });

  it('the allow-list names no forbidden variable', () => {
    const all = JSON.stringify(ENV_ALLOW_LIST);
    expect(all).not.toMatch(/"(CI|GITHUB_[A-Z_]*|ACTIONS_[A-Z_]*|INPUT_[A-Z_]*)"/);
  });
});

describe('specs', () => {
  const env = { GEMINI_CLI_NO_RELAUNCH: 'true', PATH: '/bin' };
  it('interactive argv: fixed instruction last, fresh session id, model flag; the bundle runs under node with the heap flag', () => {
    const spec = buildInteractiveSpec({
      geminiPath: GEMINI,
      worktree: '/wt',
      approvalMode: 'yolo',
      model: 'gemini-2.5-pro',
      env,
    });
    expect(spec.command).toBe(process.execPath);
    expect(spec.args[0]).toBe(`--max-old-space-size=${heapLimitMb()}`);
    expect(spec.args[1]).toMatch(/bundle\/gemini\.js$/);
    expect(spec.args.slice(2)).toEqual([
      '--approval-mode',
      'yolo',
      '--skip-trust',
      '--session-id',
      spec.sessionId,
      '-m',
      'gemini-2.5-pro',
      FIXED_INSTRUCTION,
    ]);
    expect(spec.sessionId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(spec.cwd).toBe('/wt');
    expect(spec.env.NODE_OPTIONS).toBeUndefined();
    expect(
      buildInteractiveSpec({ geminiPath: GEMINI, worktree: '/wt', approvalMode: 'yolo', env }).sessionId,
    ).not.toBe(spec.sessionId);
  });

  it('resume replaces --session-id; no model = no -m; a non-JS gemini gets the heap via NODE_OPTIONS', () => {
    const spec = buildInteractiveSpec({
      geminiPath: '/bin/sh',
      worktree: '/wt',
      approvalMode: 'auto_edit',
      resumeSessionId: 'abc-1',
      env,
    });
    expect(spec.command).toBe('/bin/sh');
    expect(spec.args).toEqual([
      '--approval-mode',
      'auto_edit',
      '--skip-trust',
      '--resume',
      'abc-1',
      FIXED_INSTRUCTION,
    ]);
    expect(spec.sessionId).toBe('abc-1');
    expect(spec.env.NODE_OPTIONS).toBe(`--max-old-space-size=${heapLimitMb()}`);
    const relaunching = buildInteractiveSpec({
      geminiPath: GEMINI,
      worktree: '/wt',
      approvalMode: 'yolo',
      sessionId: 's',
      env: { PATH: '/bin' },
    });
    expect(relaunching.command).toBe(GEMINI);
    expect(() =>
      buildInteractiveSpec({
        geminiPath: GEMINI,
        worktree: '/wt',
        approvalMode: 'yolo',
        sessionId: 'a b',
        env,
      }),
    ).toThrow();
  });

  it('headless argv binds the prompt with = and carries the task on stdin only', () => {
    const spec = buildHeadlessSpec({
      geminiPath: '/bin/gemini',
      worktree: '/wt',
      approvalMode: 'yolo',
      env: { PATH: '/bin' },
      stdin: 'TASK',
    });
    expect(spec.args).toEqual([
      '--approval-mode',
      'yolo',
      '--skip-trust',
      '--session-id',
      spec.sessionId,
      '--output-format',
      'stream-json',
      `--prompt=${FIXED_INSTRUCTION}`,
    ]);
    expect(spec.stdin).toBe('TASK');
    expect(spec.args.join(' ')).not.toContain('TASK');
  });

  it('newSessionId is fresh and CLI-valid', () => {
    const ids = new Set(Array.from({ length: 50 }, newSessionId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9-_]+$/);
  });
});

describe('buildEnv: network restricted', () => {
  it("points every proxy variable at the run's forward proxy, and keeps loopback direct", () => {
    const env = envFor(
      { kind: 'api-key', apiKey: 'k' },
      { sourceEnv: { PATH: '/bin', HTTPS_PROXY: 'http://corp:3128' }, egressProxy: 'http://127.0.0.1:4000' },
    );
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'])
      expect(env[name]).toBe('http://127.0.0.1:4000');
    expect(env.NO_PROXY?.split(',')).toEqual(['127.0.0.1', 'localhost', '::1']);
    expect(env.no_proxy).toBe(env.NO_PROXY);
  });
});
