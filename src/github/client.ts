/**
 * The GitHub REST client: the Octokit from @actions/github (proxy-aware, `GITHUB_API_URL`-aware) with retries on
 * 5xx and bounded waits on rate limits (request-policy.ts), logging through our Logger rather than @actions/core.
 */
import { getOctokit } from '@actions/github';
import { UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { requestWithPolicy, type LimitKind, type RequestShape } from './request-policy.js';

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface GitHubClientOptions {
  logger?: Logger;
  /** Retries of a request that failed with a 5xx (or a network error). Default 3. */
  retries?: number;
  /** Retries after a rate limit. Default 2. */
  rateLimitRetries?: number;
  /** Longest `retry-after` (seconds) worth waiting for; longer waits fail the request instead. Default 120. */
  maxRetryAfterSeconds?: number;
  /**
   * When the run's time is up (epoch ms): a rate limit is waited out until then, however long (a primary reset can
   * be an hour away), and fails at once when it lifts later. Replaces `maxRetryAfterSeconds`.
   */
  deadline?: number;
  /**
   * Milliseconds per second of back-off (retry-after and the 1 s, 4 s, 9 s between retries). Default 1000; tests
   * make it tiny so retries are exercised without waiting.
   */
  retryAfterBaseValue?: number;
  /** Aborts every request of this client, and any wait between its tries (a bound on a best-effort notice). */
  signal?: AbortSignal;
}

export function createGitHubClient(
  token: string,
  baseUrl?: string,
  opts: GitHubClientOptions = {},
): GitHubClient {
  if (!token)
    throw new UserError("No GitHub token: set the 'github-token' input (default: ${{ github.token }}).");
  const logger = opts.logger;
  const rateLimitRetries = opts.rateLimitRetries ?? 2;
  const maxWait = opts.maxRetryAfterSeconds ?? 120;
  const base = opts.retryAfterBaseValue ?? 1000;

  // Each wait, and each refusal to wait, is one line.
  const onLimit = (kind: LimitKind, retryAfter: number, options: RequestShape, retryCount: number) => {
    const what = `${options.method ?? 'GET'} ${options.url ?? ''}`;
    const until = new Date(Date.now() + retryAfter * base).toISOString();
    const left = opts.deadline === undefined ? undefined : Math.floor((opts.deadline - Date.now()) / base);
    const longest = left ?? maxWait;
    if (retryCount < rateLimitRetries && retryAfter <= longest) {
      logger?.warning(
        `GitHub ${kind} rate limit on ${what}: waiting ${retryAfter} s until ${until} (${retryCount + 1}/${rateLimitRetries}).`,
      );
      return true;
    }
    logger?.warning(
      retryAfter > longest
        ? `GitHub ${kind} rate limit on ${what}: it lifts at ${until}, ${retryAfter} s from now, ${left === undefined ? `longer than gemini-run waits (${maxWait} s)` : `after this run's time is up (${Math.max(0, left)} s left)`}; giving up.`
        : `GitHub ${kind} rate limit on ${what}: still limited after ${rateLimitRetries} wait(s); giving up.`,
    );
    return false;
  };

  const octokit = getOctokit(token, {
    ...(baseUrl ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}),
    ...(opts.signal ? { request: { signal: opts.signal } } : {}),
    log: {
      debug: (m: string) => logger?.debug(m),
      info: (m: string) => logger?.debug(m),
      warn: (m: string) => logger?.warning(m),
      error: (m: string) => logger?.error(m),
    },
  });
  const policy = { retries: opts.retries ?? 3, secondMs: base, onLimit };
  octokit.hook.wrap('request', (request, options) => requestWithPolicy(policy, request, options));
  return octokit;
}

/** Logins of GitHub Apps end in `[bot]`; the API also marks them `type: Bot`. */
export function isBotUser(user: { login: string; type?: string | null } | null | undefined): boolean {
  if (!user) return true;
  return user.type === 'Bot' || user.login.endsWith('[bot]');
}

/** True for an Octokit RequestError (or anything shaped like one) with this HTTP status. */
export function hasStatus(error: unknown, status: number): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && error.status === status;
}
