import { join } from 'node:path';
import { parseOAuthCreds } from '../gemini/creds.js';
import { hostHomeFrom, readHostCreds } from '../gemini/home.js';
import type { AuthConfig, OAuthCreds } from '../domain/types.js';
import { UserError } from '../util/errors.js';

/** The auth inputs, whoever gathers them (the action's inputs, the CLI's flags). */
export interface AuthInputs {
  oauthCreds: string;
  googleAccount: string;
  apiKey: string;
  useVertexAi: boolean;
  googleCloudProject: string;
  googleCloudLocation: string;
}

/**
 * Exactly one of OAuth creds, API key or Vertex AI; OAuth creds may instead come from the runner host.
 * `mask` is called with every secret value as soon as it is known.
 */
export async function resolveAuth(
  inputs: AuthInputs,
  env: NodeJS.ProcessEnv,
  mask: (secret: string) => void,
): Promise<AuthConfig> {
  const configured = [
    inputs.oauthCreds ? "'gemini-oauth-creds'" : '',
    inputs.apiKey ? "'gemini-api-key'" : '',
    inputs.useVertexAi ? "'use-vertex-ai'" : '',
  ].filter(Boolean);
  if (configured.length > 1) {
    throw new UserError(
      `Configure exactly one Gemini auth method, not ${configured.join(' and ')}: remove all but one of them.`,
    );
  }
  const project = inputs.googleCloudProject || undefined;
  if (inputs.apiKey) return { kind: 'api-key', apiKey: inputs.apiKey };
  if (inputs.useVertexAi) {
    const location = inputs.googleCloudLocation || env.GOOGLE_CLOUD_LOCATION || undefined;
    const vertexProject = project ?? env.GOOGLE_CLOUD_PROJECT;
    if (!vertexProject) {
      throw new UserError(
        "Vertex AI needs a project: set 'google-cloud-project' (or GOOGLE_CLOUD_PROJECT, e.g. via google-github-actions/auth).",
      );
    }
    return { kind: 'vertex-ai', project: vertexProject, location };
  }
  if (inputs.oauthCreds) {
    const creds = parseOAuthCreds(inputs.oauthCreds);
    maskCreds(creds, mask);
    return { kind: 'oauth', creds, account: inputs.googleAccount || undefined, project };
  }
  const hostHome = hostHomeFrom(env);
  const host = await readHostCreds(hostHome);
  if (host) {
    maskCreds(host.creds, mask);
    return { kind: 'oauth', creds: host.creds, account: host.account, hostHome, project };
  }
  throw new UserError(
    `No Gemini auth configured: set 'gemini-api-key', 'gemini-oauth-creds' or 'use-vertex-ai', or run 'gemini-run login' on the self-hosted runner (looked for ${join(hostHome, '.gemini', 'oauth_creds.json')}).`,
  );
}

function maskCreds(creds: OAuthCreds, mask: (secret: string) => void): void {
  for (const key of ['access_token', 'refresh_token', 'id_token'] as const) {
    const value = creds[key];
    if (typeof value === 'string' && value) mask(value);
  }
}
