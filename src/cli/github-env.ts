/** A GitHub REST client from the environment a toolkit command runs in: the token, the API (GitHub Enterprise Server too). */
import { createGitHubClient, type GitHubClient } from '../github/client.js';
import { UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';

export interface GitHubFromEnv {
  client: GitHubClient;
  apiUrl: string;
  /** The web server links point at: GITHUB_SERVER_URL, else the API's (api.github.com → github.com, GHES `/api/v3` off). */
  serverUrl: string;
}

/** `needs`: what the token must be able to read, for the error when there is none. */
export function gitHubFromEnv(env: NodeJS.ProcessEnv, logger: Logger, needs: string): GitHubFromEnv {
  const token = env.GITHUB_TOKEN || env.GH_TOKEN || '';
  if (!token)
    throw new UserError(`No GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read ${needs}.`);
  const apiUrl = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  const api = new URL(apiUrl);
  const derived =
    api.host === 'api.github.com'
      ? 'https://github.com'
      : `${api.origin}${api.pathname.replace(/\/api\/v3$/, '')}`;
  return {
    client: createGitHubClient(token, apiUrl, { logger }),
    apiUrl,
    serverUrl: (env.GITHUB_SERVER_URL || derived).replace(/\/+$/, ''),
  };
}
