import { describe, expect, it } from 'vitest';
import { noreplyIdentity } from '../../src/github/identity.js';

describe('noreplyIdentity', () => {
  it("an App's bot commits with its user id's noreply address", () => {
    expect(noreplyIdentity('my-app[bot]', 123456)).toEqual({
      name: 'my-app[bot]',
      email: '123456+my-app[bot]@users.noreply.github.com',
    });
  });

  it('the workflow token (or an identity without an id) is github-actions[bot]', () => {
    const bot = {
      name: 'github-actions[bot]',
      email: '41898282+github-actions[bot]@users.noreply.github.com',
    };
    expect(noreplyIdentity('github-actions[bot]', 999)).toEqual(bot);
    expect(noreplyIdentity('someone', null)).toEqual(bot);
  });
});
