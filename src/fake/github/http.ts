/**
 * The fake GitHub's answers: a reply, and the errors in GitHub's shapes (thrown as HttpReply from anywhere in a
 * route, answered as they are), with the checks of a request body every route shares.
 */

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const DOCS = 'https://docs.github.com/rest';

/** GitHub's limit on an issue, PR or comment body, in characters. */
const MAX_BODY_CHARS = 65_536; // GitHub's documented limit; kept here, not imported, so the fake checks our code rather than echoing it

export class HttpReply extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

export function fail(status: number, message: string, errors?: unknown[]): never {
  throw new HttpReply({
    status,
    body: { message, ...(errors ? { errors } : {}), documentation_url: DOCS, status: String(status) },
  });
}

export function validationFailed(message: string): never {
  fail(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message }]);
}

/** 422 for a body over GitHub's limit, in GitHub's words. */
export function checkBodyLength(body: string | undefined, resource: string): void {
  if (body !== undefined && body.length > MAX_BODY_CHARS) {
    fail(422, 'Validation Failed', [
      {
        resource,
        code: 'custom',
        field: 'body',
        message: `body is too long (maximum is ${MAX_BODY_CHARS} characters)`,
      },
    ]);
  }
}

export function asRecord(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) fail(400, 'Problems parsing JSON');
  return body as Record<string, unknown>;
}

export function optString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string')
    fail(422, `Invalid request.\n\nFor '${key}', ${JSON.stringify(v)} is not a string.`);
  return v;
}
