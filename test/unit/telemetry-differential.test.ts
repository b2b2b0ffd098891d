/**
 * The product's telemetry parser (gemini/telemetry.ts: a byte scanner plus a zod schema) against the probe's
 * independent one (probe/otel.ts: a character-level JSON splitter), over every telemetry file captured from the
 * real 0.42.0 in fixtures/. The probe's parser is the oracle: the two were written apart, so agreeing on the
 * captured files is evidence that neither drops, reorders or misreads a record.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOtelEvents } from '../../src/probe/otel.js';
import { oracleFacts, productFacts, scanInChunks } from '../harness/telemetry-splits.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'gemini-0.42.0');
const captures = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .filter((name) => readdirSync(join(FIXTURES, name)).includes('telemetry.json'));

describe('telemetry: the product parser agrees with the probe oracle on every captured file', () => {
  it('there are captures to compare', () => {
    expect(captures.length).toBeGreaterThanOrEqual(5);
  });

  for (const name of captures) {
    it(name, () => {
      const bytes = readFileSync(join(FIXTURES, name, 'telemetry.json'));
      const oracle = oracleFacts(parseOtelEvents(bytes.toString('utf8')));
      expect(oracle.length).toBeGreaterThan(0);
      // 7-byte reads too in test/integration/telemetry-splits.test.ts.
      for (const chunk of [bytes.length, 4096, 97]) {
        expect(productFacts(scanInChunks(bytes, chunk)), `${name}, ${chunk}-byte reads`).toEqual(oracle);
      }
    });
  }
});
