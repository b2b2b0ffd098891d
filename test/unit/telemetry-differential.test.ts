/**
 * The product's telemetry parser (gemini/telemetry.ts: a byte scanner plus a zod schema) against the probe's
 * independent one (probe/otel.ts: a character-level JSON splitter), over every telemetry file captured from the
 * real 0.42.0 in fixtures/. The probe's parser is the oracle: the two were written apart, so agreeing on the
 * captured files is evidence that neither drops, reorders or misreads a record.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TelemetryScanner, type TelemetryEvent } from '../../src/gemini/telemetry.js';
import { parseOtelEvents, type OtelLogEvent } from '../../src/probe/otel.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'gemini-0.42.0');
const captures = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .filter((name) => readdirSync(join(FIXTURES, name)).includes('telemetry.json'));

/** The facts both parsers must agree on, one line per event. */
type Fact = string;

/** The oracle's records in the product's vocabulary (the idle edge is the first conversation_finished of a turn). */
function oracleFacts(events: OtelLogEvent[]): Fact[] {
  const out: Fact[] = [];
  let awaitingIdle = false;
  const n = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0) || 0);
  for (const e of events) {
    const a = e.attributes;
    switch (e.name) {
      case 'gemini_cli.user_prompt':
        awaitingIdle = true;
        out.push(`turn-started ${e.at}`);
        break;
      case 'gemini_cli.conversation_finished':
        if (awaitingIdle) out.push(`idle ${e.at}`);
        awaitingIdle = false;
        break;
      case 'gemini_cli.tool_call':
        out.push(`tool-call ${e.at} ${String(a.function_name)} ${String(a.success)}`);
        break;
      case 'gemini_cli.api_response':
        out.push(
          `api-response ${e.at} ${String(a.model)} ${n(a.input_token_count)}/${n(a.output_token_count)}/${n(a.total_token_count)}`,
        );
        break;
      case 'gemini_cli.api_error':
        out.push(`api-error ${e.at} ${n(a.status_code ?? a['http.status_code'])}`);
        break;
      case 'gemini_cli.flash_fallback':
        out.push(`flash-fallback ${e.at}`);
        break;
      case 'gemini_cli.config':
        out.push(`config ${e.at}`);
        break;
      case 'gemini_cli.startup_stats':
        out.push(`startup ${e.at}`);
        break;
    }
  }
  return out;
}

function productFacts(events: TelemetryEvent[]): Fact[] {
  return events.map((e) => {
    switch (e.kind) {
      case 'tool-call':
        return `tool-call ${e.at} ${e.name} ${e.success}`;
      case 'api-response':
        return `api-response ${e.at} ${e.model} ${e.inputTokens}/${e.outputTokens}/${e.totalTokens}`;
      case 'api-error':
        return `api-error ${e.at} ${e.statusCode ?? 0}`;
      default:
        return `${e.kind} ${e.at}`;
    }
  });
}

/** The product's scanner fed the file in `chunk`-byte reads, as the follower hands it over. */
function scan(bytes: Buffer, chunk: number): TelemetryEvent[] {
  const scanner = new TelemetryScanner();
  const events: TelemetryEvent[] = [];
  for (let i = 0; i < bytes.length; i += chunk) events.push(...scanner.push(bytes.subarray(i, i + chunk)));
  return events;
}

describe('telemetry: the product parser agrees with the probe oracle on every captured file', () => {
  it('there are captures to compare', () => {
    expect(captures.length).toBeGreaterThanOrEqual(5);
  });

  for (const name of captures) {
    it(name, () => {
      const bytes = readFileSync(join(FIXTURES, name, 'telemetry.json'));
      const oracle = oracleFacts(parseOtelEvents(bytes.toString('utf8')));
      expect(oracle.length).toBeGreaterThan(0);
      for (const chunk of [bytes.length, 4096, 97, 7]) {
        expect(productFacts(scan(bytes, chunk)), `${name}, ${chunk}-byte reads`).toEqual(oracle);
      }
    });
  }
});
