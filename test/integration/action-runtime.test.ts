/**
 * The end-to-end tests run dist/ on the Node major that action.yml declares (`runs.using: node24`), whatever Node
 * runs the test runner: a bundle that only works on the runner's Node would pass here and fail on GitHub.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { ROOT, runNode } from '../harness/action-job.js';

const using = z
  .object({ runs: z.object({ using: z.string().regex(/^node\d+$/) }) })
  .parse(parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'))).runs.using;
const major = using.slice('node'.length);

describe('the Node the action tests run dist/ on', () => {
  it("is the major of action.yml's runs.using, for every script the harness runs", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-run-node-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const script = join(dir, 'version.mjs');
    await writeFile(script, 'console.log(process.version);\n');
    const r = await runNode(script, { PATH: process.env.PATH ?? '' }, dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(new RegExp(`^v${major}\\.\\d+\\.\\d+$`));
  });
});
