/**
 * The GitHub REST client: the Octokit from @actions/github (proxy-aware, `GITHUB_API_URL`-aware) with retries on
 * 5xx and bounded waits on rate limits, logging through our Logger rather than @actions/core.
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling';
import { UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface GitHubClientOptions {
  logger?: Logger;
  /** Retries of a request that failed with a 5xx (or a network error). Default 3. */
  retries?: number;
  /** Retries after a secondary rate limit. Default 2. */
  rateLimitRetries?: number;
  /** Longest `retry-after` (seconds) worth waiting for; longer waits fail the request instead. Default 120. */
  maxRetryAfterSeconds?: number;
  /**
   * When the run's time is up (epoch ms): a rate limit is waited out until then, however long (a primary reset can
   * be an hour away), and fails at once when it lifts later. Replaces `maxRetryAfterSeconds`.
   */
  deadline?: number;
  /**
   * Milliseconds per second of back-off (retry-after and the retry plugin's 1 s, 4 s, 9 s). Default 1000; tests
   * make it tiny so retries are exercised without waiting.
   */
  retryAfterBaseValue?: number;
  /**
   * Space writes like the throttling plugin does by default (1 s between writes, 3 s between writes that notify
   * people, such as comments and PRs). GitHub asks for that from integrations making MANY writes; one run makes a
   * handful, and a secondary rate limit is still retried, so the default is off: spacing would only add seconds
   * to every run. Default false.
   */
  spaceWrites?: boolean;
  /** Aborts every request of this client (a bound on a best-effort notice that must not hold the step). */
  signal?: AbortSignal;
}

/** A Bottleneck.Group look-alike that schedules immediately: the throttling plugin only calls `key().schedule()`. */
const immediateGroup = {
  key: () => ({
    schedule: <T>(_options: unknown, fn: (...args: unknown[]) => T | Promise<T>, ...args: unknown[]) =>
      Promise.resolve(fn(...args)),
  }),
} as unknown as NonNullable<ThrottlingOptions['write']>;

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

  // The wait is the plugin's: until `x-ratelimit-reset` (plus a second) for the primary limit, `retry-after` (or a
  // minute) for the secondary one, as GitHub's rate-limit guide asks. Each wait, and each refusal to wait, is one line.
  const onLimit =
    (kind: string) =>
    (retryAfter: number, options: { method?: string; url?: string }, _o: unknown, retryCount: number) => {
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

  return getOctokit(
    token,
    {
      ...(baseUrl ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}),
      ...(opts.signal ? { request: { signal: opts.signal } } : {}),
      log: {
        debug: (m: string) => logger?.debug(m),
        info: (m: string) => logger?.debug(m),
        warn: (m: string) => logger?.warning(m),
        error: (m: string) => logger?.error(m),
      },
      // A 429 is a rate limit: the throttling plugin waits for its reset or retry-after. The retry plugin's own
      // back-off (1 s, 4 s, 9 s) would ask again before the limit lifts.
      retry: {
        retries: opts.retries ?? 3,
        retryAfterBaseValue: base,
        doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451],
      },
      throttle: {
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
        retryAfterBaseValue: base,
        ...(opts.spaceWrites !== true ? { write: immediateGroup, notifications: immediateGroup } : {}),
      },
    },
    retry,
    throttling,
  );
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
