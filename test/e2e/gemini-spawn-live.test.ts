/**
 * The engine's headless spec run by the real gemini 0.42.0 against a local fake API: the task reaches the model
 * from stdin, never argv (the pure checks of the spec are in test/unit/gemini-spawn.test.ts).
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIsolatedHome } from '../../src/gemini/home.js';
import { FIXED_INSTRUCTION, buildEnv, buildHeadlessSpec } from '../../src/gemini/spawn.js';
import type { AuthConfig } from '../../src/domain/types.js';
import { hostileEnv } from '../harness/hostile-env.js';

const GEMINI = resolve('node_modules/@google/gemini-cli/bundle/gemini.js');

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
