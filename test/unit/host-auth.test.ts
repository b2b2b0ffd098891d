import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAuth } from '../../src/host/auth.js';

const none = {
  oauthCreds: '',
  googleAccount: '',
  apiKey: '',
  useVertexAi: false,
  googleCloudProject: '',
  googleCloudLocation: '',
};
const creds = {
  access_token: 'ya29.access-secret',
  refresh_token: '1//refresh-secret',
  expiry_date: Date.now() + 3600_000,
};

describe('resolveAuth', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'gemini-run-auth-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('takes exactly one method and masks its secrets', async () => {
    const masked: string[] = [];
    const mask = (s: string) => void masked.push(s);
    expect(await resolveAuth({ ...none, apiKey: 'k-123' }, { HOME: home }, mask)).toEqual({
      kind: 'api-key',
      apiKey: 'k-123',
    });
    const oauth = await resolveAuth(
      { ...none, oauthCreds: JSON.stringify(creds), googleAccount: 'a@b.c' },
      { HOME: home },
      mask,
    );
    expect(oauth).toMatchObject({ kind: 'oauth', account: 'a@b.c' });
    expect(masked).toEqual(expect.arrayContaining(['ya29.access-secret', '1//refresh-secret']));
  });

  it('refuses two methods at once, naming them', async () => {
    await expect(
      resolveAuth({ ...none, apiKey: 'k', useVertexAi: true }, { HOME: home }, () => undefined),
    ).rejects.toThrow(/exactly one.*'gemini-api-key' and 'use-vertex-ai'/);
  });

  it('Vertex AI needs a project, from the input or the environment', async () => {
    await expect(
      resolveAuth({ ...none, useVertexAi: true }, { HOME: home }, () => undefined),
    ).rejects.toThrow(/project/);
    expect(
      await resolveAuth(
        { ...none, useVertexAi: true },
        { HOME: home, GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_CLOUD_LOCATION: 'l' },
        () => undefined,
      ),
    ).toEqual({ kind: 'vertex-ai', project: 'p', location: 'l' });
  });

  it('falls back to the runner host login, and says where it looked when there is none', async () => {
    await expect(resolveAuth(none, { HOME: home }, () => undefined)).rejects.toThrow(
      new RegExp(
        `No Gemini auth configured.*${join(home, '.gemini', 'oauth_creds.json').replace(/[.]/g, '\\.')}`,
      ),
    );
    await mkdir(join(home, '.gemini'), { recursive: true });
    await writeFile(join(home, '.gemini', 'oauth_creds.json'), JSON.stringify(creds));
    const auth = await resolveAuth(none, { GEMINI_RUN_HOST_HOME: home }, () => undefined);
    expect(auth).toMatchObject({ kind: 'oauth', hostHome: home });
  });

  it('a malformed creds input is one line that echoes nothing of it', async () => {
    const err = await resolveAuth(
      { ...none, oauthCreds: '{"access_token":"ya29.leak' },
      { HOME: home },
      () => undefined,
    ).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toContain('ya29.leak');
    expect((err as Error).message).not.toContain('\n');
  });
});
