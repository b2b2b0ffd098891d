/**
 * One HTTP request to the fake GitHub: logged, its JSON body read, the token checked (401 without it), a queued
 * fault answered first, else its route; every reply carries GitHub's headers.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { takeFault } from './faults.js';
import { DOCS, fail, HttpReply, type Reply } from './http.js';
import { dispatch } from './routes.js';
import type { GitHubState, RecordedRequest } from './state.js';
import { jobLogAt } from './workflow-runs.js';

export async function handleRequest(
  s: GitHubState,
  token: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const method = (req.method ?? 'GET').toUpperCase();
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const record: RecordedRequest = {
    method,
    path: url.pathname,
    query,
    body: undefined,
    status: 0,
    authorized: false,
    at: Date.now(),
  };
  s.requests.push(record);
  // A signed blob URL (a job's log) answers without a token, as GitHub's blob hosts do, and streams plain text.
  const blob = method === 'GET' ? jobLogAt(s, url.pathname, url.searchParams) : undefined;
  if (blob) {
    record.status = 200;
    record.authorized = req.headers.authorization !== undefined;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    for (const chunk of blob) if (!res.write(chunk)) await once(res, 'drain');
    res.end();
    return;
  }
  let reply: Reply;
  try {
    const raw = await readBody(req);
    if (raw.length > 0) {
      try {
        record.body = JSON.parse(raw) as unknown;
      } catch {
        record.body = raw;
        fail(400, 'Problems parsing JSON');
      }
    }
    record.authorized = isAuthorized(req.headers.authorization, token);
    if (!record.authorized) fail(401, 'Bad credentials');
    const hold = s.holds.find(
      (h) =>
        h.remaining > 0 &&
        (h.method === undefined || h.method === method) &&
        (typeof h.path === 'string' ? h.path === url.pathname : h.path.test(url.pathname)),
    );
    if (hold) {
      hold.remaining--;
      await hold.until;
    }
    const fault = takeFault(s.faults, method, url.pathname);
    reply = fault ?? (await dispatch(s, method, url, record));
  } catch (e) {
    reply =
      e instanceof HttpReply
        ? e.reply
        : { status: 500, body: { message: `FakeGitHub bug: ${String(e)}`, documentation_url: DOCS } };
  }
  record.status = reply.status;
  record.response = reply.body;
  const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'x-github-media-type': 'github.v3; format=json',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'x-github-request-id': `FAKE:${s.requests.length}`,
    ...reply.headers,
  });
  res.end(payload);
}

function isAuthorized(header: string | undefined, token: string): boolean {
  if (!header) return false;
  const m = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
  return m?.[1] === token;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (b: Buffer) => chunks.push(b));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
