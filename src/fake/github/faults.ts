/** Faults a test queues with `failNext`: the next matching requests fail the way GitHub fails under load. */
import { DOCS, type Reply } from './http.js';

export type FaultKind =
  'bad-gateway' | 'server-error' | 'secondary-rate-limit' | 'rate-limit' | 'rate-limit-429' | 'forbidden';

export interface Fault {
  method: string | undefined;
  path: string | RegExp;
  remaining: number;
  kind: FaultKind;
  retryAfter: number;
}

/** The reply of the first queued fault matching the request (one of its `remaining` used up), if any. */
export function takeFault(faults: Fault[], method: string, path: string): Reply | undefined {
  const fault = faults.find(
    (f) =>
      f.remaining > 0 &&
      (f.method === undefined || f.method === method) &&
      (typeof f.path === 'string' ? f.path === path : f.path.test(path)),
  );
  if (!fault) return undefined;
  fault.remaining--;
  const retry = { 'retry-after': String(fault.retryAfter) };
  switch (fault.kind) {
    // A token without the permission the call needs (e.g. `contents: read` creating a blob).
    case 'forbidden':
      return {
        status: 403,
        body: { message: 'Resource not accessible by integration', documentation_url: DOCS, status: '403' },
      };
    case 'bad-gateway':
      return { status: 502, body: { message: 'Server Error', documentation_url: DOCS, status: '502' } };
    case 'server-error':
      return { status: 500, body: { message: 'Server Error', documentation_url: DOCS, status: '500' } };
    case 'secondary-rate-limit':
      return {
        status: 403,
        headers: retry,
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID FAKE.',
          documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
          status: '403',
        },
      };
    // A primary limit: GitHub answers 403 or 429 with x-ratelimit-remaining 0 and the reset time (epoch seconds).
    case 'rate-limit':
    case 'rate-limit-429':
      return {
        status: fault.kind === 'rate-limit' ? 403 : 429,
        headers: {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + fault.retryAfter),
        },
        body: { message: 'API rate limit exceeded for installation ID 1.', documentation_url: DOCS },
      };
  }
}
