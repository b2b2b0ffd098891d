import { describe, expect, it } from 'vitest';
import { failureSignature } from '../../src/action/ci-fix.js';

describe('failureSignature', () => {
  it('the same failure on another commit, at another time, compares equal', () => {
    const a = failureSignature([
      'CI',
      'test (ubuntu, 20)',
      'Run npm test',
      'FAIL test/a.test.ts:12:5 took 1.23s at 0a1b2c3d4e',
    ]);
    const b = failureSignature([
      'CI',
      'test (ubuntu, 20)',
      'Run npm test',
      'FAIL  test/a.test.ts:14:5 took 2.5s at 9f8e7d6c5b',
    ]);
    expect(a).toBe(b);
  });

  it('another test, job or step does not', () => {
    const base = ['CI', 'test', 'Run npm test', 'FAIL test/a.test.ts'];
    const sig = failureSignature(base);
    expect(failureSignature(['CI', 'test', 'Run npm test', 'FAIL test/b.test.ts'])).not.toBe(sig);
    expect(failureSignature(['CI', 'lint', 'Run npm test', 'FAIL test/a.test.ts'])).not.toBe(sig);
    expect(failureSignature(['CI', 'test', 'Run npm run build', 'FAIL test/a.test.ts'])).not.toBe(sig);
  });

  it('is bounded', () => {
    expect(failureSignature(['x'.repeat(5000)]).length).toBe(500);
  });
});
