import { describe, expect, it } from 'vitest';
import { getErrorMessage, oneLine } from '../../src/util/errors.js';

describe('errors', () => {
  it('gets a message from anything thrown', () => {
    expect(getErrorMessage(new Error('boom'))).toBe('boom');
    expect(getErrorMessage('str')).toBe('str');
    expect(getErrorMessage({ a: 1 })).toBe('{"a":1}');
  });
  it('keeps the first non-empty line', () => {
    expect(oneLine('\n  first\nsecond')).toBe('first');
  });
});
