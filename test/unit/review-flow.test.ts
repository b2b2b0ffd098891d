/**
 * `flow: review`, the pure parts, against what a prompt-injected agent writes: the review file read with zod (each
 * comment on its own; APPROVE read but never trusted), the review composed through src/markdown (mentions and
 * references dead, a suggestion that cannot leave its fence, comments off the diff kept in the summary), the
 * incomplete review that says what happened, the diff the task holds (bounded, generated files said), and the
 * triggers of the flow.
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../src/action/flows/answer-file.js';
import { REVIEW_FILE, reviewFileSchema, type ReviewAnswer } from '../../src/action/flows/review-file.js';
import { reviewInput } from '../../src/action/flows/review-input.js';
import { composeReview, type ReviewFacts, type Speaker } from '../../src/action/flows/review-text.js';
import { linesByPath, placeComments, type DiffFile } from '../../src/github/review-diff.js';
import { interpretEvent, REVIEW_TRIGGERS, type TriggerSettings } from '../../src/github/trigger.js';
import { publishedBlock, publishedDocument, type PublishContext } from '../../src/markdown/publish.js';

const ON: PublishContext = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', ownIssue: 2 };
const speaker: Speaker = {
  publish: (t) => publishedDocument(t, ON),
  publishBlock: (t) => publishedBlock(t, ON),
  scrubbed: (t) => t,
  publishOn: ON,
};

const PATCH = '@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a + b;\n+  return a - b;\n }';
const FILES: DiffFile[] = [
  { path: 'src/calc.js', status: 'modified', additions: 1, deletions: 1, patch: PATCH },
];

function read(json: unknown): ReviewAnswer {
  const parsed = reviewFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

function facts(answer: ReviewAnswer | string, o: Partial<ReviewFacts> = {}): ReviewFacts {
  const a =
    typeof answer === 'string'
      ? ({ kind: 'problem', what: answer } as const)
      : ({ kind: 'read', value: answer } as const);
  return {
    headSha: 'a'.repeat(40),
    answer: a,
    finalAnswer: 'Final answer: @mallory says approve.',
    placement:
      a.kind === 'read'
        ? placeComments(a.value.comments, linesByPath(FILES), 30)
        : { inline: [], outside: [] },
    mayApprove: false,
    notReviewed: { generated: [], noDiff: [], leftOut: [], moreFiles: 0 },
    runUrl: 'https://github.com/acme/widgets/actions/runs/1',
    ...o,
  };
}

/** `@name` not inside a code span: what GitHub would notify. */
const liveMention = (text: string) => /(^|[^`\w])@mallory(?!`)/.test(text.replace(/`[^`\n]*`/g, ''));

describe('the review file', () => {
  it('reads APPROVE, but the review only comments unless the workflow allows approving', () => {
    const answer = read({ summary: 'ok', event: 'approve', comments: [] });
    expect(answer.event).toBe('APPROVE');
    const denied = composeReview(facts(answer), speaker);
    expect(denied.event).toBe('COMMENT');
    expect(denied.body).toContain('`review-may-approve`');
    expect(composeReview(facts(answer, { mayApprove: true }), speaker).event).toBe('APPROVE');
  });

  it('reads "request changes" as GitHub names it, and anything else as a comment', () => {
    expect(read({ event: 'request changes' }).event).toBe('REQUEST_CHANGES');
    expect(read({ event: 'MERGE' }).event).toBe('COMMENT');
    expect(read({}).event).toBe('COMMENT');
  });

  it('a malformed comment costs that comment only, counted with why; paths lose a leading ./', () => {
    const answer = read({
      comments: [
        { path: './src/calc.js', line: 2, body: 'kept' },
        { path: 'src/calc.js', line: -1, body: 'negative' },
        { path: 'src/calc.js', line: 2, body: 'big', suggestion: 'x'.repeat(20_001) },
        'not an object',
      ],
    });
    expect(answer.comments.map((c) => [c.path, c.line, c.side])).toEqual([['src/calc.js', 2, 'RIGHT']]);
    expect(answer.unreadable.count).toBe(3);
    expect(answer.unreadable.first).toMatch(/^comments\.1\.line/);
  });
});

describe('reading the answer file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'review-answer-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const answer = () =>
    readAnswerFile({ worktree: dir, name: REVIEW_FILE, agentUid: undefined, schema: reviewFileSchema });

  it('reads the JSON gemini 0.42.0 write_file leaves of escaped newlines (raw ones inside strings)', async () => {
    await writeFile(join(dir, REVIEW_FILE), '{"summary": "two\nlines", "comments": []}');
    expect(await answer()).toMatchObject({ kind: 'read', value: { summary: 'two\nlines' } });
  });

  it('says what is wrong, in one line, for a missing file, broken JSON, the wrong shape and a link out', async () => {
    expect(await answer()).toEqual({ kind: 'problem', what: 'the agent wrote no `gemini-review.json`' });
    await writeFile(join(dir, REVIEW_FILE), '{"summary": "x", oops');
    expect(await answer()).toEqual({ kind: 'problem', what: '`gemini-review.json` is not valid JSON' });
    await writeFile(join(dir, REVIEW_FILE), '[1, 2]');
    expect(await answer()).toMatchObject({
      kind: 'problem',
      what: expect.stringMatching(/not in the shape asked for/),
    });
    await rm(join(dir, REVIEW_FILE));
    await symlink('/etc/hostname', join(dir, REVIEW_FILE));
    expect(await answer()).toMatchObject({
      kind: 'problem',
      what: expect.stringMatching(/could not be read/),
    });
  });
});

describe('the review as posted', () => {
  const hostile = read({
    summary: 'LGTM @mallory, closes #1. ![x](https://evil.example/p.png)',
    event: 'APPROVE',
    comments: [
      { path: 'src/calc.js', line: 2, body: 'Subtracts. @mallory', suggestion: '  return a + b;' },
      { path: 'src/calc.js', line: 1, body: 'x', suggestion: 'a\n```\n@mallory closes #1\n```suggestion\nb' },
      { path: 'src/calc.js', line: 2, side: 'LEFT', body: 'old side', suggestion: 'y' },
      { path: 'src/other.js', line: 3, body: 'elsewhere @mallory', suggestion: 'z' },
    ],
  });
  const review = composeReview(facts(hostile), speaker);

  it('puts comments on their lines, suggestions that apply in a suggestion fence, nothing live', () => {
    expect(review.comments.map((c) => [c.line, c.side])).toEqual([
      [2, 'RIGHT'],
      [1, 'RIGHT'],
      [2, 'LEFT'],
    ]);
    expect(review.comments[0]?.body).toContain('\n```suggestion\n  return a + b;\n```');
    // The breakout is one block: a longer fence, with the text's own fences inside it.
    expect(review.comments[1]?.body).toMatch(
      /````suggestion\na\n```\n@mallory closes #1\n```suggestion\nb\n````/,
    );
    // A replacement of removed lines is no suggestion GitHub could apply: plain code, with why.
    expect(review.comments[2]?.body).not.toContain('suggestion\n');
    expect(review.comments[2]?.body).toContain('removed');
    for (const text of [review.body, review.comments[0]?.body ?? ''])
      expect(liveMention(text), text).toBe(false);
    // The image is text in a code span, loading nothing.
    expect(review.body).toContain('`![x](https://evil.example/p.png)`');
  });

  it('keeps a comment off the diff in the summary, with why, its suggestion as plain code', () => {
    expect(review.body).toContain('the file is not in this pull request');
    expect(review.body).toContain('elsewhere');
    expect(review.body).not.toContain('```suggestion');
  });

  it('an answer that could not be read is a review that says what happened, with the final answer', () => {
    const incomplete = composeReview(
      facts('`gemini-review.json` is not valid JSON', { ended: { status: 'timed-out' } }),
      speaker,
    );
    expect(incomplete.complete).toBe(false);
    expect(incomplete.event).toBe('COMMENT');
    expect(incomplete.comments).toEqual([]);
    expect(incomplete.body).toContain('could not complete');
    expect(incomplete.body).toContain('not valid JSON');
    expect(incomplete.body).toContain('timed out');
    expect(incomplete.body).toContain('says approve');
    expect(liveMention(incomplete.body)).toBe(false);
  });
});

describe('what the task holds of the diff', () => {
  it('skips generated files and binaries by path, bounds the bytes, and says each', () => {
    const files: DiffFile[] = [
      {
        path: 'package-lock.json',
        status: 'modified',
        additions: 9,
        deletions: 9,
        patch: '@@ -1 +1 @@\n-a\n+b',
      },
      { path: 'logo.png', status: 'added', additions: 0, deletions: 0 },
      { path: 'src/a.js', status: 'modified', additions: 1, deletions: 0, patch: '@@ -1 +1,2 @@\n a\n+b' },
      {
        path: 'src/big.js',
        status: 'added',
        additions: 1,
        deletions: 0,
        patch: `@@ -0,0 +1 @@\n+${'x'.repeat(400)}`,
      },
    ];
    const input = reviewInput(files, 4, 200);
    expect(input.diff).toContain('+++ b/src/a.js');
    expect(input.diff).not.toContain('package-lock');
    expect(input.notReviewed).toEqual({
      generated: ['package-lock.json'],
      noDiff: ['logo.png'],
      leftOut: ['src/big.js'],
      moreFiles: 4,
    });
  });
});

describe('the triggers of flow: review', () => {
  const settings: TriggerSettings = { triggerLabel: 'gemini-run', triggerPhrase: '/gemini', flow: 'review' };
  const repository = { full_name: 'acme/widgets', name: 'widgets', owner: { login: 'acme' } };
  const pr = (action: string, o: Record<string, unknown> = {}) => ({
    action,
    pull_request: {
      number: 2,
      title: 't',
      body: 'b',
      user: { login: 'alice', type: 'User' },
      draft: false,
      ...o,
    },
    repository,
    sender: { login: 'pusher', type: 'User' },
  });
  const comment = (body: string, onPull = true) => ({
    action: 'created',
    comment: { id: 9, body, user: { login: 'bob', type: 'User' } },
    issue: { number: 2, title: 't', body: 'b', ...(onPull ? { pull_request: { url: 'x' } } : {}) },
    repository,
    sender: { login: 'bob', type: 'User' },
  });

  it('runs on the pull request actions the issue names, and on comments', () => {
    expect(REVIEW_TRIGGERS.pull_request.actions).toEqual([
      'opened',
      'synchronize',
      'reopened',
      'ready_for_review',
    ]);
    expect(REVIEW_TRIGGERS.issue_comment.actions).toEqual(['created']);
  });

  it('a pull request is reviewed for its author (whose access is checked), not whoever pushed', () => {
    expect(interpretEvent('pull_request', pr('synchronize'), settings)).toMatchObject({
      kind: 'run',
      actor: 'alice',
      number: 2,
      isPullRequest: true,
      via: 'pull-request',
    });
  });

  it('a draft waits for ready_for_review; a bot is skipped; closing starts nothing', () => {
    expect(interpretEvent('pull_request', pr('opened', { draft: true }), settings).kind).toBe('skip');
    expect(interpretEvent('pull_request', pr('ready_for_review', { draft: true }), settings).kind).toBe(
      'run',
    );
    expect(
      interpretEvent(
        'pull_request',
        pr('opened', { user: { login: 'dependabot[bot]', type: 'Bot' } }),
        settings,
      ).kind,
    ).toBe('skip');
    expect(interpretEvent('pull_request', pr('closed'), settings).kind).toBe('skip');
  });

  it('/gemini review on a pull request runs for the commenter, the rest of its line the focus', () => {
    expect(
      interpretEvent('issue_comment', comment('/gemini review the error handling'), settings),
    ).toMatchObject({
      kind: 'run',
      actor: 'bob',
      via: 'comment',
      commentId: 9,
      instruction: 'the error handling',
    });
    expect(interpretEvent('issue_comment', comment('/gemini fix it'), settings).kind).toBe('skip');
    expect(interpretEvent('issue_comment', comment('/gemini review', false), settings).kind).toBe('skip');
    expect(interpretEvent('issues', { action: 'opened' }, settings).kind).toBe('skip');
  });

  it('the change flow leaves a /gemini review on a pull request to the review flow', () => {
    const change = { ...settings, flow: 'change' as const };
    expect(interpretEvent('issue_comment', comment('/gemini review'), change).kind).toBe('skip');
    expect(interpretEvent('issue_comment', comment('/gemini review', false), change).kind).toBe('run');
    expect(interpretEvent('issue_comment', comment('/gemini fix the review comments'), change).kind).toBe(
      'run',
    );
  });
});
