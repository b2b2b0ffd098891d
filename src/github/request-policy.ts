/**
 * What the GitHub client does when a request fails: a rate limit is waited out (primary: until `x-ratelimit-reset`
 * plus a second; secondary: `retry-after`, else a minute), as GitHub's rate-limit guide asks; any other failure
 * GitHub may answer differently next time (a 5xx, a network error, which Octokit reports as 500) is asked again after
 * 1, 4, 9 s. The same rules as @octokit/plugin-throttling and @octokit/plugin-retry, without their Bottleneck
 * queues, which added about 15 ms to every request (a run makes dozens) for a queue a run never fills.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Statuses asked again never: the answer would be the same (a rate limit's 403 and 429 are decided apart). */
const FINAL_STATUSES = [400, 401, 403, 404, 410, 422, 429, 451];

export type LimitKind = 'primary' | 'secondary';

/** The parts of an Octokit RequestError this reads. */
interface FailedRequest {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function isFailedRequest(error: unknown): error is FailedRequest {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { status?: unknown }).status === 'number' &&
    'request' in error
  );
}

function rateLimited(data: unknown): boolean {
  const errors = (data as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors.some((e) => (e as { type?: unknown })?.type === 'RATE_LIMITED');
}

/** The rate limit a failure is, with the seconds until it lifts; undefined for any other failure. */
export function rateLimitOf(
  error: FailedRequest,
  graphql: boolean,
  nowMs: number,
): { kind: LimitKind; retryAfter: number } | undefined {
  if (!(error.status === 403 || error.status === 429 || (graphql && error.status !== 401))) return undefined;
  const headers = error.response?.headers ?? {};
  if (/\bsecondary rate\b/i.test(error.message)) {
    return { kind: 'secondary', retryAfter: Number(headers['retry-after']) || 60 };
  }
  if (String(headers['x-ratelimit-remaining']) === '0' || rateLimited(error.response?.data)) {
    const reset = Number(headers['x-ratelimit-reset']) * 1000 || 0;
    return { kind: 'primary', retryAfter: Math.max(Math.ceil((reset - nowMs) / 1000) + 1, 0) };
  }
  return undefined;
}

/** Whether a failure that is no rate limit is worth asking again. */
export function retriable(error: FailedRequest): boolean {
  return error.status >= 400 && !FINAL_STATUSES.includes(error.status);
}

export interface RequestPolicy {
  /** Retries of a failure that is no rate limit. */
  retries: number;
  /** Milliseconds per second of every wait. */
  secondMs: number;
  /** Asked at each rate limit with the retries of limits so far: true to wait `retryAfter` s and ask again. */
  onLimit(kind: LimitKind, retryAfter: number, options: RequestShape, limitRetries: number): boolean;
}

export interface RequestShape {
  method?: string;
  url?: string;
  request?: { signal?: AbortSignal | null };
}

/** A 200 that GraphQL fills with an error: thrown as the failure it is, so the rules above apply. */
function graphqlFailure(
  response: { status: number; data?: unknown },
  options: RequestShape,
): Error | undefined {
  const errors = (response.data as { errors?: { message?: string; type?: string }[] } | undefined)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const failure = (message: string, status: number) =>
    Object.assign(new Error(message), { status, request: options, response });
  if (errors.some((e) => e.type === 'RATE_LIMITED')) return failure('GraphQL Rate Limit Exceeded', 200);
  if (/Something went wrong while executing your query/.test(errors[0]?.message ?? ''))
    return failure(errors[0]?.message ?? '', 500);
  return undefined;
}

/** `request` under the policy: each failure retried or thrown as above; waits end with the request's signal. */
export async function requestWithPolicy<O extends RequestShape, R extends { status: number; data?: unknown }>(
  policy: RequestPolicy,
  request: (options: O) => R | Promise<R>,
  options: O,
): Promise<R> {
  const graphql = new URL(options.url ?? '/', 'http://github.test').pathname.startsWith('/graphql');
  let retries = 0;
  let limitRetries = 0;
  for (;;) {
    try {
      const response = await request(options);
      const failed = graphql ? graphqlFailure(response, options) : undefined;
      if (failed) throw failed;
      return response;
    } catch (error) {
      if (!isFailedRequest(error)) throw error;
      const limit = rateLimitOf(error, graphql, Date.now());
      let waitS: number;
      if (limit) {
        if (!policy.onLimit(limit.kind, limit.retryAfter, options, limitRetries)) throw error;
        limitRetries++;
        waitS = limit.retryAfter;
      } else {
        if (!retriable(error) || retries >= policy.retries) throw error;
        retries++;
        waitS = retries ** 2;
      }
      await sleep(waitS * policy.secondMs, undefined, { signal: options.request?.signal ?? undefined });
    }
  }
}
