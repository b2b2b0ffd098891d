import { describe, expect, it } from 'vitest';
import { JOB_LOG_BOUNDS, LogReducer, type ReducedLog } from '../../src/github/ci-log.js';

const T = '2026-12-04T10:00:00.1234567Z ';
const RED = '\x1b[31m';
const OFF = '\x1b[39m';

/** A job log as GitHub serves it: BOM, a timestamp on every line, groups per step, the runner's error line. */
function jobLog(testOutput: string[], after: string[] = []): string {
  const lines = [
    '\uFEFF' + T + '##[group]Run actions/checkout@v4',
    T + 'with:',
    T + '  repository: octo/app',
    T + '##[endgroup]',
    T + 'Syncing repository: octo/app',
    T + '##[group]Run npm ci',
    T + 'npm ci',
    T + '##[endgroup]',
    T + 'added 312 packages in 9s',
    T + '##[group]Run npm test',
    T + 'npm test',
    T + '##[endgroup]',
    ...testOutput.map((l) => T + l),
    T + '##[error]Process completed with exit code 1.',
    ...after.map((l) => T + l),
  ];
  return lines.join('\n') + '\n';
}

function reduce(text: string, chunk = text.length): ReducedLog {
  const r = new LogReducer();
  for (let i = 0; i < text.length; i += chunk) r.push(text.slice(i, i + chunk));
  return r.end();
}

const VITEST_FAILURE = [
  '> app@1.0.0 test',
  '> vitest run',
  ` ${RED}❯${OFF} test/sum.test.ts (2 tests | 1 failed) 12ms`,
  `   ${RED}×${OFF} sum > adds two numbers 5ms`,
  '     → expected 5 to be 4 // Object.is equality',
  ' FAIL  test/sum.test.ts > sum > adds two numbers',
  'AssertionError: expected 5 to be 4 // Object.is equality',
  ' ❯ test/sum.test.ts:5:22',
  ' Test Files  1 failed (1)',
];

describe('LogReducer', () => {
  it("keeps the failing step's end, without timestamps or colour, and names the failure", () => {
    const r = reduce(jobLog(VITEST_FAILURE, ['##[group]Post job cleanup.', 'Cleaning up orphan processes']));
    expect(r.step).toBe('Run npm test');
    const text = r.lines.map((l) => l.text);
    expect(text).toContain('   × sum > adds two numbers 5ms');
    expect(text).toContain(' FAIL  test/sum.test.ts > sum > adds two numbers');
    expect(text.at(-1)).toBe('##[error]Process completed with exit code 1.');
    for (const decor of ['2026-12-04T', '\x1b', '\uFEFF']) expect(text.join('\n')).not.toContain(decor);
    // Earlier steps are not the failure: none of their lines is kept.
    expect(text.join('\n')).not.toMatch(/Syncing repository|added 312 packages|Cleaning up/);
    // The signature is the failure's own first error line, never the runner's generic exit-code line.
    expect(r.firstError).toBe(' ❯ test/sum.test.ts (2 tests | 1 failed) 12ms');
    expect(r.totalLines).toBe(24);
    expect(r.stepLines).toBe(11);
    expect(r.boundsHit).toBe(false);
    // Line numbers are the log's own: the step's script, then its output.
    expect(r.lines[0]).toEqual({ n: 11, text: 'npm test' });
  });

  it('reads the same whatever the chunks (a line split across reads, a CRLF log)', () => {
    const log = jobLog(VITEST_FAILURE);
    const whole = reduce(log);
    expect(reduce(log, 1)).toEqual(whole);
    expect(reduce(log, 7)).toEqual(whole);
    expect(reduce(log.replace(/\n/g, '\r\n'), 13)).toEqual(whole);
  });

  it('keeps error lines from other steps too, in log order, when they are not in the tail', () => {
    const log =
      T +
      '##[group]Run npm run lint\n' +
      T +
      'src/a.ts:3:1 error Unexpected any\n' +
      T +
      '##[warning]lint reported problems\n' +
      jobLog(VITEST_FAILURE).replace('\uFEFF', '');
    const r = reduce(log);
    expect(r.lines[0]).toEqual({ n: 2, text: 'src/a.ts:3:1 error Unexpected any' });
    expect(r.step).toBe('Run npm test');
    // The failing step's own error wins as the signature over an earlier one elsewhere.
    expect(r.firstError).toBe(' ❯ test/sum.test.ts (2 tests | 1 failed) 12ms');
  });

  it('without a runner error line, shows the end of the last step', () => {
    const r = reduce([T + '##[group]Run make', T + 'make: *** [all] Error 2', T + 'done'].join('\n'));
    expect(r.step).toBe('Run make');
    expect(r.lines.map((l) => l.text)).toEqual(['make: *** [all] Error 2', 'done']);
    expect(r.firstError).toBe('make: *** [all] Error 2');
  });

  it('holds a huge failing step within the bounds: its last lines, cut, and says so', () => {
    const noise = Array.from(
      { length: 20_000 },
      (_, i) => `compiling module ${i} of 20000 ${'x'.repeat(250)}`,
    );
    const r = reduce(jobLog([...noise, 'Error: out of memory in module 19999']), 64 * 1024);
    expect(r.stepLines).toBe(20_003);
    expect(r.lines.length).toBeLessThanOrEqual(JOB_LOG_BOUNDS.tailLines);
    expect(r.lines.length).toBeGreaterThan(40);
    const bytes = r.lines.reduce((s, l) => s + Buffer.byteLength(l.text) + 1, 0);
    expect(bytes).toBeLessThanOrEqual(JOB_LOG_BOUNDS.maxBytes);
    expect(r.boundsHit).toBe(true);
    expect(r.lines.at(-1)?.text).toBe('##[error]Process completed with exit code 1.');
    expect(r.lines.at(-2)?.text).toBe('Error: out of memory in module 19999');
    expect(r.firstError).toBe('Error: out of memory in module 19999');
  });

  it('cuts a line of megabytes while it streams, and a flood of error lines keeps the first ones', () => {
    const giant = 'E'.repeat(3_000_000);
    const errors = Array.from({ length: 500 }, (_, i) => `error: problem ${i}`);
    const log =
      T + '##[group]Run build\n' + errors.map((l) => T + l).join('\n') + '\n' + T + giant + '\n' + T + 'tail';
    const r = reduce(log, 1 << 16);
    const long = r.lines.find((l) => l.text.startsWith('EEE'));
    expect(long?.text).toHaveLength(JOB_LOG_BOUNDS.lineChars + 1);
    expect(long?.text.endsWith('…')).toBe(true);
    expect(r.boundsHit).toBe(true);
    expect(r.firstError).toBe('error: problem 0');
  });
});
