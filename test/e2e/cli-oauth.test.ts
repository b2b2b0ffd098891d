/**
 * Offline OAuth against the real gemini 0.42.0: test/harness/oauth-proxy.ts plays Google's OAuth endpoints
 * (through HTTPS_PROXY with a test CA in NODE_EXTRA_CA_CERTS) and the Code Assist API (CODE_ASSIST_ENDPOINT).
 * Headless `gemini -p` runs with seeded oauth-personal creds in isolated homes.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homeAt, writeBackCreds } from '../../src/gemini/home.js';
import { OWNED_SETTINGS, mergeSettings } from '../../src/gemini/settings.js';
import { CONSUMER_REFUSAL_MESSAGE, OAuthProxy } from '../harness/oauth-proxy.js';

const GEMINI = join(process.cwd(), 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');

interface Home {
  root: string;
  credsFile: string;
}

let proxy: OAuthProxy;
let dirs: string[] = [];

beforeEach(async () => {
  proxy = await OAuthProxy.start();
});

afterEach(async () => {
  await proxy.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});

/** POSTs to the token endpoint itself (not /tokeninfo). */
function tokenCalls() {
  return proxy.requests.filter((r) => r.host === 'oauth2.googleapis.com' && r.path === '/token');
}

async function seededHome(creds: object): Promise<Home> {
  const root = await mkdtemp(join(tmpdir(), 'gemini-run-oauth-'));
  dirs.push(root);
  await mkdir(join(root, '.gemini'), { recursive: true, mode: 0o700 });
  await mkdir(join(root, 'tmp'));
  await mergeSettings(join(root, '.gemini', 'settings.json'), OWNED_SETTINGS('oauth'));
  const credsFile = join(root, '.gemini', 'oauth_creds.json');
  await writeFile(credsFile, JSON.stringify(creds), { mode: 0o600 });
  return { root, credsFile };
}

/** Headless gemini with only the allow-listed environment (no CI, no GITHUB_*). */
function runGemini(
  home: Home,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home.root,
    GEMINI_CLI_HOME: home.root,
    TMPDIR: join(home.root, 'tmp'),
    NO_BROWSER: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    NO_COLOR: '1',
    ...proxy.env(),
  };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [GEMINI, '-p', 'say pong', '-m', 'gemini-2.5-flash', '--skip-trust'],
      {
        env,
        cwd: home.root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

describe('gemini 0.42.0 with oauth-personal creds, offline', () => {
  it('finishes a headless turn with seeded creds (tokeninfo + Code Assist through the fakes)', async () => {
    const creds = proxy.seedCreds();
    const home = await seededHome(creds);
    const r = await runGemini(home);
    expect(r.stderr).not.toMatch(/Manual authorization is required/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(proxy.config.reply);
    expect(proxy.requestsTo('oauth2.googleapis.com', '/tokeninfo')).toHaveLength(1);
    expect(tokenCalls()).toHaveLength(0);
    expect(proxy.requestsTo('127.0.0.1', '/v1internal:loadCodeAssist').length).toBeGreaterThan(0);
    expect(proxy.requestsTo('127.0.0.1', '/v1internal:streamGenerateContent').length).toBe(1);
    expect(proxy.refusedTunnels).toEqual([]);
    // the account is cached from userinfo
    expect(
      JSON.parse(await readFile(join(home.root, '.gemini', 'google_accounts.json'), 'utf8')),
    ).toMatchObject({
      active: proxy.config.email,
    });
  });

  it('refreshes an expired access token silently and rewrites oauth_creds.json', async () => {
    const creds = proxy.seedCreds({ expired: true });
    const home = await seededHome(creds);
    const r = await runGemini(home);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(proxy.config.reply);
    const refreshes = tokenCalls();
    expect(refreshes).toHaveLength(1);
    expect(new URLSearchParams(refreshes[0]?.body).get('grant_type')).toBe('refresh_token');
    const after = JSON.parse(await readFile(home.credsFile, 'utf8')) as Record<string, unknown>;
    expect(after.access_token).not.toBe(creds.access_token);
    expect(proxy.accepts(after.access_token as string)).toBe(true);
    expect(after.expiry_date as number).toBeGreaterThan(Date.now());
    // google-auth-library keeps the refresh token (the endpoint does not return one on refresh)
    expect(after.refresh_token).toBe(creds.refresh_token);

    // ...and the adapter writes the refreshed creds back to the runner host the seeded ones came from.
    const host = await seededHome(creds);
    const wrote = await writeBackCreds(homeAt(home.root), { kind: 'oauth', creds, hostHome: host.root });
    expect(wrote).toBe(true);
    const onHost = JSON.parse(await readFile(host.credsFile, 'utf8')) as Record<string, unknown>;
    expect(onHost.access_token).toBe(after.access_token);
    expect(onHost.refresh_token).toBe(creds.refresh_token);
  });

  it('fails fast when the refresh is refused (exit 41; the CLI does not relay the server reason headless)', async () => {
    proxy.config.refuseRefresh = 'Token has been expired or revoked.';
    const home = await seededHome(proxy.seedCreds({ expired: true }));
    const r = await runGemini(home);
    expect(r.code).toBe(41);
    expect(r.ms).toBeLessThan(20_000);
    expect(tokenCalls()).toHaveLength(1);
    // Live 0.42.0: the refusal is only debug-logged; headless then ends with the manual-authorization error.
    expect(r.stderr).toContain('Manual authorization is required but the current session is non-interactive');
    expect(proxy.requestsTo('127.0.0.1', '/v1internal:streamGenerateContent')).toHaveLength(0);
  });

  it("reports Google's refusal of a consumer account with the server's reasonMessage", async () => {
    proxy.config.refuseAccount = CONSUMER_REFUSAL_MESSAGE;
    const home = await seededHome(proxy.seedCreds());
    const r = await runGemini(home);
    // Live 0.42.0: exit 1, "An unexpected critical error occurred:IneligibleTierError: <reasonMessage>".
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `An unexpected critical error occurred:IneligibleTierError: ${CONSUMER_REFUSAL_MESSAGE}`,
    );
    expect(proxy.requestsTo('127.0.0.1', '/v1internal:streamGenerateContent')).toHaveLength(0);
  });
});
