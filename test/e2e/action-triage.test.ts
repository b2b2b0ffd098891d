/**
 * Issue 42, `flow: triage`, end to end (0.42.0 through dist/, headless, one gemini run): a new issue gets labels
 * from the repository's own set only, at most `max-triage-labels`, a person's label stays, and one comment says what
 * was added and what was not, with the agent's note made inert; the agent ran under `network: none`. Then, in the
 * same world, a schedule's sweep triages the two untriaged issues of writers (two gemini runs in one step), oldest
 * first, and leaves the triaged one and a stranger's.
 */
import { describe, expect, it } from 'vitest';
import { OWNER, REPO } from '../harness/action-job.js';
import { useActionWorld, visible } from '../harness/action-world.js';
import { publishViolations } from '../harness/publish-oracle.js';

/** One answer of a triage agent: the file, then its last word (two steps of the fake model's script). */
const triageSteps = (labels: string[], last: string) => [
  {
    text: 'I will read the issue and pick labels.',
    functionCalls: [
      {
        name: 'write_file',
        args: { file_path: 'gemini-triage.json', content: JSON.stringify({ labels }) },
      },
    ],
  },
  { text: last },
];

describe('issue 42: flow triage', () => {
  const worldOf = useActionWorld({ noUnexpectedCalls: true });

  it('adds only existing labels, at most the limit, never removes one, says so; a schedule sweeps the untriaged', async () => {
    const world = worldOf();
    for (const [name, description] of [
      ['bug', 'Something is broken'],
      ['area: parser', null],
      ['question', 'A question, not a change'],
      ['needs-info', null],
    ] as const)
      world.github.addRepoLabel(name, description);
    // A person's label, before the triage: it stays.
    world.github.labelIssue(1, 'needs-info');
    const { main, gemini } = await world.run({
      mode: 'headless',
      eventName: 'issues',
      payload: world.openedPayload(1),
      inputs: { flow: 'triage', 'max-triage-labels': '2' },
      script: 'triage',
    });
    expect(main.exitCode, main.stderr).toBe(0);
    expect(main.outputs.status).toBe('finished');
    expect(main.outputs['labels-applied']).toBe('bug,area: parser');
    expect(world.github.issue(1)?.labels).toEqual(['needs-info', 'bug', 'area: parser']);
    // The agent was shown the repository's labels and reached the model only.
    const sent = JSON.stringify(gemini.requests.filter((r) => r.kind === 'stream').map((r) => r.body));
    expect(sent).toContain('A question, not a change');
    expect(sent).toContain('gemini-triage.json');
    expect(main.stdout).toContain('network: none');

    const comments = world.github.comments(1).filter((c) => c.body.startsWith('<!-- gemini-run:triage -->'));
    expect(comments).toHaveLength(1);
    const body = comments[0]?.body ?? '';
    expect(body).toContain('Labels added: `bug`, `area: parser`.');
    expect(body).toContain('Not labels of this repository (not applied): `made-up-label`.');
    expect(body).toContain('Over the limit of 2 label(s) a triage adds (not applied): `question`.');
    expect(body).toContain('Please add the steps to reproduce.');
    expect(
      publishViolations(body, {
        agentHtml: true,
        sentinel: false,
        where: { owner: OWNER, repo: REPO, ownIssue: 1 },
      }),
    ).toEqual([]);

    // The sweep: #1 was triaged above, a stranger's issue is not triaged, the writers' two are, oldest first.
    const stranger = world.github.addIssue({ title: 'Label me', body: 'Add `bug`.', user: 'mallory' });
    const first = world.github.addIssue({ title: 'Parser crash', body: 'It crashes.', user: 'alice' });
    const second = world.github.addIssue({ title: 'How to?', body: 'How do I parse?', user: 'alice' });
    const sweep = await world.run({
      mode: 'headless',
      eventName: 'schedule',
      payload: { schedule: '0 * * * *', repository: { full_name: `${OWNER}/${REPO}` } },
      inputs: { flow: 'triage' },
      script: {
        description: 'Two triage agents in a row (the sweep): each writes its file and says what it did.',
        steps: [
          ...triageSteps(['bug'], 'Triaged: a parser crash.'),
          ...triageSteps(['question'], 'Triaged: a question.'),
        ],
      },
    });
    expect(sweep.main.exitCode, sweep.main.stderr).toBe(0);
    expect(sweep.main.outputs.status).toBe('finished');
    expect(world.github.issue(first)?.labels).toEqual(['bug']);
    expect(world.github.issue(second)?.labels).toEqual(['question']);
    expect(world.github.issue(stranger)?.labels).toEqual([]);
    expect(world.github.comments(stranger)).toEqual([]);
    expect(world.github.issue(1)?.labels).toEqual(['needs-info', 'bug', 'area: parser']);
    expect(
      world.github.comments(1).filter((c) => c.body.startsWith('<!-- gemini-run:triage -->')),
    ).toHaveLength(1);
    expect(visible(sweep.main.stdout)).toContain(
      '1 untriaged issue(s) whose authors do not have write access',
    );
  });
});
