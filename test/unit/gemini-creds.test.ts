import { describe, expect, it } from 'vitest';
import { isExpired, parseOAuthCreds } from '../../src/gemini/creds.js';
import { UserError } from '../../src/util/errors.js';

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);
const SECRET = 'ya29.SECRET-ACCESS-TOKEN-value';
const creds = {
  access_token: SECRET,
  refresh_token: '1//SECRET-REFRESH',
  scope: 'https://www.googleapis.com/auth/cloud-platform',
  token_type: 'Bearer',
  expiry_date: NOW + 3600_000,
  id_token: 'eyJ.id.token',
};

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('did not throw');
}

describe('parseOAuthCreds', () => {
  it('parses raw JSON and keeps extra keys', () => {
    const parsed = parseOAuthCreds(JSON.stringify({ ...creds, extra: 1 }, null, 2), NOW);
    expect(parsed.access_token).toBe(SECRET);
    expect(parsed.expiry_date).toBe(creds.expiry_date);
    expect(parsed.extra).toBe(1);
  });

  it('parses base64, url-safe base64 and line-wrapped base64 to the same creds', () => {
    const json = JSON.stringify(creds);
    const b64 = Buffer.from(json).toString('base64');
    const url = Buffer.from(json).toString('base64url');
    const wrapped = b64.replace(/(.{60})/g, '$1\n');
    for (const input of [b64, url, wrapped, `  ${b64}\n`]) expect(parseOAuthCreds(input, NOW)).toEqual(creds);
  });

  it.each([
    ['empty', ''],
    ['not JSON', '{"access_token": "ya29.SECRET-ACCESS-TOKEN-value",'],
    ['not base64', 'ya29.SECRET-ACCESS-TOKEN-value!!'],
    ['base64 of non-JSON', Buffer.from('ya29.SECRET-ACCESS-TOKEN-value').toString('base64')],
    ['missing access_token', JSON.stringify({ refresh_token: SECRET })],
    ['wrong type', JSON.stringify({ access_token: SECRET, expiry_date: 'soon' })],
    ['array', JSON.stringify([SECRET])],
  ])('refuses %s with one line that does not echo the value', (_name, input) => {
    const err = thrown(() => parseOAuthCreds(input, NOW));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).not.toContain('SECRET');
    expect(err.message).not.toContain('\n');
    expect(err.message).toContain("'gemini-oauth-creds'");
  });

  it('names the failing fields', () => {
    expect(thrown(() => parseOAuthCreds(JSON.stringify({ expiry_date: 'x' }), NOW)).message).toMatch(
      /access_token must be string \(missing\); expiry_date must be number/,
    );
  });

  it('refuses an expired token without refresh_token, accepts it with one', () => {
    const expired = { access_token: SECRET, expiry_date: NOW - 1000 };
    const err = thrown(() =>
      parseOAuthCreds(JSON.stringify(expired), NOW, { source: '/h/.gemini/oauth_creds.json' }),
    );
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(
      /^\/h\/\.gemini\/oauth_creds\.json: the access token expired at 2026-12-02T11:59:59\.000Z/,
    );
    expect(err.message).not.toContain('SECRET');
    expect(parseOAuthCreds(JSON.stringify({ ...expired, refresh_token: 'r' }), NOW).refresh_token).toBe('r');
    expect(parseOAuthCreds(JSON.stringify(expired), NOW, { allowExpired: true }).access_token).toBe(SECRET);
    expect(isExpired(expired, NOW)).toBe(true);
    expect(isExpired(creds, NOW)).toBe(false);
  });
});
