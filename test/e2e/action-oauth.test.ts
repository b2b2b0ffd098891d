/**
 * The action with OAuth creds an operator left on a self-hosted runner host (`gemini-run login`), against the real
 * 0.42.0 and a local stand-in for Google's OAuth and Code Assist endpoints: an expired access token is refreshed
 * by the action (the agent runs on a placeholder behind the model proxy), the refreshed creds are written back
 * to the host, and no token appears anywhere; a refresh Google refuses ends the run before gemini starts.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionWorld } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { OAuthProxy } from '../harness/oauth-proxy.js';

describe('the action with a runner-host OAuth login', () => {
  let world: ActionWorld;
  let proxy: OAuthProxy;
  const worldOf = useActionWorld({ noUnexpectedCalls: true });
  beforeEach(async () => {
    world = worldOf();
    proxy = await OAuthProxy.start({ reply: 'Nothing to change here.' });
  });
  afterEach(async () => {
    await proxy.close();
  });

  it('refreshes an expired token, writes it back to the host, and leaks no token', async () => {
    const host = join(world.tmp, 'runner-home');
    const seeded = await proxy.seedHostLogin(host);

    const r = await world.run({
      script: 'plain-answer',
      // An explicit model: this stand-in for Code Assist answers every call with text, the router's too.
      inputs: { 'gemini-api-key': '', model: 'gemini-2.5-flash' },
      env: { GEMINI_RUN_HOST_HOME: host, ...proxy.env(), NO_PROXY: '' },
    });
    expect(r.main.exitCode, r.main.stdout).toBe(0);
    expect(r.main.outputs.status).toBe('no-changes');
    expect(r.main.stdout).toContain('Wrote the refreshed OAuth creds back to the runner host.');
    expect(r.main.stdout).toContain('The OAuth tokens stay in the model proxy');

    const after = await proxy.hostCreds(host);
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

  it("a refresh Google refuses ends auth-failed at once, with Google's reason, before gemini starts", async () => {
    const refusing = await OAuthProxy.start({ refuseRefresh: 'Token has been expired or revoked.' });
    try {
      const host = join(world.tmp, 'runner-home');
      const seeded = await refusing.seedHostLogin(host);
      const r = await world.run({
        script: 'plain-answer',
        inputs: { 'gemini-api-key': '', model: 'gemini-2.5-flash' },
        env: { GEMINI_RUN_HOST_HOME: host, ...refusing.env(), NO_PROXY: '' },
      });
      expect(r.main.exitCode).toBe(1);
      expect(r.main.outputs.status).toBe('auth-failed');
      expect(r.main.stdout).toMatch(
        /::error::.*Google refused to refresh the OAuth token: Token has been expired or revoked/,
      );
      expect(refusing.requests.filter((x) => x.path.includes('v1internal'))).toHaveLength(0);
      const comment = world.github.comments(1).find((c) => c.body.includes('gemini-run:issue'));
      expect(comment?.body).toContain('Token has been expired or revoked');
      expect(comment?.body).not.toContain(seeded.refresh_token);
    } finally {
      await refusing.close();
    }
  });
});
