/**
 * The action with OAuth creds an operator left on a self-hosted runner host (`gemini-run login`), against the real
 * 0.42.0 and a local stand-in for Google's OAuth and Code Assist endpoints: an expired access token is refreshed
 * silently, the refreshed creds are written back to the host, and no token appears anywhere.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionWorld } from '../harness/action-job.js';
import { OAuthProxy } from '../harness/oauth-proxy.js';

describe('the action with a runner-host OAuth login', () => {
  let world: ActionWorld;
  let proxy: OAuthProxy;
  beforeEach(async () => {
    world = await ActionWorld.create();
    await world.checkout();
    proxy = await OAuthProxy.start({ reply: 'Nothing to change here.' });
  });
  afterEach(async () => {
    world.github.assertNoUnexpected();
    await proxy.close();
    await world[Symbol.asyncDispose]();
  });

  it('refreshes an expired token, writes it back to the host, and leaks no token', async () => {
    const host = join(world.tmp, 'runner-home');
    await mkdir(join(host, '.gemini'), { recursive: true, mode: 0o700 });
    const seeded = proxy.seedCreds({ expired: true });
    await writeFile(join(host, '.gemini', 'oauth_creds.json'), JSON.stringify(seeded), { mode: 0o600 });
    await writeFile(
      join(host, '.gemini', 'google_accounts.json'),
      JSON.stringify({ active: 'operator@example.com', old: [] }),
    );

    const r = await world.run({
      script: 'plain-answer',
      // An explicit model: this stand-in for Code Assist answers every call with text, the router's too.
      inputs: { 'gemini-api-key': '', model: 'gemini-2.5-flash' },
      env: { GEMINI_RUN_HOST_HOME: host, ...proxy.env(), NO_PROXY: '' },
    });
    expect(r.main.exitCode, r.main.stdout).toBe(0);
    expect(r.main.outputs.status).toBe('no-changes');
    expect(r.main.stdout).toContain('Wrote the refreshed OAuth creds back to the runner host.');

    const after = JSON.parse(
      await readFile(join(host, '.gemini', 'oauth_creds.json'), 'utf8'),
    ) as typeof seeded;
    expect(after.access_token).not.toBe(seeded.access_token);
    expect(proxy.accepts(after.access_token)).toBe(true);
    expect(after.refresh_token).toBe(seeded.refresh_token);
    expect(after.expiry_date).toBeGreaterThan(Date.now());

    const visible = world.published
      .join('\n')
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n');
    const everything = `${visible}\n${JSON.stringify(world.github.requests.map((x) => x.body))}`;
    for (const token of [seeded.access_token, seeded.refresh_token, after.access_token]) {
      expect(everything).not.toContain(token);
    }
    // The masks were registered, so the runner hides them if anything prints them.
    expect(r.main.stdout).toContain(`::add-mask::${seeded.refresh_token}`);
  });
});
