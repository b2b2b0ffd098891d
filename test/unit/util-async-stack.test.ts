import { describe, expect, it } from 'vitest';
import { AsyncStack, withStack } from '../../src/util/async-stack.js';

describe('AsyncStack', () => {
  it('closes in reverse order, each closer once, all of them when one throws', async () => {
    const done: string[] = [];
    const stack = new AsyncStack();
    stack.defer(() => void done.push('first'));
    stack.defer(() => Promise.reject(new Error('second broke')));
    stack.defer(async () => {
      await Promise.resolve();
      done.push('third');
    });
    await expect(stack.close()).rejects.toThrow('second broke');
    expect(done).toEqual(['third', 'first']);
    await stack.close();
    expect(done).toEqual(['third', 'first']);
  });

  it("withStack closes on every path; the body's error wins over a closer's", async () => {
    const done: string[] = [];
    expect(
      await withStack(async (s) => {
        s.defer(() => void done.push('ok'));
        return Promise.resolve(7);
      }),
    ).toBe(7);
    await expect(
      withStack(async (s) => {
        s.defer(() => void done.push('after throw'));
        s.defer(() => Promise.reject(new Error('closer')));
        return Promise.reject(new Error('body'));
      }),
    ).rejects.toThrow('body');
    await expect(
      withStack((s) => (s.defer(() => Promise.reject(new Error('closer'))), Promise.resolve())),
    ).rejects.toThrow('closer');
    expect(done).toEqual(['ok', 'after throw']);
  });
});
