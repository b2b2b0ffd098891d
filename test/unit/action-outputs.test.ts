import { describe, expect, it } from 'vitest';
import { OUTPUT_NAMES, capUtf8, usageJson } from '../../src/action/outputs.js';
import { ended } from '../../src/action/phases/report.js';
import { STATUS, failsStep, type ActionStatus } from '../../src/domain/status.js';

const ACTION_STATUSES = (Object.keys(STATUS) as (keyof typeof STATUS)[]).filter(
  (s): s is ActionStatus => STATUS[s].origin !== 'post',
);

describe('the outputs of every end state', () => {
  it.each(ACTION_STATUSES)('%s sets every output, its conclusion matching the step', (status) => {
    const { outputs, failure } = ended(status);
    expect(Object.keys(outputs).sort()).toEqual([...OUTPUT_NAMES].sort());
    for (const name of OUTPUT_NAMES) expect(typeof outputs[name], name).toBe('string');
    expect(outputs.conclusion).toBe(failsStep(status) ? 'failure' : 'success');
    expect(outputs.conclusion === 'failure').toBe(failure !== undefined);
    expect(outputs['pull-request-operation']).toBe('none');
    expect(JSON.parse(outputs.usage)).toEqual({
      models: [],
      totalTokens: 0,
      turns: 0,
      toolCalls: 0,
      wallTimeMs: 0,
    });
  });
});

describe('capUtf8', () => {
  it('leaves a text within the limit as it is', () => {
    expect(capUtf8('héllo', 6)).toBe('héllo');
  });

  it('cuts at the byte limit, never inside a character, and says so', () => {
    const text = '€'.repeat(40_000); // 3 bytes each: 120,000 bytes
    const cut = capUtf8(text);
    expect(Buffer.byteLength(cut, 'utf8')).toBeLessThanOrEqual(64 * 1024);
    expect(cut).not.toContain('\ufffd');
    expect(cut).toMatch(/^€+\n\n… \(cut: 120000 bytes, over the output's limit of 65536\)$/);
  });
});

describe('usageJson', () => {
  it('names tokens per model, turns, tool calls and the wall time', () => {
    const usage = {
      models: [
        {
          model: 'gemini-2.5-pro',
          requests: 3,
          inputTokens: 100,
          outputTokens: 20,
          cachedTokens: 5,
          totalTokens: 125,
          fallback: false,
        },
      ],
      totalTokens: 125,
      toolCalls: 4,
      turns: 3,
      durationMs: 999,
    };
    expect(JSON.parse(usageJson(usage, 4321))).toEqual({
      models: [
        {
          model: 'gemini-2.5-pro',
          requests: 3,
          inputTokens: 100,
          outputTokens: 20,
          cachedTokens: 5,
          totalTokens: 125,
        },
      ],
      totalTokens: 125,
      turns: 3,
      toolCalls: 4,
      wallTimeMs: 4321,
    });
  });
});
