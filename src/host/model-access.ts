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
import { probeUpstream } from '../proxy/upstream.js';
import { checkUpstreamUrl } from '../proxy/upstream-health.js';
import type { ModelHealth } from '../run/options.js';
import { UserError } from '../util/errors.js';
import type { MetadataConfig } from '../proxy/metadata.js';
import type { ModelCredential } from '../proxy/model-proxy.js';
import type { ModelApi, Refusals } from '../proxy/model-routes.js';
import type { ServedTokens } from '../proxy/usage-meter.js';
import { OAuthTokenSource } from '../proxy/oauth-token.js';
import { prepareVertexToken, type AccessTokenSource } from '../proxy/vertex-token.js';
import type { AuthConfig, AuthKind, OAuthCreds } from '../domain/types.js';
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
  /** The calls the proxy refused (not model calls: files, caches, tuning, …; or other models); none without a proxy. */
  refusals(): Refusals;
  /** What the proxy knows of the upstream's health so far (nothing without a proxy). */
  health?(): ModelHealth;
  /** The tokens the proxy served (final once `stop` resolved); absent without a proxy. */
  usage?(): ServedTokens;
  stop(): Promise<void>;
}

const WITHOUT_PROXY: ModelAccess = {
  fence: () => undefined,
  health: () => ({}),
  refusals: () => ({ count: 0, first: [] }),
  stop: () => Promise.resolve(),
};

function proxied(proxy: LaunchedProxy): Pick<ModelAccess, 'fence' | 'refusals' | 'usage' | 'stop'> {
  return {
    fence: () => proxy.fence(),
    refusals: () => proxy.refusals(),
    usage: () => proxy.usage(),
    stop: () => proxy.stop(),
  };
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

export interface ModelAccessOptions {
  auth: AuthConfig;
  oauth?: OAuthTokenSource;
  /** Vertex AI's access tokens (prepareVertex); without one a Vertex run mints its own here. */
  vertex?: AccessTokenSource;
  /** The uid gemini runs as (the sandbox's); the metadata stand-in answers that uid only. Default: ours. */
  agentUid?: number;
  env: NodeJS.ProcessEnv;
  log: Logger;
  mask(secret: string): void;
  /** How long a model call may hear nothing before the run stops `model-unavailable` (silenceFor). */
  silenceMs?: number;
  /** The model ids the proxy forwards (src/gemini/models.ts modelsForRun); absent: any. */
  models?: readonly string[];
  /** The tokens the run may be served (src/proxy/usage-meter.ts TokenLedger); absent: no limit. */
  tokenLimit?: number;
}

/** Each kind of auth, with Vertex AI split in two: on an access token, or on express mode's API key. */
type AccessKind = AuthKind | 'vertex-ai-express';

/** What the proxy needs for one kind of auth (method syntax: each entry takes its own kind of AuthConfig). */
interface Route<A extends AuthConfig> {
  api: ModelApi;
  upstream(auth: A, env: NodeJS.ProcessEnv): string;
  /** The variable that sets the upstream, named when its URL is unusable. */
  variable: string;
  /** The credential the proxy presents upstream, and (OAuth) where its refreshed creds can be read back. */
  credential(
    auth: A,
    o: ModelAccessOptions,
  ): Promise<{ held: ModelCredential; oauthCreds?: () => OAuthCreds }>;
  /** Stand in for the GCE metadata server, which is how gemini's auth library gets the placeholder as token. */
  metadata?(auth: A, agentUid: number | undefined): MetadataConfig;
  /** The log line once the proxy listens at `url`. */
  told(url: string): string;
}

type AuthOf<K extends AccessKind> = Extract<
  AuthConfig,
  { kind: K extends 'vertex-ai-express' ? 'vertex-ai' : K }
>;

/** A token source as the proxy's credential; every token is masked as soon as it is known. */
function bearer(source: AccessTokenSource, o: Pick<ModelAccessOptions, 'mask'>): ModelCredential {
  return {
    kind: 'bearer',
    token: async () => {
      const token = await source.token();
      o.mask(token);
      return token;
    },
  };
}

/** A new kind of auth does not compile until it has its entry here. */
const ROUTES: { [K in AccessKind]: Route<AuthOf<K>> } = {
  'api-key': {
    api: 'gemini-api',
    upstream: (_, env) => env.GOOGLE_GEMINI_BASE_URL || DEFAULT_GEMINI_API,
    variable: 'GOOGLE_GEMINI_BASE_URL',
    credential: (auth) => Promise.resolve({ held: { kind: 'api-key', apiKey: auth.apiKey } }),
    told: (url) => `The API key stays in the model proxy (${url}); the agent holds a placeholder.`,
  },
  oauth: {
    api: 'code-assist',
    upstream: (_, env) => env.CODE_ASSIST_ENDPOINT || DEFAULT_CODE_ASSIST,
    variable: 'CODE_ASSIST_ENDPOINT',
    credential: (auth, o) => {
      const source = o.oauth ?? new OAuthTokenSource(auth.creds, o.env);
      return Promise.resolve({ held: bearer(source, o), oauthCreds: () => source.current });
    },
    told: (url) => `The OAuth tokens stay in the model proxy (${url}); the agent holds a placeholder.`,
  },
  'vertex-ai': {
    api: 'vertex',
    upstream: (auth, env) => vertexUpstream(env, auth.location || env.GOOGLE_CLOUD_LOCATION || undefined),
    variable: 'GOOGLE_VERTEX_BASE_URL (or the Vertex AI location)',
    credential: async (_, o) => ({ held: bearer(o.vertex ?? (await prepareVertexToken(o.env)), o) }),
    metadata: (auth, agentUid) => {
      const uid = agentUid ?? process.getuid?.();
      return {
        ...(auth.project ? { projectId: auth.project } : {}),
        ...(uid !== undefined ? { uids: [uid] } : {}),
      };
    },
    told: (url) =>
      `The Vertex AI credentials stay with the action and its model proxy (${url}); the agent holds a placeholder token.`,
  },
  'vertex-ai-express': {
    api: 'vertex',
    upstream: (_, env) => vertexUpstream(env, undefined),
    variable: 'GOOGLE_VERTEX_BASE_URL',
    credential: (_, o) => Promise.resolve({ held: { kind: 'api-key', apiKey: vertexApiKey(o.env) ?? '' } }),
    told: (url) => `The Vertex AI API key stays in the model proxy (${url}); the agent holds a placeholder.`,
  },
};

function routeFor(auth: AuthConfig, env: NodeJS.ProcessEnv): Route<AuthConfig> {
  return ROUTES[auth.kind === 'vertex-ai' && vertexApiKey(env) ? 'vertex-ai-express' : auth.kind];
}

/**
 * Without a user of its own the agent shares our HOME, and gemini's auth library prefers gcloud's ADC file there
 * to any metadata server: it would send a real token, which the proxy refuses. The agent can read that file
 * anyway (isolation: none), so gemini uses it directly, as before.
 */
function sharedGcloudCreds(o: ModelAccessOptions): string | undefined {
  if (o.auth.kind !== 'vertex-ai' || vertexApiKey(o.env) || o.agentUid !== undefined) return undefined;
  return gcloudAdcFile(o.env);
}

/** What is wrong with the model API URL this auth would call (a `*_BASE_URL`-style variable), before any call. */
export function upstreamProblem(auth: AuthConfig, env: NodeJS.ProcessEnv): string | undefined {
  const route = routeFor(auth, env);
  return checkUpstreamUrl(route.upstream(auth, env), route.variable);
}

export async function startModelAccess(o: ModelAccessOptions): Promise<ModelAccess> {
  const adcFile = sharedGcloudCreds(o);
  if (adcFile) {
    o.log.warning(
      `Vertex AI: gemini uses gcloud's credentials in ${adcFile} itself (isolation: none shares this HOME with the agent).`,
    );
    return WITHOUT_PROXY;
  }
  const problem = upstreamProblem(o.auth, o.env);
  if (problem) throw new UserError(problem);
  const route = routeFor(o.auth, o.env);
  const upstream = route.upstream(o.auth, o.env);
  const { held, oauthCreds } = await route.credential(o.auth, o);
  if (held.kind === 'api-key') o.mask(held.apiKey);
  const placeholder = `gemini-run-${randomBytes(24).toString('hex')}`;
  const metadata = route.metadata?.(o.auth, o.agentUid);
  const health: ModelHealth = {};
  const proxy = await launchModelProxy({
    upstream,
    api: route.api,
    placeholder,
    credential: held,
    ...(metadata ? { metadata } : {}),
    ...(o.silenceMs ? { silenceMs: o.silenceMs } : {}),
    ...(o.models ? { models: o.models } : {}),
    ...(o.tokenLimit ? { tokenLimit: o.tokenLimit } : {}),
    log: (line) => o.log.debug(line),
    onHealth: (note) => {
      // The first failure is said at once (not only in debug lines): a run that then waits is not a silent one.
      if (note.kind === 'first-failure') {
        health.firstFailure ??= note.message;
        o.log.warning(`Model proxy: ${note.message}`);
      } else if (note.kind === 'quota-wait') {
        health.quotaWait = { message: note.message, count: (health.quotaWait?.count ?? 0) + 1 };
        o.log.info(`Model proxy: ${note.message}`);
      } else health.down ??= note.message;
    },
  });
  o.log.info(route.told(proxy.url));
  o.log.debug(
    proxy.pid === undefined
      ? 'model proxy: in this process (running from source, no bundle to start)'
      : `model proxy: its own process, pid ${proxy.pid}`,
  );
  await probeAtLaunch(upstream, o, health);
  return {
    endpoint: {
      kind: route.api,
      baseUrl: proxy.url,
      placeholder,
      ...(metadata ? { metadataHost: new URL(proxy.url).host } : {}),
    },
    ...(oauthCreds ? { oauthCreds } : {}),
    ...proxied(proxy),
    health: () => ({ ...health }),
  };
}

/**
 * One connection to the upstream by the route its calls take, before gemini starts: refused, no such host or no
 * route ends the run at once (`health.down`), where the CLI would retry for minutes; a timeout only warns.
 */
async function probeAtLaunch(upstream: string, o: ModelAccessOptions, health: ModelHealth): Promise<void> {
  const url = new URL(upstream);
  const reach = await probeUpstream(url, o.env);
  if (reach.ok) return;
  const message = `the model API at ${url.host} cannot be reached: ${reach.error}`;
  if (reach.fatal) health.down ??= message;
  else o.log.warning(`${message}; trying anyway`);
}
