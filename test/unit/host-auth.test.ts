import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  authFromActionInputs,
  authFromToolkitEnv,
  resolveAuth,
  type AuthInputs,
} from '../../src/host/auth.js';

const none: AuthInputs = {
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
const noMask = () => undefined;

describe('resolveAuth', () => {
  let home: string;
  const fromInputs = (inputs: Partial<AuthInputs>, env: NodeJS.ProcessEnv = {}) =>
    resolveAuth(authFromActionInputs({ ...none, ...inputs }, { HOME: home, ...env }), noMask);
  const fromEnv = (env: NodeJS.ProcessEnv) => resolveAuth(authFromToolkitEnv({ HOME: home, ...env }), noMask);
  const hostLogin = async () => {
    await mkdir(join(home, '.gemini'), { recursive: true });
    await writeFile(join(home, '.gemini', 'oauth_creds.json'), JSON.stringify(creds));
  };
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'gemini-run-auth-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('takes exactly one method and masks its secrets', async () => {
    const masked: string[] = [];
    const mask = (s: string) => void masked.push(s);
    const sources = (inputs: Partial<AuthInputs>) =>
      authFromActionInputs({ ...none, ...inputs }, { HOME: home });
    expect(await resolveAuth(sources({ apiKey: 'k-123' }), mask)).toEqual({
      kind: 'api-key',
      apiKey: 'k-123',
    });
    const oauth = await resolveAuth(
      sources({ oauthCreds: JSON.stringify(creds), googleAccount: 'a@b.c' }),
      mask,
    );
    expect(oauth).toMatchObject({ kind: 'oauth', account: 'a@b.c' });
    expect(masked).toEqual(expect.arrayContaining(['ya29.access-secret', '1//refresh-secret']));
  });

  // One rule set, two sources: each row is run through both hosts wherever the host can express it.
  const oneOfEach: {
    name: string;
    inputs?: Partial<AuthInputs>;
    env?: NodeJS.ProcessEnv;
    login?: boolean;
    want: Record<string, unknown>;
  }[] = [
    { name: 'an API key', inputs: { apiKey: 'k' }, env: { GEMINI_API_KEY: 'k' }, want: { kind: 'api-key' } },
    {
      name: 'an API key beside a host login (the login is the fallback only)',
      inputs: { apiKey: 'k' },
      env: { GEMINI_API_KEY: 'k' },
      login: true,
      want: { kind: 'api-key', apiKey: 'k' },
    },
    {
      name: 'Vertex AI with a project',
      inputs: { useVertexAi: true, googleCloudProject: 'p', googleCloudLocation: 'l' },
      env: { GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_CLOUD_LOCATION: 'l' },
      want: { kind: 'vertex-ai', project: 'p', location: 'l' },
    },
    {
      name: 'OAuth creds given',
      inputs: { oauthCreds: JSON.stringify(creds) },
      want: { kind: 'oauth', creds: { access_token: 'ya29.access-secret' } },
    },
    {
      name: "the host's login",
      inputs: {},
      env: {},
      login: true,
      want: { kind: 'oauth', account: undefined },
    },
  ];
  it.each(oneOfEach)('one kind: $name', async ({ inputs, env, login, want }) => {
    if (login) await hostLogin();
    if (inputs) expect(await fromInputs(inputs)).toMatchObject(want);
    if (env) expect(await fromEnv(env)).toMatchObject(want);
  });

  it('a host login records its home (for the write-back), from either source', async () => {
    await hostLogin();
    expect(await fromInputs({}, { GEMINI_RUN_HOST_HOME: home })).toMatchObject({ hostHome: home });
    expect(await fromEnv({ GEMINI_RUN_HOST_HOME: home })).toMatchObject({ kind: 'oauth', hostHome: home });
  });

  const twoKinds: { name: string; inputs?: Partial<AuthInputs>; env?: NodeJS.ProcessEnv; error: RegExp }[] = [
    {
      name: 'API key and Vertex AI (inputs)',
      inputs: { apiKey: 'k', useVertexAi: true },
      error: /exactly one.*'gemini-api-key' and 'use-vertex-ai'/,
    },
    {
      name: 'OAuth creds and API key (inputs)',
      inputs: { apiKey: 'k', oauthCreds: JSON.stringify(creds) },
      error: /exactly one.*'gemini-oauth-creds' and 'gemini-api-key'/,
    },
    {
      name: 'all three (inputs)',
      inputs: { apiKey: 'k', oauthCreds: JSON.stringify(creds), useVertexAi: true, googleCloudProject: 'p' },
      error: /'gemini-oauth-creds' and 'gemini-api-key' and 'use-vertex-ai': remove all but one/,
    },
    {
      name: 'API key and Vertex AI (environment: the key no longer wins silently)',
      env: { GEMINI_API_KEY: 'k', GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_CLOUD_PROJECT: 'p' },
      error: /exactly one.*GEMINI_API_KEY and GOOGLE_GENAI_USE_VERTEXAI=true: remove all but one/,
    },
  ];
  it.each(twoKinds)('refuses two kinds at once, naming them: $name', async ({ inputs, env, error }) => {
    if (inputs) await expect(fromInputs(inputs)).rejects.toThrow(error);
    if (env) await expect(fromEnv(env)).rejects.toThrow(error);
  });

  it('Vertex AI needs a project, from the input or the environment', async () => {
    await expect(fromInputs({ useVertexAi: true })).rejects.toThrow(
      "Vertex AI needs a project: set 'google-cloud-project' (or GOOGLE_CLOUD_PROJECT, e.g. via google-github-actions/auth).",
    );
    expect(
      await fromInputs({ useVertexAi: true }, { GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_CLOUD_LOCATION: 'l' }),
    ).toEqual({ kind: 'vertex-ai', project: 'p', location: 'l' });
    await expect(fromEnv({ GOOGLE_GENAI_USE_VERTEXAI: 'true' })).rejects.toThrow(
      'Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT in the environment.',
    );
  });

  it('the Code Assist project goes with OAuth from the inputs only', async () => {
    expect(await fromInputs({ oauthCreds: JSON.stringify(creds), googleCloudProject: 'cp' })).toMatchObject({
      kind: 'oauth',
      project: 'cp',
    });
    await hostLogin();
    expect(await fromEnv({ GOOGLE_CLOUD_PROJECT: 'cp' })).toMatchObject({
      kind: 'oauth',
      project: undefined,
    });
  });

  it('falls back to the host login, and says where it looked when there is none', async () => {
    const looked = join(home, '.gemini', 'oauth_creds.json').replace(/[.]/g, '\\.');
    await expect(fromInputs({})).rejects.toThrow(
      new RegExp(
        `No Gemini auth configured: set 'gemini-api-key', 'gemini-oauth-creds' or 'use-vertex-ai', or run 'gemini-run login' on the self-hosted runner \\(looked for ${looked}\\)`,
      ),
    );
    await expect(fromEnv({})).rejects.toThrow(
      new RegExp(
        `No Gemini auth configured: set GEMINI_API_KEY or GOOGLE_GENAI_USE_VERTEXAI=true, or run 'gemini-run login' \\(looked for ${looked}\\)`,
      ),
    );
    await hostLogin();
    expect(await fromInputs({}, { GEMINI_RUN_HOST_HOME: home, HOME: '/nonexistent' })).toMatchObject({
      kind: 'oauth',
      hostHome: home,
    });
  });

  it('creds without a refresh_token are refused: they could not outlive the access token', async () => {
    const { refresh_token: _gone, ...access } = creds;
    const err = await fromInputs({ oauthCreds: JSON.stringify(access) }).catch((e: unknown) => e as Error);
    expect((err as Error).message).toBe(
      "'gemini-oauth-creds' has no refresh_token, so its access token cannot be renewed: paste the whole oauth_creds.json that 'gemini-run login' wrote.",
    );
    expect((err as Error).message).not.toContain('ya29');
  });

  it('a malformed creds input is one line that echoes nothing of it', async () => {
    const err = await fromInputs({ oauthCreds: '{"access_token":"ya29.leak' }).catch(
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toContain('ya29.leak');
    expect((err as Error).message).not.toContain('\n');
  });
});
