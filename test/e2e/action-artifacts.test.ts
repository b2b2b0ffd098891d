/**
 * Follow-ups the way GitHub-hosted runners do them: the action keeps its transcript as a workflow artifact with the
 * real @actions/artifact client (ACTIONS_RESULTS_URL / ACTIONS_RUNTIME_TOKEN against the fake results service and
 * its blob storage), and a `/gemini` comment in a later run (another run id) finds it through the REST API with
 * the job's token (`findBy`), downloads the zip through GitHub's redirect, and resumes the session. The services
 * keep their state between the two runs, as GitHub keeps artifacts between workflow runs. Both modes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { ActionWorld, GEMINI_API_KEY, GITHUB_TOKEN, OWNER, REPO } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { FakeActionsServices } from '../harness/fake-actions.js';
import { readZip } from '../harness/zip.js';

const commitScript = (file: string, message: string): Script => ({
  description: `writes ${file} and commits it`,
  steps: [
    { functionCalls: [{ name: 'write_file', args: { file_path: file, content: `# ${file}\n` } }] },
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: { command: `git add -A && git commit -q -m '${message}'`, description: 'Commit' },
        },
      ],
    },
    { text: `Done: ${file} is committed.` },
  ],
});

const RUN1 = 7001;
const RUN2 = 7002;
const ARTIFACT = `gemini-run-${RUN1}-1`;

describe.each(['interactive', 'headless'] as const)('follow-ups through workflow artifacts (%s)', (mode) => {
  let world: ActionWorld;
  let services: FakeActionsServices;
  /** What a hosted runner gives the job: the results service, a runtime token of this run, no local store. */
  const issued: string[] = [];
  const hosted = (runId: number) => {
    const env = services.jobEnv({ runId, repo: `${OWNER}/${REPO}` });
    issued.push(env.ACTIONS_RUNTIME_TOKEN ?? '');
    return { ...env, GEMINI_RUN_TRANSCRIPT_STORE: '' };
  };

  useActionWorld({
    create: async () => {
      world = await ActionWorld.create();
      await world.checkout();
      // Azure-style blob hosts behind the services' proxy, as GitHub's signed URLs are.
      services = await FakeActionsServices.start({ blobHost: 'azure' });
      world.github.serveArtifacts(services);
      return world;
    },
    noUnexpectedCalls: true,
    // The runtime tokens the runs of this test were given.
    secrets: () => issued.splice(0),
  });
  afterEach(async () => {
    expect(services.unexpected).toEqual([]);
    await services.stop();
  });

  /** Run 1: the label run, which opens PR #2 and uploads its transcript. */
  async function labelRun() {
    const first = await world.run({
      mode,
      script: commitScript('NOTES.md', 'Add NOTES.md'),
      env: hosted(RUN1),
    });
    expect(first.main.outputs['pr-number'], first.main.stdout).toBe('2');
    expect(first.main.stdout).toContain(`Saved the artifact: artifact ${ARTIFACT} (id `);
    return first;
  }

  /** Run 2: `/gemini` on the PR, in another workflow run. */
  async function followUp() {
    await world.checkout();
    const payload = world.commentPayload('/gemini also add a TODO file', { issue: 2, isPull: true });
    return world.run({
      mode,
      script: commitScript('TODO.md', 'Add TODO.md'),
      eventName: 'issue_comment',
      payload,
      env: hosted(RUN2),
    });
  }

  const freshComments = () =>
    world.github.comments(2).filter((c) => c.body.includes('gemini-run:fresh-session'));

  it('run 2 finds run 1’s artifact with actions: read, downloads it and resumes: the model sees run 1’s history', async () => {
    const first = await labelRun();
    // The artifact holds the transcript and the summaries, and no secret.
    const zip = services.artifactZip(RUN1, ARTIFACT);
    expect(zip).toBeDefined();
    const entries = readZip(zip as Buffer);
    expect([...entries.keys()].sort()).toEqual(['run-summary.json', 'summary.md', 'transcript.jsonl']);
    const contents = [...entries.values()].map((b) => b.toString('utf8')).join('\n');
    expect(contents).toContain('Done: NOTES.md is committed.');
    for (const secret of [GITHUB_TOKEN, GEMINI_API_KEY]) expect(contents).not.toContain(secret);

    const r = await followUp();
    expect(r.main.exitCode, r.main.stdout).toBe(0);
    expect(r.main.outputs).toMatchObject({
      status: 'finished',
      'pr-number': '2',
      'commit-count': '1',
      'session-id': first.main.outputs['session-id'],
    });
    expect(r.main.stdout).toContain(
      `Continuing session ${first.main.outputs['session-id']} from run ${RUN1}`,
    );
    // The model's first request of run 2 carries run 1's conversation.
    expect(JSON.stringify(r.gemini.modelRequests()[0]?.body)).toContain('Done: NOTES.md is committed.');
    expect(freshComments()).toHaveLength(0);

    // The record's run asked of GitHub (it is gemini-run's, record-origin.ts), then findBy went through the REST API
    // with the job's token: list by name, then the zip through a 302.
    const rest = world.github.requests.filter((q) => q.path.includes('/actions/'));
    expect(rest.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
      `GET /repos/${OWNER}/${REPO}/actions/runs/${RUN1} 200`,
      `GET /repos/${OWNER}/${REPO}/actions/runs/${RUN1}/artifacts 200`,
      expect.stringMatching(new RegExp(`^GET /repos/${OWNER}/${REPO}/actions/artifacts/\\d+/zip 302$`)),
    ]);
    expect(rest[1]?.query.name).toBe(ARTIFACT);
    expect(rest.every((q) => q.authorized)).toBe(true);
    // Both runs uploaded (blocks + commit); run 2 read run 1's blob.
    const ops = services.calls
      .filter((c) => c.service !== 'proxy')
      .map((c) => `${c.service}:${c.op}:${c.status}`);
    expect(ops.filter((o) => o === 'artifact:CreateArtifact:200')).toHaveLength(2);
    expect(ops).toContain('blob:put-block:201');
    expect(ops).toContain('blob:put-block-list:201');
    expect(ops).toContain('blob:get:200');
    expect(await world.originLog('gemini-run/issue-1')).toContain('Add TODO.md');
  });

  // Where the lookup fails, the engine is not the point: the pipeline decides before either mode starts, so
  // these run once, headless (the quicker mode); the resume itself is checked in both.
  if (mode === 'headless') {
    it('without actions: read (GitHub answers 403) run 2 says so on the PR and starts a fresh session', async () => {
      const first = await labelRun();
      world.github.setActionsPermission('none');
      const r = await followUp();
      expect(r.main.exitCode, r.main.stdout).toBe(0);
      expect(r.main.outputs.status).toBe('finished');
      expect(r.main.outputs['session-id']).not.toBe(first.main.outputs['session-id']);
      expect(r.main.stdout).toContain('starting a fresh session');
      const [comment, ...more] = freshComments();
      expect(more).toHaveLength(0);
      expect(comment?.body).toContain(`GitHub refused to list the artifacts of run ${RUN1} (403)`);
      expect(comment?.body).toContain("'permissions: actions: read'");
      expect(comment?.body).toContain('starts a fresh session');
      expect(await world.originLog('gemini-run/issue-1')).toContain('Add TODO.md');
    });

    it('with the artifact expired (listed expired, its download 410) run 2 says so on the PR and starts fresh', async () => {
      const first = await labelRun();
      services.advanceDays(31);
      const r = await followUp();
      expect(r.main.outputs.status, r.main.stdout).toBe('finished');
      expect(r.main.outputs['session-id']).not.toBe(first.main.outputs['session-id']);
      const [comment] = freshComments();
      expect(comment?.body).toContain(
        `the transcript artifact '${ARTIFACT}' of run ${RUN1} has expired (410)`,
      );
      const zipCall = world.github.requests.find((q) => q.path.endsWith('/zip'));
      expect(zipCall?.status).toBe(410);
    });

    it('with run 1 gone (GitHub answers 404) run 2 says so on the PR and starts fresh', async () => {
      const first = await labelRun();
      services.deleteRun(RUN1);
      const r = await followUp();
      expect(r.main.outputs.status, r.main.stdout).toBe('finished');
      expect(r.main.outputs['session-id']).not.toBe(first.main.outputs['session-id']);
      const [comment] = freshComments();
      expect(comment?.body).toContain(`run ${RUN1} and its artifacts no longer exist on GitHub (404)`);
    });
  }
});

describe('the runtime token', () => {
  const worldOf = useActionWorld();
  it('a wrong one: the upload fails as on GitHub (401), is logged, and the run still finishes', async () => {
    const world = worldOf();
    await using services = await FakeActionsServices.start();
    world.github.serveArtifacts(services);
    const env: Record<string, string> = {
      ...services.jobEnv({ runId: RUN1, repo: `${OWNER}/${REPO}` }),
      GEMINI_RUN_TRANSCRIPT_STORE: '',
    };
    env.ACTIONS_RUNTIME_TOKEN = `${(env.ACTIONS_RUNTIME_TOKEN ?? '').slice(0, -4)}AAAA`;
    const r = await world.run({ mode: 'headless', script: commitScript('NOTES.md', 'Add NOTES.md'), env });
    expect(r.main.exitCode, r.main.stdout).toBe(0);
    expect(r.main.outputs.status).toBe('finished');
    expect(r.main.stdout).toMatch(
      /::warning::Could not upload the artifact: Failed to CreateArtifact: Received non-retryable error: Failed request: \(401\) Unauthorized: /,
    );
    expect(services.artifactZip(RUN1, ARTIFACT)).toBeUndefined();
  });
});
