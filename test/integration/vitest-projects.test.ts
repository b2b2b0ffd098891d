/**
 * Every test file runs in exactly one vitest project: a new test folder that no project includes would otherwise
 * never run, and `npm test` would stay green without it.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { ROOT } from '../harness/action-job.js';

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? testFiles(join(dir, e.name))
        : Promise.resolve(e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}

describe('vitest projects', () => {
  it('run every test file under test/ exactly once', async () => {
    const r = await exec(join(ROOT, 'node_modules', '.bin', 'vitest'), ['list', '--filesOnly'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
    });
    // Lines look like `[unit] test/unit/x.test.ts`.
    const listed = r.stdout
      .split('\n')
      .map((l) => /^\[[\w-]+\] (\S+)$/.exec(l.trim())?.[1])
      .filter((f): f is string => f !== undefined)
      .sort();
    const files = (await testFiles(join(ROOT, 'test'))).map((f) => relative(ROOT, f)).sort();
    expect(listed).toEqual(files);
  });
});
