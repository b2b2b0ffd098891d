/**
 * The action on the second checked CLI, gemini 0.61.0 (devDependency `gemini-cli-latest`): the cases where the
 * versions differ, from the same table test/e2e/action.test.ts runs on 0.42.0 (test/harness/action-cases.ts), with
 * `gemini-path` naming the 0.61.0 bundle. Also the version gate: an unchecked version is refused with one line
 * unless the workflow allows it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitScript, describeVersionedCases } from '../harness/action-cases.js';
import { ActionWorld, GEMINI_JS } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { GEMINI_LATEST_BIN } from '../harness/gemini-launcher.js';

describeVersionedCases({
  version: '0.61.0',
  inputs: { 'gemini-path': GEMINI_LATEST_BIN },
  rollsBackCancelledTurn: true,
  // The timeout's Escape and the TUI's nudges are the interactive mode's; the headless timeout ends a process group
  // whatever the version. The quota wall's words differ in the headless stream; the TUI shows the same dialog.
  oneMode: { timeout: 'interactive', quota: 'headless' },
});

describe('the version gate', () => {
  let world: ActionWorld;
  let dir: string;
  const worldOf = useActionWorld();
  beforeEach(async () => {
    world = worldOf();
    dir = await mkdtemp(join(tmpdir(), 'gr-unchecked-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A gemini that reports 0.55.0 and otherwise is the real 0.42.0. */
  async function uncheckedGemini(): Promise<string> {
    const path = join(dir, 'gemini');
    await writeFile(
      path,
      `#!/bin/sh\n[ "$1" = --version ] && { echo 0.55.0; exit 0; }\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(GEMINI_JS)} "$@"\n`,
      { mode: 0o755 },
    );
    return path;
  }

  it('refuses an unchecked version with one line, and runs it when the workflow allows it', async () => {
    const gemini = await uncheckedGemini();
    const refused = await world.run({
      script: commitScript('X.md', 'Add X.md'),
      inputs: { 'gemini-path': gemini },
    });
    expect(refused.main.exitCode).toBe(1);
    const errors = refused.main.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors).toEqual([
      expect.stringMatching(
        /gemini 0\.55\.0 has not been checked .*\(checked: 0\.42\.0, 0\.61\.0\).*allow-unchecked-gemini-version: true/,
      ),
    ]);
    expect(refused.gemini.modelRequests()).toHaveLength(0);
    expect(world.github.pulls()).toHaveLength(0);

    await world.checkout();
    const allowed = await world.run({
      script: commitScript('X.md', 'Add X.md'),
      inputs: { 'gemini-path': gemini, 'allow-unchecked-gemini-version': 'true' },
    });
    expect(allowed.main.exitCode, allowed.main.stdout).toBe(0);
    expect(allowed.main.stdout).toMatch(/::warning::gemini at .* is 0\.55\.0, .*0\.42\.0 profile/);
    expect(allowed.main.outputs).toMatchObject({ status: 'finished', 'commit-count': '1' });
  });
});
