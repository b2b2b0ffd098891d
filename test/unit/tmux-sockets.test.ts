import { describe, expect, it } from 'vitest';
import { isRunSocket } from '../../src/tmux/tmux.js';

describe('isRunSocket (what a cleanup may stop)', () => {
  it.each(['gemini-run-123-0', 'gemini-run-local_A-b'])('takes a name the driver makes: %s', (name) => {
    expect(isRunSocket(name)).toBe(true);
  });

  it.each([
    'default',
    'gemini-run-',
    'gemini-run-a;b',
    'gemini-run-../x',
    'x-gemini-run-1',
    ' gemini-run-1',
    '',
  ])('refuses anything else: %j', (name) => {
    expect(isRunSocket(name)).toBe(false);
  });
});
