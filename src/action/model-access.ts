/**
 * How the agent reaches the model without holding the credential: a loopback proxy in its own process keeps the
 * API key (Gemini API) or the OAuth tokens (Code Assist, refreshed here) and gemini gets a per-run placeholder.
 * Vertex AI is not proxied yet: gemini reads the environment's credentials itself (see the README).
 */
import { randomBytes } from 'node:crypto';
import type { ModelEndpoint } from '../gemini/spawn.js';
import { launchModelProxy } from '../proxy/launch.js';
import { OAuthTokenSource } from '../proxy/oauth-token.js';
import type { AuthConfig, OAuthCreds } from '../run/types.js';
import type { Logger } from '../util/log.js';

export const DEFAULT_GEMINI_API = 'https://generativelanguage.googleapis.com';
export const DEFAULT_CODE_ASSIST = 'https://cloudcode-pa.googleapis.com';

export interface ModelAccess {
  endpoint?: ModelEndpoint;
  /** OAuth creds as the proxy's token source holds them now (refreshed ones included), for the write-back. */
  oauthCreds?(): OAuthCreds;
  stop(): Promise<void>;
}

/**
 * A token source for OAuth auth whose first token is fetched now: a refresh Google refuses ends the run before
 * anything starts, with Google's own reason (a UserError).
 */
export async function prepareOAuth(
  auth: AuthConfig,
  env: NodeJS.ProcessEnv,
): Promise<OAuthTokenSource | undefined> {
  if (auth.kind !== 'oauth') return undefined;
  const source = new OAuthTokenSource(auth.creds, env);
  await source.token();
  return source;
}

export async function startModelAccess(o: {
  auth: AuthConfig;
  oauth?: OAuthTokenSource;
  env: NodeJS.ProcessEnv;
  log: Logger;
  mask(secret: string): void;
}): Promise<ModelAccess> {
  const placeholder = `gemini-run-${randomBytes(24).toString('hex')}`;
  const log = (line: string) => o.log.debug(line);
  if (o.auth.kind === 'api-key') {
    const proxy = await launchModelProxy({
      upstream: o.env.GOOGLE_GEMINI_BASE_URL || DEFAULT_GEMINI_API,
      placeholder,
      credential: { kind: 'api-key', apiKey: o.auth.apiKey },
      log,
    });
    o.log.info(`The API key stays in the model proxy (${proxy.url}); the agent holds a placeholder.`);
    return { endpoint: { kind: 'gemini-api', baseUrl: proxy.url, placeholder }, stop: proxy.stop };
  }
  if (o.auth.kind === 'oauth' && o.oauth) {
    const source = o.oauth;
    const proxy = await launchModelProxy({
      upstream: o.env.CODE_ASSIST_ENDPOINT || DEFAULT_CODE_ASSIST,
      placeholder,
      credential: {
        kind: 'bearer',
        token: async () => {
          const token = await source.token();
          o.mask(token);
          return token;
        },
      },
      log,
    });
    o.log.info(`The OAuth tokens stay in the model proxy (${proxy.url}); the agent holds a placeholder.`);
    return {
      endpoint: { kind: 'code-assist', baseUrl: proxy.url, placeholder },
      oauthCreds: () => source.current,
      stop: proxy.stop,
    };
  }
  return { stop: () => Promise.resolve() };
}
