import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/action/redact.js';

describe('Redactor', () => {
  it('replaces secrets and their base64 form, longest first', () => {
    const r = new Redactor();
    r.add('ghs_abcdef');
    r.add('ghs_abcdef_longer');
    r.add('ab'); // too short to be a secret; never replaced
    const b64 = Buffer.from('ghs_abcdef').toString('base64');
    expect(r.redact(`a ghs_abcdef_longer b ghs_abcdef c ${b64} ab`)).toBe('a *** b *** c *** ab');
  });
});
