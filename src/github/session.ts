/**
 * The action's session with GitHub: the token (the `github-token` input, else the job's GITHUB_TOKEN), the clients
 * made from it, and the token's own login, asked once. A step makes one: the main step's pipeline uses it for
 * everything it does on GitHub (the misconfigured report, admission, the deferred-run sweep and every run it
 * resumes), the post step for the tracking comment it finishes.
 */
import { createGitHubClient, type GitHubClient } from './client.js';
import { tokenIdentity } from './comments.js';
import type { Logger } from '../util/log.js';

/** The token the action works with: its `github-token` input, else the job's GITHUB_TOKEN; empty when neither. */
export function githubTokenOf(input: string | undefined, env: NodeJS.ProcessEnv): string {
  return input || env.GITHUB_TOKEN || '';
}

export interface GitHubSession {
  readonly token: string;
  /** Retries a 5xx; waits out a rate limit of up to 120 s. */
  readonly client: GitHubClient;
  /** A client that waits out a rate limit until `deadline` (epoch ms: a run's own time), however long. */
  until(deadline: number): GitHubClient;
  /** A client for one best-effort notice: no retry, every request aborted after `ms`. */
  notice(ms: number): GitHubClient;
  /** The token's own login (only comments it wrote are the action's), asked once; rejects when GitHub does not say. */
  identity(): Promise<string>;
}

/** The session of `token`, or undefined without one. */
export function openGitHubSession(o: {
  token: string;
  apiUrl: string;
  logger: Logger;
  /** Milliseconds per second of back-off (GitHubClientOptions.retryAfterBaseValue); default 1000. */
  backoffMs?: number;
}): GitHubSession | undefined {
  if (!o.token) return undefined;
  const { token, apiUrl } = o;
  const base = {
    logger: o.logger,
    ...(o.backoffMs === undefined ? {} : { retryAfterBaseValue: o.backoffMs }),
  };
  const client = createGitHubClient(token, apiUrl, base);
  let identity: Promise<string> | undefined;
  return {
    token,
    client,
    until: (deadline) => createGitHubClient(token, apiUrl, { ...base, deadline }),
    notice: (ms) =>
      createGitHubClient(token, apiUrl, {
        ...base,
        retries: 0,
        rateLimitRetries: 0,
        signal: AbortSignal.timeout(ms),
      }),
    identity: () => (identity ??= tokenIdentity(client)),
  };
}
