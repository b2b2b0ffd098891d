import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keep, pruneKept, readKept } from '../harness/disk-cache.js';

const DAY = 24 * 3600 * 1000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'gemini-run-disk-cache-'));
  dirs.push(d);
  return d;
}

function aged(file: string, days: number): void {
  const t = new Date(Date.now() - days * DAY);
  utimesSync(file, t, t);
}

describe("the harness's disk caches", () => {
  it('keeps an entry and reads it back; a missing one is undefined', () => {
    const d = scratch();
    expect(readKept(join(d, 'a', 'x.xml'))).toBeUndefined();
    keep(join(d, 'a', 'x.xml'), '<doc/>');
    expect(readKept(join(d, 'a', 'x.xml'))).toBe('<doc/>');
    // No temp file is left beside it.
    expect(readdirSync(join(d, 'a'))).toEqual(['x.xml']);
  });

  it('prunes entries unused for a fortnight, one directory down too; a read marks an entry used', () => {
    const d = scratch();
    mkdirSync(join(d, 'v1'));
    for (const f of ['old.json', 'fresh.json', 'v1/old.xml', 'v1/read.xml']) writeFileSync(join(d, f), f);
    aged(join(d, 'old.json'), 15);
    aged(join(d, 'fresh.json'), 13);
    aged(join(d, 'v1/old.xml'), 30);
    aged(join(d, 'v1/read.xml'), 30);
    expect(readKept(join(d, 'v1/read.xml'))).toBe('v1/read.xml');
    expect(Date.now() - statSync(join(d, 'v1/read.xml')).mtimeMs).toBeLessThan(DAY);
    expect(pruneKept(d)).toBe(2);
    expect(readdirSync(d).sort()).toEqual(['fresh.json', 'v1']);
    expect(readdirSync(join(d, 'v1'))).toEqual(['read.xml']);
    expect(pruneKept(join(d, 'none'))).toBe(0);
  });
});
