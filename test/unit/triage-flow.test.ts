/**
 * `flow: triage`, the pure parts, against what a prompt-injected agent writes: which of the labels it asks for are
 * added (the repository's own only, as the repository spells them, at most the limit, none removed), the comment
 * that says so with the agent's note made inert, and the triggers of the flow.
 */
import { describe, expect, it } from 'vitest';
import { planLabels, triageComment, triageFileSchema } from '../../src/action/flows/triage-file.js';
import type { Speaker } from '../../src/action/flows/review-text.js';
import { interpretEvent, TRIAGE_TRIGGERS, type TriggerSettings } from '../../src/github/trigger.js';
import { publishedBlock, publishedDocument, type PublishContext } from '../../src/markdown/publish.js';

const ON: PublishContext = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', ownIssue: 1 };
const speaker: Speaker = {
  publish: (t) => publishedDocument(t, ON),
  publishBlock: (t) => publishedBlock(t, ON),
  scrubbed: (t) => t,
  publishOn: ON,
};
const LABELS = [
  { name: 'bug', description: '' },
  { name: 'Area: Parser', description: '' },
  { name: 'question', description: '' },
];

describe('planLabels', () => {
  it("adds the repository's labels as it spells them, in the agent's order, at most the limit", () => {
    expect(planLabels(['BUG', 'area: parser', 'question'], LABELS, [], 2)).toEqual({
      add: ['bug', 'Area: Parser'],
      already: [],
      unknown: [],
      overLimit: ['question'],
    });
  });

  it('never adds a name the repository lacks (GitHub would create it), nor one already there, nor twice', () => {
    expect(
      planLabels(['bug', 'Bug', 'wontfix', ' ', 'question'], LABELS, ['question', 'needs-info'], 3),
    ).toEqual({
      add: ['bug'],
      already: ['question'],
      unknown: ['wontfix'],
      overLimit: [],
    });
  });

  it('a limit of 0 adds nothing', () => {
    expect(planLabels(['bug'], LABELS, [], 0).add).toEqual([]);
  });
});

describe('the triage comment', () => {
  const read = (json: unknown) => {
    const parsed = triageFileSchema.safeParse(json);
    if (!parsed.success) throw new Error(parsed.error.message);
    return { kind: 'read' as const, value: parsed.data };
  };

  it("says what was added and not, the agent's label names and note inert", () => {
    const answer = read({
      labels: ['bug', '@mallory'],
      comment: 'cc @mallory, closes #7 ![x](https://evil.example/p)',
    });
    const body = triageComment(
      {
        answer,
        plan: planLabels(answer.value.labels ?? [], LABELS, [], 3),
        max: 3,
        finalAnswer: '',
        runUrl: 'https://github.com/acme/widgets/actions/runs/1',
      },
      speaker,
    );
    expect(body).toContain('Labels added: `bug`.');
    expect(body).toContain('(not applied): `@mallory`.');
    expect(body.replace(/`[^`\n]*`/g, '')).not.toMatch(/@mallory|#7|\]\(https:\/\/evil/);
  });

  it('an answer that could not be read adds nothing and says what happened, with the final answer', () => {
    const body = triageComment(
      {
        answer: { kind: 'problem', what: 'the agent wrote no `gemini-triage.json`' },
        plan: undefined,
        max: 3,
        finalAnswer: 'I could not decide.',
        ended: "the agent's run ended timed out",
        runUrl: 'https://github.com/acme/widgets/actions/runs/1',
      },
      speaker,
    );
    expect(body).toContain('could not complete its triage');
    expect(body).toContain('No label was added');
    expect(body).toContain('timed out');
    expect(body).toContain('I could not decide.');
  });

  it('reads labels as strings only; a comment is optional', () => {
    expect(triageFileSchema.safeParse({ labels: [1] }).success).toBe(false);
    expect(triageFileSchema.parse({ labels: ['bug'] }).comment).toBe('');
  });
});

describe('the triggers of flow: triage', () => {
  const settings: TriggerSettings = { triggerLabel: 'gemini-run', triggerPhrase: '/gemini', flow: 'triage' };
  const repository = { full_name: 'acme/widgets', name: 'widgets', owner: { login: 'acme' } };
  const opened = (author: string, type = 'User') => ({
    action: 'opened',
    issue: { number: 4, title: 't', body: 'no phrase here', user: { login: author, type } },
    repository,
    sender: { login: author, type },
  });
  const comment = (body: string, onPull = false) => ({
    action: 'created',
    comment: { id: 9, body, user: { login: 'bob', type: 'User' } },
    issue: { number: 4, title: 't', body: 'b', ...(onPull ? { pull_request: { url: 'x' } } : {}) },
    repository,
    sender: { login: 'bob', type: 'User' },
  });

  it('runs on issues opened and comments', () => {
    expect(TRIAGE_TRIGGERS.issues.actions).toEqual(['opened']);
    expect(TRIAGE_TRIGGERS.issue_comment.actions).toEqual(['created']);
  });

  it('a new issue, without any phrase, is triaged for its author, whose refusal is said in the log only', () => {
    expect(interpretEvent('issues', opened('carol'), settings)).toMatchObject({
      kind: 'run',
      actor: 'carol',
      number: 4,
      via: 'opened',
      implicit: true,
    });
    expect(interpretEvent('issues', opened('renovate[bot]', 'Bot'), settings).kind).toBe('skip');
    expect(interpretEvent('issues', { ...opened('carol'), action: 'labeled' }, settings).kind).toBe('skip');
  });

  it('/gemini triage on an issue runs for the commenter; on a pull request, or any other command, nothing', () => {
    expect(interpretEvent('issue_comment', comment('/gemini triage'), settings)).toMatchObject({
      kind: 'run',
      actor: 'bob',
      via: 'comment',
    });
    expect(interpretEvent('issue_comment', comment('/gemini triage', true), settings).kind).toBe('skip');
    expect(interpretEvent('issue_comment', comment('/gemini triaged it'), settings).kind).toBe('skip');
  });

  it('a schedule, or a dispatch without an issue, sweeps the untriaged issues; a dispatch naming one triages it', () => {
    const sweep = (instruction: string) => ({ kind: 'sweep', of: 'triage', instruction });
    expect(interpretEvent('schedule', { schedule: '0 * * * *' }, settings)).toEqual(sweep(''));
    expect(interpretEvent('schedule', {}, { ...settings, prompt: 'Prefer `area:` labels.' })).toEqual(
      sweep('Prefer `area:` labels.'),
    );
    expect(interpretEvent('workflow_dispatch', { inputs: {} }, settings)).toEqual(sweep(''));
    // Even under on-quota: defer: the triage flow's schedule is its own sweep, never the deferred runs'.
    expect(interpretEvent('workflow_dispatch', {}, { ...settings, onQuota: 'defer' })).toEqual(sweep(''));
    expect(
      interpretEvent('workflow_dispatch', { inputs: { issue: '7' }, sender: { login: 'bob' } }, settings),
    ).toMatchObject({ kind: 'run', number: 7, actor: 'bob', via: 'dispatch' });
  });

  it('the change flow leaves /gemini triage on an issue to the triage flow', () => {
    const change = { ...settings, flow: 'change' as const };
    expect(interpretEvent('issue_comment', comment('/gemini triage'), change).kind).toBe('skip');
    expect(interpretEvent('issue_comment', comment('/gemini triaged tests, now fix them'), change).kind).toBe(
      'run',
    );
  });
});
