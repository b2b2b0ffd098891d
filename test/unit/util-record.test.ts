import { describe, expect, it } from 'vitest';
import { extend } from '../../src/util/record.js';

describe('extend: a phase adds its own fields to the run record', () => {
  it('adds fields', () => {
    expect(extend({ a: 1 }, { b: 'x' })).toEqual({ a: 1, b: 'x' });
  });

  it('refuses, at compile time, a field a phase before it set (npm run typecheck fails without the error)', () => {
    const record = { trigger: 'interpreted', auth: 1 };
    // @ts-expect-error `trigger` is already in the record: the admitted trigger needs a name of its own.
    const overwritten = extend(record, { trigger: 'admitted' });
    const maybe: { auth?: number } = {};
    // @ts-expect-error an optional field of the same name is an overwrite too.
    const optional = extend(record, maybe);
    expect([overwritten.trigger, optional.auth]).toEqual(['admitted', 1]);
  });
});
