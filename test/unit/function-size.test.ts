import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longFunctions } from '../harness/source-graph.js';

const MAX_LINES = 80;
const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * Functions of src/ over the limit, each with the lines it has now (it may not grow) and why it is allowed. An
 * entry that is split below the limit must leave the list.
 */
const ALLOWED: Record<string, { lines: number; why: string }> = {};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function longInSrc(): Map<string, number> {
  const found = new Map<string, number>();
  for (const f of filesUnder(join(ROOT, 'src'))) {
    for (const [k, v] of longFunctions(f, relative(ROOT, f), readFileSync(f, 'utf8'), MAX_LINES))
      found.set(k, v);
  }
  return found;
}

describe('function size', () => {
  const long = longInSrc();

  it(`keeps every function in src/ under ${MAX_LINES} lines, but the allowed ones`, () => {
    expect([...long.keys()].filter((k) => !Object.hasOwn(ALLOWED, k))).toEqual([]);
  });

  it('lets no allowed function grow, and lists none that is no longer over the limit', () => {
    for (const [k, { lines }] of Object.entries(ALLOWED)) {
      expect(long.get(k), `${k}: split below ${MAX_LINES} lines? Remove it from ALLOWED`).toBeDefined();
      expect(long.get(k), k).toBeLessThanOrEqual(lines);
    }
  });

  it('finds a long function, named or not (the check can fail)', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `function big() {\n${body}\n}\nfunction outer() {\n  return () => {\n${body}\n  };\n}\n`;
    expect(Object.fromEntries(longFunctions('/x.ts', 'x.ts', text, MAX_LINES))).toEqual({
      'x.ts: big': MAX_LINES + 2,
      'x.ts: outer': MAX_LINES + 4,
      'x.ts: outer/<anonymous>': MAX_LINES + 2,
    });
  });
});
