import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID, MODEL_CATALOG, resolveModel } from '../../src/gemini/models.js';
import { UserError } from '../../src/util/errors.js';

describe('models', () => {
  it('Auto is the single default and maps to no -m', () => {
    expect(MODEL_CATALOG.filter((m) => m.default).map((m) => m.id)).toEqual([DEFAULT_MODEL_ID]);
    for (const input of [undefined, '', '  ', 'auto', 'AUTO', 'auto-gemini-3'])
      expect(resolveModel(input)).toBeUndefined();
  });
  it('the pinned ids map to themselves', () => {
    for (const id of [
      'gemini-3-pro-preview',
      'gemini-3-flash-preview',
      'gemini-2.5-pro',
      'gemini-2.5-flash',
      'gemini-2.5-flash-lite',
      'gemini-3.1-pro-preview',
      'gemini-3.1-flash-lite-preview',
    ]) {
      expect(resolveModel(id)).toBe(id);
    }
    expect(resolveModel(' Gemini-2.5-Pro ')).toBe('gemini-2.5-pro');
  });
  it('an unknown model is a one-line UserError listing the catalog', () => {
    let err: unknown;
    try {
      resolveModel('gpt-5');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toContain("'gpt-5'");
    for (const m of MODEL_CATALOG) expect(message).toContain(m.id);
    expect(message).not.toContain('\n');
  });
});
