/**
 * The one fixture every action e2e file sets its world up with: `useActionWorld()` makes a simulated repository and
 * services (test/harness/action-job.ts) per test, or one per describe (`shared`), disposes of it, and after every
 * test checks that nothing the step published during it holds a secret: logs, outputs, job summary, telemetry,
 * artifacts, every body sent to GitHub, the pull requests. A leak fails the test that leaked. And every request the
 * step sent to the fake GitHub, with the fake's answer, must be one GitHub's REST description allows
 * (test/harness/openapi-check.ts): the action's requests are valid and the fake answers in GitHub's shapes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { ActionWorld, GEMINI_API_KEY, GITHUB_TOKEN } from './action-job.js';
import { assertConformsToGitHub } from './openapi-check.js';

export interface ActionWorldOptions {
  /** One world for every test of the describe (set up before all of them) instead of a fresh one per test. */
  shared?: boolean;
  /** Makes the world (default: `ActionWorld.create()`, then a checkout of main). */
  create?: () => Promise<ActionWorld>;
  /** Also fail a test after which the fake GitHub saw a call it does not serve. */
  noUnexpectedCalls?: boolean;
  /** More secrets to look for, read after each test (a runtime token issued during it, a planted file's text). */
  secrets?: () => string[];
}

/** The log without the runner's `::add-mask::` commands (they are how secrets get masked, never shown). */
export function visible(log: string): string {
  return log
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');
}

/** The secrets of a world: the job token (also as the basic-auth header git sends) and the model key. */
function secretsOf(world: ActionWorld): string[] {
  return [...new Set([GITHUB_TOKEN, world.token])].flatMap((t) => [
    t,
    Buffer.from(`x-access-token:${t}`).toString('base64'),
    GEMINI_API_KEY,
  ]);
}

/** Fails when any secret of the world (or `extra`) is in `texts`, the bodies sent to GitHub or a pull request. */
export function assertNoSecrets(
  world: ActionWorld,
  texts: string[],
  extra: string[] = [],
  fromRequest = 0,
): void {
  const everything = [
    ...texts.map(visible),
    JSON.stringify(world.github.requests.slice(fromRequest).map((r) => r.body)),
    ...world.github.pulls().map((p) => `${p.title}\n${p.body}`),
  ].join('\n');
  for (const secret of [...new Set([...secretsOf(world), ...extra.filter((s) => s !== '')])]) {
    const at = everything.indexOf(secret);
    expect(at, `a secret was published: …${everything.slice(Math.max(0, at - 300), at + 100)}…`).toBe(-1);
  }
}

/** Sets the world up for the enclosing describe (or file); returns its getter, valid inside a test. */
export function useActionWorld(o: ActionWorldOptions = {}): () => ActionWorld {
  let world: ActionWorld | undefined;
  // What was published and sent before the current test (a shared world keeps what earlier tests left).
  let published = 0;
  let requests = 0;
  const create = async (): Promise<void> => {
    if (o.create) {
      world = await o.create();
    } else {
      world = await ActionWorld.create();
      await world.checkout();
    }
    published = 0;
    requests = 0;
  };
  const dispose = async (): Promise<void> => {
    await world?.[Symbol.asyncDispose]();
    world = undefined;
  };
  if (o.shared) {
    beforeAll(create);
    afterAll(dispose);
  } else {
    beforeEach(create);
  }
  afterEach(async () => {
    if (!world) return;
    try {
      if (o.noUnexpectedCalls) world.github.assertNoUnexpected();
      assertNoSecrets(world, world.published.slice(published), o.secrets?.() ?? [], requests);
      assertConformsToGitHub(world.github.requests.slice(requests));
    } finally {
      published = world.published.length;
      requests = world.github.requests.length;
      if (!o.shared) await dispose();
    }
  });
  return () => {
    if (!world) throw new Error('the action world is only there inside a test');
    return world;
  };
}
