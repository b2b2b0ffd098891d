import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createIsolatedHome,
  decideWriteBack,
  readHostCreds,
  removeHome,
  writeBackCreds,
} from '../../src/gemini/home.js';
import { readSettings } from '../../src/gemini/settings.js';
import type { AuthConfig, OAuthCreds } from '../../src/domain/types.js';
import { UserError } from '../../src/util/errors.js';

const HOUR = 3600_000;
const seeded: OAuthCreds = { access_token: 'at-1', refresh_token: 'rt-1', expiry_date: Date.now() + HOUR };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gr-home-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mode = async (p: string): Promise<number> => (await fs.stat(p)).mode & 0o777;

describe('createIsolatedHome', () => {
  it('oauth: 0700 dirs, 0600 creds and accounts, settings merged', async () => {
    const home = await createIsolatedHome(join(dir, 'run'), {
      kind: 'oauth',
      creds: seeded,
      account: 'a@example.com',
    });
    expect(home.root).toBe(join(dir, 'run'));
    expect(home.geminiDir).toBe(join(dir, 'run', '.gemini'));
    expect(await mode(home.root)).toBe(0o700);
    expect(await mode(home.geminiDir)).toBe(0o700);
    const credsFile = join(home.geminiDir, 'oauth_creds.json');
    expect(await mode(credsFile)).toBe(0o600);
    expect(JSON.parse(await fs.readFile(credsFile, 'utf8'))).toEqual(seeded);
    const accounts = join(home.geminiDir, 'google_accounts.json');
    expect(await mode(accounts)).toBe(0o600);
    expect(JSON.parse(await fs.readFile(accounts, 'utf8'))).toEqual({ active: 'a@example.com', old: [] });
    const settings = await readSettings(home.settingsPath);
    expect(settings).toMatchObject({
      security: { auth: { selectedType: 'oauth-personal' } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
    });
  });

  it('tightens an existing (mkdtemp-like) 0755 directory', async () => {
    const root = join(dir, 'loose');
    await fs.mkdir(root, { mode: 0o755 });
    await fs.chmod(root, 0o755);
    await createIsolatedHome(root, { kind: 'api-key', apiKey: 'k' });
    expect(await mode(root)).toBe(0o700);
  });

  it.each<AuthConfig>([
    { kind: 'api-key', apiKey: 'AIza-secret' },
    { kind: 'vertex-ai', project: 'p', location: 'us-central1' },
  ])('$kind: no creds file, no secret on disk', async (auth) => {
    const home = await createIsolatedHome(join(dir, 'run'), auth);
    const files = (await fs.readdir(home.geminiDir)).sort();
    expect(files).toEqual(['settings.json', 'settings.json.gemini-run.json']);
    for (const f of files) expect(await fs.readFile(join(home.geminiDir, f), 'utf8')).not.toContain('AIza');
    expect((await readSettings(home.settingsPath)).security).toEqual({
      auth: { selectedType: auth.kind === 'api-key' ? 'gemini-api-key' : 'vertex-ai' },
      // The agent's shell commands do not inherit the model key (nor anything else secret-shaped).
      environmentVariableRedaction: { enabled: true },
    });
    expect((await readSettings(home.settingsPath)).tools).toEqual({
      shell: { enableInteractiveShell: false },
    });
  });
});

describe('host creds', () => {
  async function hostWith(creds: OAuthCreds | string, account?: string): Promise<string> {
    const host = join(dir, 'host');
    await fs.mkdir(join(host, '.gemini'), { recursive: true });
    await fs.writeFile(
      join(host, '.gemini', 'oauth_creds.json'),
      typeof creds === 'string' ? creds : JSON.stringify(creds),
      { mode: 0o600 },
    );
    if (account)
      await fs.writeFile(
        join(host, '.gemini', 'google_accounts.json'),
        JSON.stringify({ active: account, old: [] }),
      );
    return host;
  }

  it('reads creds and account; none → undefined; damaged → UserError naming the file', async () => {
    expect(await readHostCreds(join(dir, 'nobody'))).toBeUndefined();
    const host = await hostWith(seeded, 'op@example.com');
    expect(await readHostCreds(host)).toEqual({ creds: seeded, account: 'op@example.com' });
    await fs.writeFile(join(host, '.gemini', 'oauth_creds.json'), '{"access_token": "at-1"');
    await expect(readHostCreds(host)).rejects.toThrow(UserError);
    await expect(readHostCreds(host)).rejects.toThrow(join(host, '.gemini', 'oauth_creds.json'));
  });

  it('writes refreshed creds back to the host atomically with 0600, only when they changed', async () => {
    const host = await hostWith(seeded);
    const auth: AuthConfig = { kind: 'oauth', creds: seeded, hostHome: host };
    const home = await createIsolatedHome(join(dir, 'run'), auth);
    expect(await writeBackCreds(home, auth)).toBe(false); // untouched by the run

    const refreshed = { ...seeded, access_token: 'at-2', expiry_date: seeded.expiry_date! + HOUR };
    await fs.writeFile(join(home.geminiDir, 'oauth_creds.json'), JSON.stringify(refreshed));
    const hostFile = join(host, '.gemini', 'oauth_creds.json');
    await fs.chmod(hostFile, 0o644);
    expect(await writeBackCreds(home, auth)).toBe(true);
    expect(JSON.parse(await fs.readFile(hostFile, 'utf8'))).toEqual(refreshed);
    expect(await mode(hostFile)).toBe(0o600);
    expect((await fs.readdir(join(host, '.gemini'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await writeBackCreds(home, auth)).toBe(false); // host already has them
  });

  it('never resurrects creds after a logout, never writes for other auth kinds', async () => {
    const host = await hostWith(seeded);
    const auth: AuthConfig = { kind: 'oauth', creds: seeded, hostHome: host };
    const home = await createIsolatedHome(join(dir, 'run'), auth);
    await fs.writeFile(
      join(home.geminiDir, 'oauth_creds.json'),
      JSON.stringify({ ...seeded, access_token: 'at-2' }),
    );
    await fs.rm(join(host, '.gemini', 'oauth_creds.json'));
    expect(await writeBackCreds(home, auth)).toBe(false);
    await expect(fs.access(join(host, '.gemini', 'oauth_creds.json'))).rejects.toThrow();
    expect(await writeBackCreds(home, { kind: 'api-key', apiKey: 'k' })).toBe(false);
    expect(await writeBackCreds(home, { kind: 'oauth', creds: seeded })).toBe(false);
  });

  it('decideWriteBack: older than the host → no; lost refresh_token → keeps the host one', () => {
    const host = { ...seeded, access_token: 'at-3', expiry_date: seeded.expiry_date! + 2 * HOUR };
    const run = { ...seeded, access_token: 'at-2', expiry_date: seeded.expiry_date! + HOUR };
    expect(decideWriteBack(seeded, run, host)).toBeUndefined();
    const noRefresh: OAuthCreds = { access_token: 'at-4', expiry_date: seeded.expiry_date! + 3 * HOUR };
    expect(decideWriteBack(seeded, noRefresh, seeded)).toEqual({ ...noRefresh, refresh_token: 'rt-1' });
  });
});

describe('removeHome', () => {
  it('removes a run home, is idempotent, and refuses anything else', async () => {
    const home = await createIsolatedHome(join(dir, 'run'), { kind: 'api-key', apiKey: 'k' });
    await removeHome(home);
    await expect(fs.access(home.root)).rejects.toThrow();
    await removeHome(home);
    const other = join(dir, 'precious');
    await fs.mkdir(other);
    await expect(removeHome(other)).rejects.toThrow(/not a gemini-run home/);
    await fs.access(other);
  });
});
