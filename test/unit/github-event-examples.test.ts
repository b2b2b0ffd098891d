/**
 * GitHub's own webhook payloads (@octokit/webhooks-examples, recorded from real deliveries) through the triggers:
 * every example of every event the action handles passes its payload schema, and the actions that start a run do
 * start one, read from the real fields. Only the text a trigger is matched on is set (the examples' comments do not
 * start with our phrase); everything else is the payload as GitHub sent it.
 */
import { describe, expect, it } from 'vitest';
import {
  interpretEvent,
  REVIEW_TRIGGERS,
  TRIAGE_TRIGGERS,
  TRIGGERS,
  type TriggerSettings,
} from '../../src/github/trigger.js';
import { webhookExamples, type WebhookPayload } from '../harness/webhook-examples.js';

const settings: TriggerSettings = { triggerLabel: 'gemini-run', triggerPhrase: '/gemini' };
const login = (u: unknown): string => (u as { login: string }).login;
const field = (p: WebhookPayload, key: string): Record<string, unknown> => p[key] as Record<string, unknown>;

describe('real webhook payloads (@octokit/webhooks-examples)', () => {
  // A schedule is no webhook (GitHub has no example of it): its payload names the cron line and nothing is read.
  const webhooks = Object.keys(TRIGGERS).filter((event) => event !== 'schedule');
  it.each(webhooks)('every %s example passes the payload schema', (event) => {
    const examples = webhookExamples(event);
    expect(examples.length).toBeGreaterThan(0);
    for (const payload of examples) {
      // A payload the schema refused throws a UserError; a decision (run or skip) is what a real one gets. The
      // prompt input is set because a dispatch without one refuses to run, whatever its payload.
      expect(['run', 'skip']).toContain(interpretEvent(event, payload, { ...settings, prompt: 'x' }).kind);
    }
  });

  it.each(Object.keys(REVIEW_TRIGGERS))(
    'flow review: every %s example passes the payload schema',
    (event) => {
      const examples = webhookExamples(event);
      expect(examples.length).toBeGreaterThan(0);
      for (const payload of examples)
        expect(['run', 'skip']).toContain(
          interpretEvent(event, payload, { ...settings, flow: 'review' }).kind,
        );
    },
  );

  it.each(Object.keys(TRIAGE_TRIGGERS).filter((event) => event !== 'schedule'))(
    'flow triage: every %s example passes the payload schema',
    (event) => {
      const examples = webhookExamples(event);
      expect(examples.length).toBeGreaterThan(0);
      for (const payload of examples)
        expect(['run', 'skip', 'sweep']).toContain(
          interpretEvent(event, payload, { ...settings, flow: 'triage' }).kind,
        );
    },
  );

  it.each(['pull_request', 'pull_request_target'])(
    'flow review: %s opened, synchronize, reopened, ready_for_review: a review of the pull request, for its author',
    (event) => {
      const actions = ['opened', 'synchronize', 'reopened', 'ready_for_review'];
      const examples = webhookExamples(event).filter((p) => actions.includes(p.action ?? ''));
      expect(examples.length).toBeGreaterThan(0);
      for (const p of examples) {
        const pull = field(p, 'pull_request');
        const ready = {
          ...p,
          pull_request: { ...pull, draft: false, user: { login: 'alice', type: 'User' } },
        };
        expect(interpretEvent(event, ready, { ...settings, flow: 'review' })).toMatchObject({
          kind: 'run',
          via: 'pull-request',
          actor: 'alice',
          number: pull.number,
        });
      }
    },
  );

  it('issues.labeled: a run on the labelled issue, by the labeller', () => {
    const examples = webhookExamples('issues', 'labeled');
    expect(examples.length).toBeGreaterThan(0);
    for (const p of examples) {
      const label = (field(p, 'label') as { name: string }).name;
      const t = interpretEvent('issues', p, { ...settings, triggerLabel: label });
      expect(t).toMatchObject({
        kind: 'run',
        via: 'label',
        actor: login(p.sender),
        number: field(p, 'issue').number,
      });
    }
  });

  it('issues.assigned: a run when the trigger assignee is assigned', () => {
    const examples = webhookExamples('issues', 'assigned');
    expect(examples.length).toBeGreaterThan(0);
    for (const p of examples) {
      const t = interpretEvent('issues', p, { ...settings, triggerAssignee: login(p.assignee) });
      expect(t).toMatchObject({ kind: 'run', via: 'assign', number: field(p, 'issue').number });
    }
  });

  it("issues.opened: a run when the new body holds the phrase, by the issue's author; a transferred issue is none", () => {
    const examples = webhookExamples('issues', 'opened');
    expect(examples.some((p) => 'changes' in p)).toBe(true);
    for (const p of examples) {
      const issue: Record<string, unknown> = { ...field(p, 'issue'), body: 'Something to do.\n\n/gemini' };
      const t = interpretEvent('issues', { ...p, issue }, settings);
      if ('changes' in p)
        expect(t).toMatchObject({ kind: 'skip', reason: expect.stringMatching(/transferred/) });
      else
        expect(t).toMatchObject({
          kind: 'run',
          via: 'opened',
          actor: login(issue.user),
          number: issue.number,
        });
    }
  });

  it('workflow_run.completed: a failure on a gemini-run branch is a ci-fix run, with fix-ci on', () => {
    const examples = webhookExamples('workflow_run', 'completed');
    expect(examples.length).toBeGreaterThan(0);
    for (const p of examples) {
      const run = field(p, 'workflow_run');
      const repository = field(p, 'repository');
      const failed = {
        ...p,
        workflow_run: {
          ...run,
          conclusion: 'failure',
          head_branch: 'gemini-run/issue-7',
          head_repository: { ...(run.head_repository as object), full_name: repository.full_name },
        },
      };
      expect(interpretEvent('workflow_run', failed, settings)).toMatchObject({ kind: 'skip' });
      expect(interpretEvent('workflow_run', failed, { ...settings, fixCi: true })).toMatchObject({
        kind: 'run',
        via: 'ci-fix',
        isPullRequest: true,
        ciRun: { source: 'workflow-run', id: run.id, branch: 'gemini-run/issue-7', headSha: run.head_sha },
      });
      // As GitHub sent it: not a failure, or not our branch.
      expect(interpretEvent('workflow_run', p, { ...settings, fixCi: true }).kind).toBe('skip');
    }
  });

  it("check_suite.completed: another CI's failure on a gemini-run branch is a ci-fix run; Actions' own is not", () => {
    const examples = webhookExamples('check_suite', 'completed');
    let ran = 0;
    for (const p of examples) {
      const suite = field(p, 'check_suite');
      const pulls = (suite.pull_requests as { number: number; head: Record<string, unknown> }[]).map((q) => ({
        ...q,
        head: { ...q.head, ref: 'gemini-run/issue-7' },
      }));
      const failed = {
        ...p,
        check_suite: {
          ...suite,
          conclusion: 'failure',
          head_branch: 'gemini-run/issue-7',
          pull_requests: pulls,
        },
      };
      const app = suite.app as { name: string; slug?: string };
      // One of GitHub's examples is a suite of GitHub Actions itself: workflow_run's to handle.
      if (app.slug === 'github-actions') {
        expect(interpretEvent('check_suite', failed, { ...settings, fixCi: true }).kind).toBe('skip');
        continue;
      }
      ran++;
      expect(interpretEvent('check_suite', failed, { ...settings, fixCi: true })).toMatchObject({
        kind: 'run',
        via: 'ci-fix',
        ...(pulls[0] ? { number: pulls[0].number } : {}),
        ciRun: { source: 'check-suite', id: suite.id, workflow: app.name, headSha: suite.head_sha },
      });
      const actions = {
        ...failed,
        check_suite: { ...failed.check_suite, app: { ...app, slug: 'github-actions' } },
      };
      expect(interpretEvent('check_suite', actions, { ...settings, fixCi: true })).toMatchObject({
        kind: 'skip',
        reason: expect.stringMatching(/read from workflow_run/),
      });
      expect(interpretEvent('check_suite', p, { ...settings, fixCi: true }).kind).toBe('skip');
    }
    expect(ran).toBeGreaterThan(0);
  });

  it('issue_comment.created: a run on the issue, the comment being the instruction', () => {
    const examples = webhookExamples('issue_comment', 'created');
    expect(examples.length).toBeGreaterThan(0);
    for (const p of examples) {
      const comment: Record<string, unknown> = { ...field(p, 'comment'), body: '/gemini add a notes file' };
      const t = interpretEvent('issue_comment', { ...p, comment }, settings);
      expect(t).toMatchObject({
        kind: 'run',
        via: 'comment',
        actor: login(comment.user),
        number: field(p, 'issue').number,
        commentId: comment.id,
        instruction: 'add a notes file',
      });
    }
  });

  it('pull_request_review_comment.created: a run on the PR, anchored where the comment sits', () => {
    const examples = webhookExamples('pull_request_review_comment', 'created');
    expect(examples.length).toBeGreaterThan(0);
    for (const p of examples) {
      const comment: Record<string, unknown> = { ...field(p, 'comment'), body: '/gemini use fewer emoji' };
      const t = interpretEvent('pull_request_review_comment', { ...p, comment }, settings);
      expect(t).toMatchObject({
        kind: 'run',
        via: 'review-comment',
        isPullRequest: true,
        number: field(p, 'pull_request').number,
        reviewCommentId: comment.id,
        anchor: { path: comment.path },
      });
    }
  });

  it('pull_request_review.submitted: a run on the PR from the review body; no body, no run', () => {
    const examples = webhookExamples('pull_request_review', 'submitted');
    expect(examples.length).toBeGreaterThan(0);
    for (const p of examples) {
      expect(interpretEvent('pull_request_review', p, settings).kind).toBe('skip');
      const review = { ...field(p, 'review'), body: '/gemini address the review' };
      const t = interpretEvent('pull_request_review', { ...p, review }, settings);
      expect(t).toMatchObject({
        kind: 'run',
        via: 'review',
        isPullRequest: true,
        number: field(p, 'pull_request').number,
      });
    }
  });

  it('workflow_dispatch: a run with the dispatch prompt', () => {
    for (const p of webhookExamples('workflow_dispatch')) {
      const t = interpretEvent('workflow_dispatch', p, { ...settings, prompt: 'tidy the README' });
      expect(t).toMatchObject({ kind: 'run', via: 'dispatch', instruction: 'tidy the README' });
    }
  });
});
