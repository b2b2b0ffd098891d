/**
 * What a route is (a method, a path template under a repository, a handler) and what every handler gets: the
 * request and the repository it names. With the lookups and the pagination the resources share.
 */
import { fail, type Reply } from './http.js';
import type { GitHubState, StoredComment, StoredIssue, StoredRepo } from './state.js';

export interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  params: Record<string, string>;
  repo: StoredRepo;
  state: GitHubState;
}

type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

/** The repository part of every REST route: a route whose repository the fake does not have is unexpected. */
export const REPO = '/repos/:owner/:repo';

/** A route from a template such as `/repos/:owner/:repo/issues/:number` (each `:name` one path segment). */
export function route(method: string, template: string, handler: Handler): Route {
  const keys: string[] = [];
  const source = template.replace(/:(\w+)/g, (_, k: string) => {
    keys.push(k);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${source}/?$`), keys, handler };
}

export function issueAt(c: Ctx): StoredIssue {
  const issue = c.repo.issues.get(Number(c.params.number));
  if (!issue) fail(404, 'Not Found');
  return issue;
}

export function pullAt(c: Ctx): StoredIssue {
  const issue = issueAt(c);
  if (!issue.pull) fail(404, 'Not Found');
  return issue;
}

export function commentAt(c: Ctx): StoredComment {
  const comment = c.repo.comments.find((x) => x.id === Number(c.params.id));
  if (!comment) fail(404, 'Not Found');
  return comment;
}

/** `per_page` (1–100, default 30) and `page` (from 1) of the query. */
function pageOf(query: URLSearchParams): { perPage: number; page: number } {
  const perPage = Math.min(Math.max(Number(query.get('per_page') ?? 30) || 30, 1), 100);
  const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
  return { perPage, page };
}

/** One page of a listing GitHub wraps as `{ total_count, <key>: [...] }` (the Actions lists), with its Link header. */
export function wrappedPage<T>(
  c: Ctx,
  key: string,
  all: readonly T[],
  json: (t: T) => unknown,
  total = all.length,
): Reply {
  const page = paginate(c, all as unknown[]);
  return { ...page, body: { total_count: total, [key]: (page.body as T[]).map(json) } };
}

/** One page of `all`, with the Link header GitHub sends (prev, next, last, first). */
export function paginate(c: Ctx, all: unknown[]): Reply {
  const { perPage, page } = pageOf(c.query);
  const last = Math.max(Math.ceil(all.length / perPage), 1);
  const body = all.slice((page - 1) * perPage, page * perPage);
  const link = (p: number, rel: string): string => {
    const q = new URLSearchParams(c.query);
    q.set('per_page', String(perPage));
    q.set('page', String(p));
    return `<${c.state.baseUrl}${c.path}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  return { status: 200, body, headers: links.length ? { link: links.join(', ') } : {} };
}
