import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIsolatedHome, homeAt } from '../../src/gemini/home.js';
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

const GEMINI = resolve('node_modules/@google/gemini-cli/bundle/gemini.js');
const home = homeAt('/runs/1/home');
const hostileEnv: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/runner',
  USER: 'runner',
  LANG: 'C.UTF-8',
  LC_CTYPE: 'C.UTF-8',
  SHELL: '/bin/bash',
  TMPDIR: '/shared/tmp',
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  GITHUB_TOKEN: 'ghs_SECRET',
  GH_TOKEN: 'ghs_SECRET2',
  ACTIONS_RUNTIME_TOKEN: 'SECRET3',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'SECRET4',
  INPUT_GITHUB_TOKEN: 'SECRET5',
  'INPUT_GEMINI-API-KEY': 'SECRET6',
  RUNNER_TEMP: '/runner/tmp',
  NPM_TOKEN: 'SECRET7',
  AWS_SECRET_ACCESS_KEY: 'SECRET8',
  NODE_OPTIONS: '--require /evil.js',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector',
  GEMINI_CLI_INTEGRATION_TEST: 'true',
  HTTPS_PROXY: 'http://proxy:3128',
  no_proxy: 'localhost',
  NODE_EXTRA_CA_CERTS: '/ca.pem',
  GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
  GOOGLE_APPLICATION_CREDENTIALS: '/gha-creds.json',
  CLOUDSDK_CORE_PROJECT: 'proj',
  GIT_AUTHOR_NAME: 'Runner',
};

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

describe('live: the real gemini 0.42.0, headless, against a local fake API', () => {
  let dir: string;
  let server: Server | undefined;
  const requests: { url: string; body: string }[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gr-spawn-'));
  });
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await rm(dir, { recursive: true, force: true });
  });

  it('runs our spec: task from stdin reaches the model before the fixed prompt, never argv', async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        requests.push({ url: req.url ?? '', body });
        if (req.url?.includes(':streamGenerateContent')) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(
            'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":1,"totalTokenCount":11}}\r\n\r\n',
          );
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"totalTokens":1}');
        }
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const auth: AuthConfig = { kind: 'api-key', apiKey: 'fake-key' };
    const gh = await createIsolatedHome(join(dir, 'home'), auth);
    const wt = join(dir, 'wt');
    const tmp = join(dir, 'tmp');
    await fs.mkdir(wt);
    await fs.mkdir(tmp);
    const env = buildEnv({
      home: gh,
      auth,
      telemetryFile: join(dir, 'telemetry.json'),
      tmpDir: tmp,
      // The hostile env minus its (unreachable) proxy and CA: the CLI would send even 127.0.0.1 through it.
      sourceEnv: {
        ...hostileEnv,
        HTTPS_PROXY: undefined,
        NODE_EXTRA_CA_CERTS: undefined,
        PATH: process.env.PATH,
        HOME: dir,
        GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
      },
    });
    const task = 'SENTINEL-TASK-4711: add a README';
    const spec = buildHeadlessSpec({
      geminiPath: GEMINI,
      worktree: wt,
      approvalMode: 'yolo',
      model: 'gemini-2.5-flash',
      env,
      stdin: task,
    });
    expect(spec.args.join(' ')).not.toContain('SENTINEL');

    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin.end(spec.stdin);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((r) => child.on('close', r));
    clearTimeout(timer);
    expect(code, err).toBe(0);

    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; session_id?: string; content?: string; status?: string });
    expect(lines[0]).toMatchObject({ type: 'init', session_id: spec.sessionId });
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'success' });
    const userMsg = lines.find((l) => l.type === 'message' && l.content?.includes('SENTINEL'));
    expect(userMsg?.content).toBe(`${task}\n\n${FIXED_INSTRUCTION}`);
    const gen = requests.find((r) => r.url.includes(':streamGenerateContent'));
    expect(gen?.body).toContain('SENTINEL-TASK-4711');
    // The telemetry file (which copies argv into every record) has no task text.
    const telemetry = await fs.readFile(join(dir, 'telemetry.json'), 'utf8');
    expect(telemetry).toContain('--session-id'); // argv is in there...
    expect(telemetry).not.toContain('SENTINEL'); // ...the task is not
    // Our settings stopped the auto-updater: nothing was installed into the tmp dir or the home.
    expect(await fs.readdir(tmp).then((f) => f.filter((n) => n.includes('npm')))).toEqual([]);
  });
});
