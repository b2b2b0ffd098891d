/**
 * How the agent reaches the model without holding the credential: a loopback proxy in its own process keeps the
 * API key (Gemini API), the OAuth tokens (Code Assist, refreshed here) or the Vertex AI access token (minted here
 * from the job's Application Default Credentials) and gemini gets a per-run placeholder. For Vertex AI the proxy
 * also stands in for the GCE metadata server, which is how gemini's auth library gets the placeholder as its
 * token (src/proxy/metadata.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { homeAt, writeBackCreds, writeBackRefreshedCreds } from '../gemini/home.js';
import type { ModelEndpoint } from '../gemini/spawn.js';
import { launchModelProxy, type LaunchedProxy } from '../proxy/launch.js';
import type { Refusals } from '../proxy/model-routes.js';
import { OAuthTokenSource } from '../proxy/oauth-token.js';
import { prepareVertexToken, type AccessTokenSource } from '../proxy/vertex-token.js';
import type { AuthConfig, OAuthCreds } from '../domain/types.js';
import type { Logger } from '../util/log.js';

const DEFAULT_GEMINI_API = 'https://generativelanguage.googleapis.com';
const DEFAULT_CODE_ASSIST = 'https://cloudcode-pa.googleapis.com';

/** The Vertex AI endpoint gemini would call itself: regional, or global (also for express mode's API key). */
export function vertexUpstream(env: NodeJS.ProcessEnv, location: string | undefined): string {
  if (env.GOOGLE_VERTEX_BASE_URL) return env.GOOGLE_VERTEX_BASE_URL;
  return location && location !== 'global'
    ? `https://${location}-aiplatform.googleapis.com`
    : 'https://aiplatform.googleapis.com';
}

/** gcloud's Application Default Credentials file in `env.HOME`, where google-auth-library looks, if any. */
function gcloudAdcFile(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.HOME) return undefined;
  const file = join(env.HOME, '.config', 'gcloud', 'application_default_credentials.json');
  return existsSync(file) ? file : undefined;
}

/**
 * Vertex AI's express mode: with GOOGLE_API_KEY set gemini sends that key (and no project or location) rather
 * than an access token; the proxy then holds the key and the placeholder stands in for it.
 */
function vertexApiKey(env: NodeJS.ProcessEnv): string | undefined {
  return env.GOOGLE_API_KEY || undefined;
}

export interface ModelAccess {
  endpoint?: ModelEndpoint;
  /** OAuth creds as the proxy's token source holds them now (refreshed ones included), for the write-back. */
  oauthCreds?(): OAuthCreds;
  /** No model answer reaches the agent from now on (the timeout or the budget stopped it); no-op without a proxy. */
  fence(): void;
  /** The non-model calls (files, caches, tuning, …) the proxy refused; none without a proxy. */
  refusals(): Refusals;
  stop(): Promise<void>;
}

const WITHOUT_PROXY: ModelAccess = {
  fence: () => undefined,
  refusals: () => ({ count: 0, first: [] }),
  stop: () => Promise.resolve(),
};

function proxied(proxy: LaunchedProxy): Pick<ModelAccess, 'fence' | 'refusals' | 'stop'> {
  return { fence: () => proxy.fence(), refusals: () => proxy.refusals(), stop: () => proxy.stop() };
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

/**
 * For Vertex AI on an access token: a token source whose first token is minted now from the job's credentials,
 * so credentials that cannot give one end the run (auth-failed) before anything starts.
 */
export async function prepareVertex(
  auth: AuthConfig,
  env: NodeJS.ProcessEnv,
): Promise<AccessTokenSource | undefined> {
  if (auth.kind !== 'vertex-ai' || vertexApiKey(env)) return undefined;
  return prepareVertexToken(env);
}

/**
 * After a run on a host login: the creds the proxy refreshed (or, without a proxy, those gemini refreshed in the
 * run home at `runHome`) go back to the host, when they are newer than what it has. True when written.
 */
export async function writeBackHostLogin(
  auth: AuthConfig,
  access: ModelAccess | undefined,
  runHome: string,
): Promise<boolean> {
  if (auth.kind !== 'oauth' || !auth.hostHome) return false;
  const refreshed = access?.oauthCreds?.();
  const wrote = refreshed ? writeBackRefreshedCreds(auth, refreshed) : writeBackCreds(homeAt(runHome), auth);
  return wrote.catch(() => false);
}

export async function startModelAccess(o: {
  auth: AuthConfig;
  oauth?: OAuthTokenSource;
  /** Vertex AI's access tokens (prepareVertex); without one a Vertex run mints its own here. */
  vertex?: AccessTokenSource;
  /** The uid gemini runs as (the sandbox's); the metadata stand-in answers that uid only. Default: ours. */
  agentUid?: number;
  env: NodeJS.ProcessEnv;
  log: Logger;
  mask(secret: string): void;
}): Promise<ModelAccess> {
  const placeholder = `gemini-run-${randomBytes(24).toString('hex')}`;
  const log = (line: string) => o.log.debug(line);
  if (o.auth.kind === 'api-key') {
    const proxy = await launchModelProxy({
      upstream: o.env.GOOGLE_GEMINI_BASE_URL || DEFAULT_GEMINI_API,
      api: 'gemini-api',
      placeholder,
      credential: { kind: 'api-key', apiKey: o.auth.apiKey },
      log,
    });
    o.log.info(`The API key stays in the model proxy (${proxy.url}); the agent holds a placeholder.`);
    return {
      endpoint: { kind: 'gemini-api', baseUrl: proxy.url, placeholder },
      ...proxied(proxy),
    };
  }
  if (o.auth.kind === 'oauth' && o.oauth) {
    const source = o.oauth;
    const proxy = await launchModelProxy({
      upstream: o.env.CODE_ASSIST_ENDPOINT || DEFAULT_CODE_ASSIST,
      api: 'code-assist',
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
      ...proxied(proxy),
    };
  }
  if (o.auth.kind === 'vertex-ai') {
    const location = o.auth.location || o.env.GOOGLE_CLOUD_LOCATION || undefined;
    const apiKey = vertexApiKey(o.env);
    if (apiKey) {
      o.mask(apiKey);
      const proxy = await launchModelProxy({
        upstream: vertexUpstream(o.env, undefined),
        api: 'vertex',
        placeholder,
        credential: { kind: 'api-key', apiKey },
        log,
      });
      o.log.info(
        `The Vertex AI API key stays in the model proxy (${proxy.url}); the agent holds a placeholder.`,
      );
      return {
        endpoint: { kind: 'vertex', baseUrl: proxy.url, placeholder },
        ...proxied(proxy),
      };
    }
    const adcFile = o.agentUid === undefined ? gcloudAdcFile(o.env) : undefined;
    if (adcFile) {
      // Without a user of its own the agent shares our HOME, and gemini's auth library prefers gcloud's ADC
      // file there to any metadata server: it would send a real token, which the proxy refuses. The agent can
      // read that file anyway (isolation: none), so gemini uses it directly, as before.
      o.log.warning(
        `Vertex AI: gemini uses gcloud's credentials in ${adcFile} itself (isolation: none shares this HOME with the agent).`,
      );
      return WITHOUT_PROXY;
    }
    const source = o.vertex ?? (await prepareVertexToken(o.env));
    const uid = o.agentUid ?? process.getuid?.();
    const proxy = await launchModelProxy({
      upstream: vertexUpstream(o.env, location),
      api: 'vertex',
      placeholder,
      credential: {
        kind: 'bearer',
        token: async () => {
          const token = await source.token();
          o.mask(token);
          return token;
        },
      },
      metadata: {
        ...(o.auth.project ? { projectId: o.auth.project } : {}),
        ...(uid !== undefined ? { uids: [uid] } : {}),
      },
      log,
    });
    o.log.info(
      `The Vertex AI credentials stay with the action and its model proxy (${proxy.url}); the agent holds a placeholder token.`,
    );
    return {
      endpoint: {
        kind: 'vertex',
        baseUrl: proxy.url,
        placeholder,
        metadataHost: new URL(proxy.url).host,
      },
      ...proxied(proxy),
    };
  }
  return WITHOUT_PROXY;
}
