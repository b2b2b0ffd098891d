/**
 * Vertex AI behind the model proxy, end to end at the engine with the REAL gemini 0.42.0 as the agent's own uid:
 * gemini gets no credentials file, finds the proxy's metadata stand-in through GCE_METADATA_HOST, takes the
 * placeholder as its access token and calls GOOGLE_VERTEX_BASE_URL (the proxy), which swaps in the real token
 * for the fake Vertex endpoint. Runs as root here (the sandbox switches uid itself).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidsOfUid } from '../../src/isolation/procs.js';
import { openSandbox } from '../../src/isolation/sandbox.js';
import { startModelProxy } from '../../src/proxy/model-proxy.js';
import { runAgent } from '../../src/run/engine.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeVertex } from '../harness/fake-vertex.js';
import { GEMINI_BIN } from '../harness/gemini-launcher.js';
import { createWorkRepo } from '../harness/repo.js';
import { runOptions } from '../harness/run-options.js';

const REAL_TOKEN = 'ya29.real-test-' + 'r'.repeat(24);
const KEY_MARKER = 'PRIVATE KEY-----FAKE-SERVICE-ACCOUNT-KEY';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const root = process.getuid?.() === 0;

/** Every file under `dir` (regular files only, symlinks not followed). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function metadataTokenStatus(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(
        `http://${host}/computeMetadata/v1/instance/service-accounts/default/token`,
        { headers: { 'metadata-flavor': 'Google' }, agent: false },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      )
      .on('error', reject);
  });
}

describe.skipIf(!root)('Vertex AI behind the model proxy (as root)', () => {
  for (const mode of ['headless', 'interactive'] as const) {
    it(`${mode}: gemini runs on the placeholder from the metadata stand-in; the agent holds no Google credential`, async () => {
      const parent = await mkdtemp(join(tmpdir(), 'iso-vertex-'));
      cleanups.push(() => rm(parent, { recursive: true, force: true }));
      // What google-github-actions/auth leaves: a 0600 credentials file of the runner's, named by the env.
      const credsDir = join(parent, 'runner-temp');
      await mkdir(credsDir, { recursive: true, mode: 0o700 });
      const credsFile = join(credsDir, 'gha-creds-0123456789abcdef.json');
      await writeFile(
        credsFile,
        JSON.stringify({ type: 'service_account', private_key: `-----BEGIN ${KEY_MARKER}\n` }),
        { mode: 0o600 },
      );

      const look = [
        "{ env | grep -E '^(GOOGLE|GCE|CLOUDSDK|GCLOUD|GCP)' | sort;",
        'echo "home:"; ls -a "$HOME" "$HOME/.config" "$HOME/.gemini" 2>&1;',
        `cat '${credsFile}' 2>&1 | head -3;`,
        '} > seen.txt 2>&1; git add seen.txt && git commit -q -m "what I saw"',
      ].join(' ');
      const vertex = await FakeVertex.start({
        description: 'vertex',
        steps: [
          {
            functionCalls: [
              { name: 'run_shell_command', args: { command: look, description: 'look around' } },
            ],
          },
          { text: 'pong through vertex' },
        ],
      });
      cleanups.push(() => vertex.close());

      const repo = await createWorkRepo();
      cleanups.push(() => repo[Symbol.asyncDispose]());
      const log = createMemoryLogger();
      const sandbox = await openSandbox({
        parentDir: parent,
        worktree: repo.dir,
        reach: [process.execPath, GEMINI_BIN],
        log,
      });
      cleanups.push(() => sandbox.close());
      expect(sandbox.user.uid).not.toBe(0);

      const placeholder = `gemini-run-${'v'.repeat(32)}`;
      const proxyLog: string[] = [];
      const modelProxy = await startModelProxy({
        upstream: vertex.url,
        api: 'vertex',
        placeholder,
        credential: { kind: 'bearer', token: () => Promise.resolve(REAL_TOKEN) },
        metadata: { projectId: 'my-proj', uids: [sandbox.user.uid] },
        log: (l) => proxyLog.push(l),
      });
      cleanups.push(() => modelProxy.close());
      const metadataHost = new URL(modelProxy.url).host;

      // gemini's own environment, read from /proc while it runs (the shell tool's env is filtered by the CLI).
      const environs: string[] = [];
      const watch = setInterval(() => {
        void pidsOfUid(sandbox.user.uid).then((pids) =>
          Promise.all(
            pids.map(async (pid) => {
              const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
              // Only gemini's own node process: the launch wrapper (setpriv/env) is briefly the agent's too, with
              // the pane's environment, before it execs node.
              const argv0 = cmd.split('\0')[0] ?? '';
              if (!/(^|\/)node$/.test(argv0) || !cmd.includes('gemini')) return;
              const env = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
              if (env) environs.push(env.split('\0').join('\n'));
            }),
          ),
        );
      }, 50);
      cleanups.push(() => Promise.resolve(clearInterval(watch)));
      let credsInHome = false;

      const result = await runAgent(
        runOptions({
          repo,
          runDir: join(parent, 'run'),
          task: { title: 'Ping', instruction: 'Say pong.', comments: [], source: { kind: 'local' } },
          auth: { kind: 'vertex-ai', project: 'my-proj', location: 'us-central1' },
          mode,
          env: {
            GOOGLE_APPLICATION_CREDENTIALS: credsFile,
            GOOGLE_GHA_CREDS_PATH: credsFile,
            CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: credsFile,
            GOOGLE_CLOUD_PROJECT: 'my-proj',
            GOOGLE_CLOUD_LOCATION: 'us-central1',
          },
          log,
          sandbox,
          modelEndpoint: { kind: 'vertex', baseUrl: modelProxy.url, placeholder, metadataHost },
          onEvent: () => {
            credsInHome ||= existsSync(
              join(sandbox.dir, 'home', '.config', 'gcloud', 'application_default_credentials.json'),
            );
          },
        }),
      );
      clearInterval(watch);
      expect(result.status, log.lines.join('\n')).toBe('finished');
      expect(result.transcript.finalAnswer).toContain('pong through vertex');
      expect(result.commits).toHaveLength(1);

      // The CLI asked the metadata stand-in (ping + token) and then called Vertex through the proxy.
      expect(proxyLog.some((l) => l.startsWith('GET /computeMetadata/v1/instance ->'))).toBe(true);
      expect(
        proxyLog.some((l) =>
          l.startsWith('GET /computeMetadata/v1/instance/service-accounts/default/token -> 200'),
        ),
      ).toBe(true);
      const modelCalls = vertex.requests.filter((r) => r.servedAs);
      expect(modelCalls.length).toBeGreaterThanOrEqual(2);
      expect(
        modelCalls.some((r) =>
          r.path.startsWith(
            '/v1beta1/projects/my-proj/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
          ),
        ),
      ).toBe(true);
      for (const r of vertex.requests) {
        expect(r.headers.authorization).toBe(`Bearer ${REAL_TOKEN}`);
        expect(JSON.stringify(r)).not.toContain(placeholder);
      }

      // gemini's environment: the proxy and the metadata host, no credential and no path to one.
      expect(environs.length, 'gemini was seen running').toBeGreaterThan(0);
      for (const env of environs) {
        expect(env).toContain(`GCE_METADATA_HOST=${metadataHost}`);
        expect(env).toContain(`GOOGLE_VERTEX_BASE_URL=${modelProxy.url}`);
        expect(env).not.toMatch(/^(GOOGLE_APPLICATION_CREDENTIALS|GOOGLE_GHA_CREDS_PATH|CLOUDSDK_[A-Z_]*)=/m);
        expect(env).not.toContain(credsFile);
        expect(env).not.toContain(REAL_TOKEN);
        expect(env).not.toContain(placeholder);
      }
      // What the agent's shell saw (committed): no key, and the runner's credentials file is out of reach.
      const seen = await readFile(join(repo.dir, 'seen.txt'), 'utf8');
      expect(seen).not.toContain(KEY_MARKER);
      expect(seen).not.toContain(REAL_TOKEN);
      expect(seen).toMatch(/Permission denied/);
      // Nothing in the agent's directory holds a credential.
      expect(credsInHome).toBe(false);
      for (const f of await filesUnder(sandbox.dir)) {
        if ((await stat(f)).size > 5_000_000) continue;
        const text = await readFile(f, 'utf8');
        expect(text.includes(REAL_TOKEN) || text.includes(KEY_MARKER), f).toBe(false);
      }
      // The metadata stand-in answers the agent's uid only: this process (root) is refused.
      expect(await metadataTokenStatus(metadataHost)).toBe(403);
    });
  }
});

describe('Vertex AI behind the model proxy, isolation: none (any user)', () => {
  it('gemini as our own uid gets the placeholder from the metadata stand-in (answering our uid only)', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'vertex-none-'));
    cleanups.push(() => rm(parent, { recursive: true, force: true }));
    const vertex = await FakeVertex.start({ description: 'vertex', steps: [{ text: 'pong, no sandbox' }] });
    cleanups.push(() => vertex.close());
    const repo = await createWorkRepo();
    cleanups.push(() => repo[Symbol.asyncDispose]());
    const placeholder = `gemini-run-${'n'.repeat(32)}`;
    const proxyLog: string[] = [];
    const modelProxy = await startModelProxy({
      upstream: vertex.url,
      api: 'vertex',
      placeholder,
      credential: { kind: 'bearer', token: () => Promise.resolve(REAL_TOKEN) },
      metadata: { projectId: 'my-proj', uids: [process.getuid?.() ?? 0] },
      log: (l) => proxyLog.push(l),
    });
    cleanups.push(() => modelProxy.close());
    const log = createMemoryLogger();
    const result = await runAgent(
      runOptions({
        repo,
        runDir: join(parent, 'run'),
        task: { title: 'Ping', instruction: 'Say pong.', comments: [], source: { kind: 'local' } },
        auth: { kind: 'vertex-ai', project: 'my-proj', location: 'us-central1' },
        mode: 'headless',
        // A HOME without gcloud's ADC file (with one, the action lets gemini use it directly; see model-access).
        env: { HOME: parent, GOOGLE_APPLICATION_CREDENTIALS: join(parent, 'creds.json') },
        log,
        modelEndpoint: {
          kind: 'vertex',
          baseUrl: modelProxy.url,
          placeholder,
          metadataHost: new URL(modelProxy.url).host,
        },
      }),
    );
    expect(result.status, log.lines.join('\n')).toBe('finished');
    expect(result.transcript.finalAnswer).toContain('pong, no sandbox');
    expect(
      proxyLog.some((l) =>
        l.startsWith('GET /computeMetadata/v1/instance/service-accounts/default/token -> 200'),
      ),
    ).toBe(true);
    expect(vertex.requests.length).toBeGreaterThan(0);
    for (const r of vertex.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${REAL_TOKEN}`);
      expect(JSON.stringify(r)).not.toContain(placeholder);
    }
  });
});
