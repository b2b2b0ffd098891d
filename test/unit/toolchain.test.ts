/**
 * The developer toolchain follows the Node the action ships on: CI's Node (.node-version, read by setup-node) and
 * the Node types the code is checked against have the major that action.yml's `runs.using` names.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const shipped = z
  .object({ runs: z.object({ using: z.string().regex(/^node\d+$/) }) })
  .parse(parse(read('action.yml')))
  .runs.using.slice('node'.length);

describe('toolchain', () => {
  it(".node-version and @types/node have the major of action.yml's runs.using", () => {
    expect(read('.node-version').trim().split('.')[0]).toBe(shipped);
    const pkg = z
      .object({ devDependencies: z.object({ '@types/node': z.string() }) })
      .parse(JSON.parse(read('package.json')));
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^?${shipped}\\.`));
  });
});
