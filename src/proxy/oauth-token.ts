/**
 * The OAuth access token behind the model proxy, refreshed here rather than by the CLI: with the refresh
 * token kept in the action, the agent never holds a Google credential at all (gemini runs on a placeholder
 * access token in `GOOGLE_GENAI_USE_GCA` mode, and the proxy swaps the real one in). The refresh is the one
 * google-auth-library does for the CLI: the CLI's own installed-app client, Google's token endpoint.
 */
import { z } from 'zod';
import type { OAuthCreds } from '../domain/types.js';
import { UserError } from '../util/errors.js';
import { createUpstream } from './upstream.js';

/** The Gemini CLI's installed-app OAuth client, as shipped in its bundle: public by design, not a secret. */
const GEMINI_CLI_OAUTH_CLIENT = {
  id: '681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
  secret: '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',
} as const;

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** Refresh this long before expiry, as google-auth-library does (its eagerRefreshThresholdMillis). */
const EAGER_REFRESH_MS = 5 * 60_000;

const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
  id_token: z.string().optional(),
});
const tokenErrorSchema = z.looseObject({ error: z.string(), error_description: z.string().optional() });

/** Pure: the creds after a token response (a response without refresh_token keeps the old one). */
export function applyTokenResponse(
  creds: OAuthCreds,
  body: z.infer<typeof tokenResponseSchema>,
  now: number,
): OAuthCreds {
  return {
    ...creds,
    access_token: body.access_token,
    expiry_date: now + body.expires_in * 1000,
    ...(body.refresh_token ? { refresh_token: body.refresh_token } : {}),
    ...(body.scope ? { scope: body.scope } : {}),
    ...(body.token_type ? { token_type: body.token_type } : {}),
    ...(body.id_token ? { id_token: body.id_token } : {}),
  };
}

export class OAuthTokenSource {
  private creds: OAuthCreds;
  private inflight: Promise<string> | undefined;

  constructor(
    creds: OAuthCreds,
    private readonly env: NodeJS.ProcessEnv,
    private readonly now: () => number = Date.now,
  ) {
    this.creds = { ...creds };
  }

  /** The creds as they stand (refreshed ones after a refresh), for writing back to the runner host. */
  get current(): OAuthCreds {
    return { ...this.creds };
  }

  /** A valid access token, refreshed first when it expires within five minutes. */
  token(): Promise<string> {
    const expiry = this.creds.expiry_date ?? Number.POSITIVE_INFINITY;
    if (this.creds.access_token && expiry - this.now() > EAGER_REFRESH_MS) {
      return Promise.resolve(this.creds.access_token);
    }
    this.inflight ??= this.refresh().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async refresh(): Promise<string> {
    const refreshToken = this.creds.refresh_token;
    if (!refreshToken) {
      throw new UserError(
        'The OAuth access token expired and there is no refresh token: log in again (gemini-run login).',
      );
    }
    const form = new URLSearchParams({
      client_id: GEMINI_CLI_OAUTH_CLIENT.id,
      client_secret: GEMINI_CLI_OAUTH_CLIENT.secret,
      refresh_token: refreshToken,
      grant_type: 'refresh_token',
    }).toString();
    const url = new URL(GOOGLE_TOKEN_URL);
    const upstream = createUpstream(url, this.env);
    try {
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = upstream.request('POST', url.pathname, {
          host: url.host,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(form),
          accept: 'application/json',
        });
        req.setTimeout(30_000, () => req.destroy(new Error('timed out')));
        req.once('error', reject);
        req.once('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('error', reject);
          res.once('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
        });
        req.end(form);
      }).catch((e: unknown) => {
        throw new UserError(
          `Could not reach Google to refresh the OAuth token (${e instanceof Error ? e.message : String(e)}): check the runner's network or proxy.`,
        );
      });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (status !== 200) {
        const err = tokenErrorSchema.safeParse(json);
        const reason = err.success ? (err.data.error_description ?? err.data.error) : `HTTP ${status}`;
        throw new UserError(
          `Google refused to refresh the OAuth token: ${reason}. Log in again (gemini-run login) and update the creds.`,
        );
      }
      const body = tokenResponseSchema.safeParse(json);
      if (!body.success) throw new UserError('Google answered the OAuth refresh with an unreadable token.');
      this.creds = applyTokenResponse(this.creds, body.data, this.now());
      return this.creds.access_token;
    } finally {
      upstream.close();
    }
  }
}
