/**
 * One rule set for Gemini auth, whoever gathers it: the action from its inputs, the toolkit's `run` from its
 * environment. Each host maps what it was given onto `AuthSources` (naming every setting the way its user writes
 * it, so the errors point at the right knob); `resolveAuth` then applies the same rules to both.
 */
import { join } from 'node:path';
import { parseOAuthCreds } from '../gemini/creds.js';
import { hostHomeFrom, readHostCreds } from '../gemini/home.js';
import type { AuthConfig, OAuthCreds } from '../domain/types.js';
import { UserError } from '../util/errors.js';

/** The action's auth inputs (action.yml). */
export interface AuthInputs {
  oauthCreds: string;
  googleAccount: string;
  apiKey: string;
  useVertexAi: boolean;
  googleCloudProject: string;
  googleCloudLocation: string;
}

/** What one host was given, before any rule: each auth kind set explicitly, and where a host login would be. */
export interface AuthSources {
  apiKey?: string;
  /** OAuth creds as JSON text (oauth_creds.json's content), and the account they belong to. */
  oauth?: { creds: string; account?: string };
  vertex?: { project?: string; location?: string };
  /** The Code Assist project of an OAuth login. */
  project?: string;
  /** The Gemini home of this host (its `.gemini` parent), whose login is used when nothing else is set. */
  hostHome: string;
  /** How this host's user writes each setting, for the messages. */
  names: AuthNames;
}

interface AuthNames {
  apiKey: string;
  /** Absent where the host has no way to pass creds (the toolkit reads its own login instead). */
  oauth?: string;
  vertex: string;
  /** What to set when Vertex AI has no project. */
  vertexProject: string;
  /** Where `gemini-run login` would have to run, after "run 'gemini-run login'". */
  loginWhere: string;
}

export function authFromActionInputs(inputs: AuthInputs, env: NodeJS.ProcessEnv): AuthSources {
  return {
    ...(inputs.apiKey ? { apiKey: inputs.apiKey } : {}),
    ...(inputs.oauthCreds
      ? { oauth: { creds: inputs.oauthCreds, account: inputs.googleAccount || undefined } }
      : {}),
    ...(inputs.useVertexAi
      ? {
          vertex: {
            project: inputs.googleCloudProject || env.GOOGLE_CLOUD_PROJECT || undefined,
            location: inputs.googleCloudLocation || env.GOOGLE_CLOUD_LOCATION || undefined,
          },
        }
      : {}),
    ...(inputs.googleCloudProject ? { project: inputs.googleCloudProject } : {}),
    hostHome: hostHomeFrom(env),
    names: {
      apiKey: "'gemini-api-key'",
      oauth: "'gemini-oauth-creds'",
      vertex: "'use-vertex-ai'",
      vertexProject:
        "set 'google-cloud-project' (or GOOGLE_CLOUD_PROJECT, e.g. via google-github-actions/auth)",
      loginWhere: ' on the self-hosted runner',
    },
  };
}

/** The toolkit's environment: GEMINI_API_KEY, or GOOGLE_GENAI_USE_VERTEXAI=true, or this host's login. */
export function authFromToolkitEnv(env: NodeJS.ProcessEnv): AuthSources {
  return {
    ...(env.GEMINI_API_KEY ? { apiKey: env.GEMINI_API_KEY } : {}),
    ...(env.GOOGLE_GENAI_USE_VERTEXAI === 'true'
      ? {
          vertex: {
            project: env.GOOGLE_CLOUD_PROJECT || undefined,
            location: env.GOOGLE_CLOUD_LOCATION || undefined,
          },
        }
      : {}),
    hostHome: hostHomeFrom(env),
    names: {
      apiKey: 'GEMINI_API_KEY',
      vertex: 'GOOGLE_GENAI_USE_VERTEXAI=true',
      vertexProject: 'set GOOGLE_CLOUD_PROJECT in the environment',
      loginWhere: '',
    },
  };
}

/**
 * Exactly one of API key, OAuth creds or Vertex AI; with none of them, the host's own login. `mask` is called
 * with every secret of the creds as soon as they are known.
 */
export async function resolveAuth(sources: AuthSources, mask: (secret: string) => void): Promise<AuthConfig> {
  const { names } = sources;
  const configured = [
    sources.oauth ? names.oauth : undefined,
    sources.apiKey ? names.apiKey : undefined,
    sources.vertex ? names.vertex : undefined,
  ].filter((name) => name !== undefined);
  if (configured.length > 1) {
    throw new UserError(
      `Configure exactly one Gemini auth method, not ${configured.join(' and ')}: remove all but one of them.`,
    );
  }
  const project = sources.project;
  if (sources.apiKey) return { kind: 'api-key', apiKey: sources.apiKey };
  if (sources.vertex) {
    const { project: vertexProject, location } = sources.vertex;
    if (!vertexProject) throw new UserError(`Vertex AI needs a project: ${names.vertexProject}.`);
    return { kind: 'vertex-ai', project: vertexProject, location };
  }
  if (sources.oauth) {
    const creds = parseOAuthCreds(sources.oauth.creds);
    maskCreds(creds, mask);
    // Only a refresh token lets the proxy renew the access token; without one the run would die within the hour,
    // on whatever the model service says then. Never quotes the value.
    if (!creds.refresh_token) {
      throw new UserError(
        `${names.oauth ?? 'The OAuth creds'} has no refresh_token, so its access token cannot be renewed: paste the whole oauth_creds.json that 'gemini-run login' wrote.`,
      );
    }
    return { kind: 'oauth', creds, account: sources.oauth.account, project };
  }
  const host = await readHostCreds(sources.hostHome);
  if (host) {
    maskCreds(host.creds, mask);
    return { kind: 'oauth', creds: host.creds, account: host.account, hostHome: sources.hostHome, project };
  }
  const choices = [names.apiKey, names.oauth, names.vertex].filter((name) => name !== undefined);
  throw new UserError(
    `No Gemini auth configured: set ${orList(choices)}, or run 'gemini-run login'${names.loginWhere} (looked for ${join(sources.hostHome, '.gemini', 'oauth_creds.json')}).`,
  );
}

/** `a`, `a or b`, `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function maskCreds(creds: OAuthCreds, mask: (secret: string) => void): void {
  for (const key of ['access_token', 'refresh_token', 'id_token'] as const) {
    const value = creds[key];
    if (typeof value === 'string' && value) mask(value);
  }
}
