/**
 * The exhaustive versions of the telemetry scanner's split checks, whose samples run in the unit project
 * (test/unit/gemini-telemetry.test.ts, test/unit/telemetry-differential.test.ts): a split at every byte boundary of
 * the small tricky file, with and without the size cap, and every captured 0.42.0 file read 7 bytes at a time
 * against the probe's oracle. No process is started; they are here because they take seconds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOtelEvents } from '../../src/probe/otel.js';
import { oracleFacts, productFacts, scanAll, scanInChunks, smallFile } from '../harness/telemetry-splits.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'gemini-0.42.0');

describe('TelemetryScanner split at every byte boundary', () => {
  it('gives the same events for a split at every byte boundary', () => {
    const buf = smallFile();
    const expected = JSON.stringify(scanAll(buf));
    const bad: number[] = [];
    for (let cut = 1; cut < buf.length; cut++) {
      if (JSON.stringify(scanAll(buf, [cut])) !== expected) bad.push(cut);
    }
    expect(bad).toEqual([]);
  });

  it('skips objects over the size cap the same way however the bytes are split', () => {
    const buf = smallFile();
    const whole = JSON.stringify(scanAll(buf, [], 2600));
    const bad: number[] = [];
    for (let cut = 1; cut < buf.length; cut += 3)
      if (JSON.stringify(scanAll(buf, [cut], 2600)) !== whole) bad.push(cut);
    expect(bad).toEqual([]);
  });
});

describe('telemetry: the product parser agrees with the probe oracle in 7-byte reads', () => {
  const captures = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => readdirSync(join(FIXTURES, name)).includes('telemetry.json'));
  for (const name of captures) {
    it(name, () => {
      const bytes = readFileSync(join(FIXTURES, name, 'telemetry.json'));
      const oracle = oracleFacts(parseOtelEvents(bytes.toString('utf8')));
      expect(productFacts(scanInChunks(bytes, 7)), `${name}, 7-byte reads`).toEqual(oracle);
    });
  }
});
