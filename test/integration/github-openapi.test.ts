/**
 * The checker that holds the fake GitHub to GitHub's REST description (test/harness/openapi-check.ts) over real
 * HTTP: what the fake answers to the calls the action makes, its faults included, conforms; and a request or an
 * answer GitHub's description does not allow is reported with its operation, status and JSON pointer — the
 * checker can fail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeGitHub } from '../../src/fake/github-api.js';
import { checkAgainstGitHub, describeViolations, openapiTimings } from '../harness/openapi-check.js';

const TOKEN = 'ghs_openapi';
let gh: FakeGitHub;

beforeEach(async () => {
  gh = new FakeGitHub({ token: TOKEN });
  await gh.start();
  gh.addRepo({ owner: 'acme', name: 'demo' });
  gh.setPermission('alice', 'write');
  gh.addIssue({ title: 'An issue', body: 'text', user: 'alice' });
});
afterEach(async () => {
  await gh.stop();
});

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${gh.url}${path}`, {
    method,
    headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

describe("the fake GitHub against GitHub's REST description", () => {
  it("answers the action's calls, and the faults GitHub produces, in GitHub's shapes", async () => {
    await call('GET', '/repos/acme/demo');
    await call('GET', '/repos/acme/demo/collaborators/alice/permission');
    await call('GET', '/repos/acme/demo/collaborators/nobody/permission');
    await call('GET', '/repos/acme/demo/issues/1');
    await call('POST', '/repos/acme/demo/issues/1/reactions', { content: 'eyes' });
    await call('POST', '/repos/acme/demo/issues/1/comments', { body: 'tracking' });
    await call('GET', '/repos/acme/demo/issues/1/comments?per_page=100');
    await call('POST', '/repos/acme/demo/issues/1/labels', { labels: ['gemini-run'] });
    await call('DELETE', '/repos/acme/demo/issues/1/labels/gemini-run');
    await call('POST', '/repos/acme/demo/pulls', { title: 't', head: 'gemini-run/1', base: 'main' });
    await call('GET', '/repos/acme/demo/pulls?head=acme%3Agemini-run%2F1&state=open');
    await call('GET', '/repos/acme/demo/pulls/2');
    await call('PATCH', '/repos/acme/demo/pulls/2', { body: 'updated' });
    await call('GET', '/repos/acme/demo/pulls/2/comments');
    await call('GET', '/repos/acme/demo/issues/99');
    await call('POST', '/repos/acme/demo/issues/1/comments', { body: 'x'.repeat(70_000) });
    // The spend ledger of max-daily-tokens: its issue, locked and closed; an entry read since midnight, then deleted.
    await call('POST', '/repos/acme/demo/issues', {
      title: 'ledger',
      body: 'b',
      labels: ['gemini-run:ledger'],
    });
    await call('PUT', '/repos/acme/demo/issues/3/lock');
    await call('PATCH', '/repos/acme/demo/issues/3', { state: 'closed', state_reason: 'not_planned' });
    await call(
      'GET',
      '/repos/acme/demo/issues?labels=gemini-run%3Aledger&state=all&sort=created&direction=asc',
    );
    await call('GET', '/repos/acme/demo/issues/3/comments?since=2026-01-01T00%3A00%3A00.000Z&per_page=100');
    await call('DELETE', '/repos/acme/demo/issues/comments/1');
    await call('POST', '/graphql', { query: '{ viewer { login } }' });
    for (const kind of [
      'bad-gateway',
      'server-error',
      'secondary-rate-limit',
      'rate-limit',
      'rate-limit-429',
    ] as const) {
      gh.failNext({ method: 'GET', path: '/repos/acme/demo/issues/1', kind });
      expect(await call('GET', '/repos/acme/demo/issues/1')).toBeGreaterThanOrEqual(403);
    }
    const report = checkAgainstGitHub(gh.requests);
    expect(describeViolations(report.violations)).toBe('');
    expect(report).toMatchObject({ checked: gh.requests.length - 1, graphql: 1 });
    console.log(
      `openapi: ${report.checked} exchange(s) checked; description read in ${Math.round(openapiTimings.loadMs)} ms, schemas compiled in ${Math.round(openapiTimings.compileMs)} ms`,
    );
  });

  it('reports an invalid request with its operation, status and pointer', async () => {
    await call('POST', '/repos/acme/demo/issues/1/comments', { body: 5 });
    await call('POST', '/repos/acme/demo/issues/1/reactions', { content: 'thumbsup' });
    await call('GET', '/repos/acme/demo/pulls?state=merged&per_page=100');
    const { violations } = checkAgainstGitHub(gh.requests);
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operation: 'issues/create-comment',
          part: 'request body',
          pointer: '/body',
        }),
        expect.objectContaining({
          operation: 'reactions/create-for-issue',
          part: 'request body',
          pointer: '/content',
        }),
        expect.objectContaining({ operation: 'pulls/list', part: 'query', pointer: '/state' }),
      ]),
    );
  });

  it('reports a route GitHub does not have, and an answer that is not in its shapes', () => {
    const base = { query: {}, body: undefined, authorized: true, at: 0 };
    const { violations, twirp, graphql } = checkAgainstGitHub([
      { ...base, method: 'GET', path: '/repos/acme/demo/nope', status: 404, response: { message: 'x' } },
      {
        ...base,
        method: 'GET',
        path: '/repos/acme/demo/issues/1',
        status: 200,
        response: { id: 1, number: 1, title: 't' },
      },
      {
        ...base,
        method: 'GET',
        path: '/repos/acme/demo/issues/2',
        status: 404,
        response: { message: 'Not Found' },
      },
      { ...base, method: 'GET', path: '/repos/acme/demo/issues/3', status: 418, response: undefined },
      {
        ...base,
        method: 'POST',
        path: '/twirp/github.actions.results.api.v1.ArtifactService/x',
        status: 200,
      },
      { ...base, method: 'POST', path: '/graphql', status: 200 },
    ]);
    expect({ twirp, graphql }).toEqual({ twirp: 1, graphql: 1 });
    const lines = describeViolations(violations);
    expect(lines).toContain('GET /repos/acme/demo/nope → 404: route /: GitHub has no such operation');
    expect(lines).toContain("issues/get → 200: response body /: must have required property 'user'");
    expect(lines).toContain('issues/get → 404: response body /documentation_url: an error body carries it');
    expect(lines).toContain('issues/get → 418: status /: status 418 is not documented for the operation');
  });
});
