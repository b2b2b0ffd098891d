/**
 * `oauth_creds.json` as Gemini CLI 0.42.0 stores it (google-auth-library `Credentials`). The value arrives
 * from a secret (raw JSON or base64) or from a runner host's home; every error here is one line and never
 * quotes the input, because the input is a credential.
 */
import { z } from 'zod';
import type { OAuthCreds } from '../domain/types.js';
import { UserError } from '../util/errors.js';

/** Extra keys survive (`looseObject`): the CLI writes back whatever the token endpoint returned. */
const oauthCredsSchema = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
  /** ms since epoch */
  expiry_date: z.number().finite().optional(),
  id_token: z.string().optional(),
});

export interface ParseCredsOptions {
  /** What to call the input in errors, e.g. "'gemini-oauth-creds'" or a file path. */
  source?: string;
  /** Accept an expired token without a refresh token (for `auth status`, which reports instead of refusing). */
  allowExpired?: boolean;
}

const DEFAULT_SOURCE = "'gemini-oauth-creds'";

/**
 * Parses the contents of `oauth_creds.json`, given raw or base64-encoded. Throws a UserError that names the
 * source and the problem (field names only) and refuses creds that can no longer work: an access token
 * that has expired with no refresh token to renew it.
 */
export function parseOAuthCreds(
  raw: string,
  now: number = Date.now(),
  opts: ParseCredsOptions = {},
): OAuthCreds {
  const source = opts.source ?? DEFAULT_SOURCE;
  const json = decodeCredsText(raw, source);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    // JSON.parse's message quotes the offending text: never pass it on.
    throw new UserError(
      `${source} is not valid JSON (nor base64 of JSON): paste the whole oauth_creds.json.`,
    );
  }
  const parsed = oauthCredsSchema.safeParse(value);
  if (!parsed.success) {
    throw new UserError(`${source} is not an oauth_creds.json: ${describeIssues(parsed.error)}.`);
  }
  const creds: OAuthCreds = parsed.data;
  if (!opts.allowExpired) assertUsable(creds, now, source);
  return creds;
}

/** An expired access token is fine while a refresh token can renew it; without one the run could only fail. */
function assertUsable(creds: OAuthCreds, now: number, source = DEFAULT_SOURCE): void {
  if (isExpired(creds, now) && !creds.refresh_token) {
    throw new UserError(
      `${source}: the access token expired at ${new Date(creds.expiry_date ?? now).toISOString()} and there is no refresh_token; log in again (gemini-run login) and use the new oauth_creds.json.`,
    );
  }
}

/** True when the access token is expired (or expires within `skewMs`). */
export function isExpired(creds: OAuthCreds, now: number = Date.now(), skewMs = 0): boolean {
  return creds.expiry_date !== undefined && creds.expiry_date <= now + skewMs;
}

/** Raw JSON starts with `{`; anything else must be base64 (standard or url-safe, line-wrapped or not) of JSON. */
function decodeCredsText(raw: string, source: string): string {
  const text = raw.trim().replace(/^\uFEFF/, '');
  if (text === '') throw new UserError(`${source} is empty: paste the contents of oauth_creds.json.`);
  if (text.startsWith('{')) return text;
  const compact = text.replace(/[\r\n\t ]+/g, '');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) {
    throw new UserError(
      `${source} is neither JSON nor base64: paste the whole oauth_creds.json or its base64.`,
    );
  }
  const decoded = Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
    .toString('utf8')
    .trim()
    .replace(/^\uFEFF/, '');
  if (!decoded.startsWith('{')) {
    throw new UserError(
      `${source} is base64 but does not decode to JSON: encode the whole oauth_creds.json.`,
    );
  }
  return decoded;
}

/** Names the failing fields and what was expected; zod 4 messages carry no input values, but be explicit. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
      if (issue.code === 'invalid_type') {
        return `${field} must be ${issue.expected}${issue.input === undefined ? ' (missing)' : ''}`;
      }
      if (issue.code === 'too_small') return `${field} must not be empty`;
      return `${field} is invalid`;
    })
    .join('; ');
}
