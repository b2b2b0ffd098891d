/**
 * The action on two GitHub-hosted jobs with no `gemini-path`: the first installs the pinned gemini from the real npm
 * registry and saves it to the Actions cache (the fake results service, real @actions/cache in dist/index.js); the
 * second starts with an empty tool cache at the same path, as a fresh VM does, restores it and runs the agent with
 * it, without npm. Needs the npm registry: runs only with GEMINI_RUN_TEST_NETWORK=1.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OWNER, REPO } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { FakeActionsServices } from '../harness/fake-actions.js';
import { NETWORK_SKIPPED, NETWORK_TESTS } from '../harness/network.js';

const script = { description: 'answers without tools', steps: [{ text: 'Nothing to change.' }] };

const worldOf = useActionWorld();

it('a hosted job restores the gemini install the previous job saved, instead of installing it from npm', async (t) => {
  t.skip(!NETWORK_TESTS, NETWORK_SKIPPED);
  const world = worldOf();
  await using services = await FakeActionsServices.start({ blobHost: 'azure' });
  world.github.serveArtifacts(services);
  const toolCache = join(world.tmp, 'hostedtoolcache');
  const job = async (runId: number) => {
    await rm(toolCache, { recursive: true, force: true });
    await world.checkout();
    return world.run({
      mode: 'headless',
      script,
      inputs: { 'gemini-path': '' },
      env: {
        ...services.jobEnv({ runId, repo: `${OWNER}/${REPO}` }),
        RUNNER_TOOL_CACHE: toolCache,
        GEMINI_RUN_TRANSCRIPT_STORE: '',
        // A machine behind a TLS-inspecting egress needs its CA for the registry (a hosted runner does not).
        ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
      },
    });
  };

  const cold = await job(8001);
  expect(cold.main.outputs.status, cold.main.stdout).toBe('no-changes');
  expect(cold.main.stdout).toContain('Installing @google/gemini-cli@0.42.0 into');
  expect(cold.main.stdout).toMatch(
    /Saved gemini 0\.42\.0 to the Actions cache as gemini-run-gemini-cli-0\.42\.0-linux-x64-js-8001-1/,
  );
  expect(services.cacheEntries()).toHaveLength(1);

  const warm = await job(8002);
  expect(warm.main.outputs.status, warm.main.stdout).toBe('no-changes');
  expect(warm.main.stdout).toContain(
    'Restored gemini 0.42.0 from the Actions cache (gemini-run-gemini-cli-0.42.0-linux-x64-js-8001-1)',
  );
  expect(warm.main.stdout).not.toContain('Installing @google/gemini-cli');
  expect(warm.gemini.modelRequests().length).toBeGreaterThan(0); // the restored gemini ran the agent
  expect(services.calls.map((c) => `${c.service}:${c.op}`)).toEqual(
    expect.arrayContaining(['blob:head', 'blob:get-range']),
  );
  expect(services.unexpected).toEqual([]);
  world.github.assertNoUnexpected();
}, 600_000);
