/**
 * Issue 13 end to end: the live tracking comment, review-comment triggers, the inputs that shape a run
 * (settings, instructions, tool lists, extensions) and the token budget — `node dist/index.js` then
 * `dist/post.js`, the real gemini 0.42.0 against the fake Gemini API, the fake GitHub through the real Octokit.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeGemini, Script } from '../../src/fake/gemini-api.js';
import { TRACKING_MARKER } from '../../src/action/tracking-comment.js';
import { ActionWorld, OWNER, REPO } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';

const commitScript = (file: string, opts: { slowMs?: number } = {}): Script => ({
  description: `writes ${file}, waits, commits`,
  steps: [
    { functionCalls: [{ name: 'write_file', args: { file_path: file, content: `# ${file}\n` } }] },
    ...(opts.slowMs
      ? [
          {
            functionCalls: [
              {
                name: 'run_shell_command',
                args: { command: `sleep ${opts.slowMs / 1000}`, description: 'Think it over' },
              },
            ],
          },
        ]
      : []),
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: { command: `git add -A && git commit -q -m 'Add ${file}'`, description: 'Commit' },
        },
      ],
    },
    { text: `Done: ${file} is committed.` },
  ],
});

/** Every text the model was sent in its agent turns (system instruction and contents). */
function sentText(gemini: FakeGemini): string {
  return gemini.requests
    .filter((r) => r.kind === 'stream')
    .map((r) => JSON.stringify(r.body))
    .join('\n');
}

/** The function names the CLI declared to the model in its first agent turn. */
function declaredTools(gemini: FakeGemini): string[] {
  const first = gemini.requests.find((r) => r.kind === 'stream');
  const body = first?.body as { tools?: { functionDeclarations?: { name: string }[] }[] } | undefined;
  return (body?.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
}

describe('issue 13: tracking, triggers, shaping, budget', () => {
  let world: ActionWorld;
  const worldOf = useActionWorld({ noUnexpectedCalls: true });
  beforeEach(() => {
    world = worldOf();
  });

  it('the tracking comment is posted before the first model reply, edited while tools run, and ends with status and PR', async () => {
    const { main, gemini } = await world.run({
      mode: 'interactive',
      script: commitScript('NOTES.md', { slowMs: 4000 }),
      env: { GEMINI_RUN_TRACKING_INTERVAL_MS: '1000', OTEL_BLRP_SCHEDULE_DELAY: '50' },
    });
    expect(main.exitCode, main.stdout).toBe(0);
    expect(main.outputs.status).toBe('finished');
    const tracking = world.github.comments(1).filter((c) => c.body.startsWith(TRACKING_MARKER));
    expect(tracking).toHaveLength(1);
    const id = tracking[0]!.id;
    const created = world.github.requests.find(
      (r) =>
        r.method === 'POST' && r.path === `/repos/${OWNER}/${REPO}/issues/1/comments` && r.status === 201,
    );
    const modelCalls = gemini.requests.filter((r) => r.kind === 'stream');
    expect(created).toBeDefined();
    expect(modelCalls.length).toBeGreaterThan(2);
    // Posted before the model was even asked, so before its first reply.
    expect(created!.at).toBeLessThan(modelCalls[0]!.at);
    const edits = world.github.requests.filter(
      (r) => r.method === 'PATCH' && r.path === `/repos/${OWNER}/${REPO}/issues/comments/${id}`,
    );
    // Edited while the agent worked: between its first and its last model call (the sleep runs in between).
    expect(edits.some((e) => e.at > modelCalls[0]!.at && e.at < modelCalls.at(-1)!.at)).toBe(true);
    const last = tracking[0]!.body;
    expect(last).toContain('`finished`');
    expect(last).toContain(main.outputs['pr-url']);
    expect(last).toMatch(/Tool calls: [1-9]/);
    expect(main.state.tracking).toBe('');
  });

  it('a main step killed mid-run leaves the tracking comment finished by the post step', async () => {
    const editing = () =>
      world.github.requests.some((r) => r.method === 'PATCH' && r.path.includes('/issues/comments/'));
    const { main, post } = await world.run({
      mode: 'interactive',
      script: commitScript('NOTES.md', { slowMs: 60_000 }),
      env: { GEMINI_RUN_TRACKING_INTERVAL_MS: '500', OTEL_BLRP_SCHEDULE_DELAY: '50' },
      killMainWhen: editing,
    });
    expect(main.exitCode).not.toBe(0);
    expect(main.state.tracking).toBeTruthy();
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain('Finished the tracking comment');
    const [tracking] = world.github.comments(1).filter((c) => c.body.startsWith(TRACKING_MARKER));
    expect(tracking?.body).toContain('`stopped`');
    expect(tracking?.body).not.toContain('is working');
  });

  it('a /gemini review comment on a line runs on its PR with the path, line and hunk in the task', async () => {
    await world.repo.git(['push', '--quiet', 'origin', 'main:feature/notes']);
    const pull = world.github.addPull({
      title: 'Notes',
      body: 'Adds notes.',
      head: 'feature/notes',
      user: 'alice',
    });
    const commentId = world.github.addReviewComment({
      pull,
      body: '/gemini say hello in NOTES.md',
      path: 'README.md',
      line: 1,
      user: 'alice',
    });
    const hunk = '@@ -0,0 +1 @@\n+# widgets-hunk-marker';
    const { main, gemini } = await world.run({
      mode: 'headless',
      eventName: 'pull_request_review_comment',
      payload: {
        action: 'created',
        comment: {
          id: commentId,
          body: '/gemini say hello in NOTES.md',
          user: { login: 'alice', type: 'User' },
          path: 'README.md',
          line: 1,
          diff_hunk: hunk,
          created_at: new Date(Date.now() + 1000).toISOString(),
        },
        pull_request: { number: pull, title: 'Notes', body: 'Adds notes.' },
        sender: { login: 'alice', type: 'User' },
      },
      script: commitScript('NOTES.md'),
    });
    expect(main.exitCode, main.stdout).toBe(0);
    expect(main.outputs).toMatchObject({
      status: 'finished',
      branch: 'feature/notes',
      'pr-number': String(pull),
    });
    const sent = sentText(gemini);
    expect(sent).toContain('say hello in NOTES.md');
    expect(sent).toContain('The comment is on `README.md` line 1.');
    expect(sent).toContain('widgets-hunk-marker');
  });

  it('settings, instructions, exclude-tools, allowed-tools and a local extension reach the real CLI', async () => {
    const ext = join(world.tmp, 'house-rules');
    await mkdir(ext, { recursive: true });
    await writeFile(
      join(ext, 'gemini-extension.json'),
      JSON.stringify({ name: 'house-rules', version: '1.0.0', contextFileName: 'HOUSE.md' }),
    );
    await writeFile(join(ext, 'HOUSE.md'), 'House rule from the extension: EXTENSION-PINEAPPLE-42.\n');
    const { main, gemini } = await world.run({
      mode: 'headless',
      script: commitScript('NOTES.md'),
      inputs: {
        settings: JSON.stringify({
          tools: { exclude: ['glob'] },
          general: { enableAutoUpdate: true },
        }),
        instructions: 'Standing rule: STANDING-MANGO-7.',
        'exclude-tools': 'write_file',
        'allowed-tools': 'read_file, write_file, glob, run_shell_command, list_directory',
        extensions: ext,
      },
    });
    expect(main.exitCode, main.stdout).toBe(0);
    // The product's key wins over the workflow's, and the log says so.
    expect(main.stdout).toMatch(/'settings' sets keys gemini-run owns.*general\.enableAutoUpdate/);
    expect(main.stdout).toContain('installed extension house-rules');
    const tools = declaredTools(gemini);
    expect(tools).toContain('read_file');
    expect(tools).toContain('run_shell_command');
    expect(tools).not.toContain('write_file'); // exclude-tools → tools.exclude
    expect(tools).not.toContain('glob'); // settings → tools.exclude
    expect(tools).not.toContain('grep_search'); // allowed-tools → tools.core
    expect(tools).not.toContain('replace');
    const sent = sentText(gemini);
    expect(sent).toContain('STANDING-MANGO-7');
    expect(sent).toContain('EXTENSION-PINEAPPLE-42');
  });

  it('an extension that cannot be fetched is a one-line error before gemini starts', async () => {
    const { main, gemini } = await world.run({
      mode: 'headless',
      script: commitScript('NOTES.md'),
      inputs: { extensions: 'https://git.invalid/acme/ext.git' },
    });
    expect(main.exitCode).toBe(1);
    const errors = main.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /extension 'https:\/\/git\.invalid\/acme\/ext\.git' could not be installed: .+/,
    );
    expect(gemini.requests.filter((r) => r.kind === 'stream')).toHaveLength(0);
  });

  it.each(['interactive', 'headless'] as const)(
    'max-tokens stops a long script early (%s): budget-exceeded, work pushed as a draft',
    async (mode) => {
      const steps: Script['steps'] = [];
      for (let i = 1; i <= 12; i++) {
        steps.push({
          functionCalls: [
            {
              name: 'run_shell_command',
              args: {
                command: `echo line${i} >> LOG.md && git add LOG.md && git commit -q -m 'Log step ${i}'`,
                description: `Step ${i}`,
              },
            },
          ],
        });
      }
      steps.push({ text: 'All twelve steps are logged.' });
      const { main, gemini } = await world.run({
        mode,
        script: { description: 'twelve commits, one per turn', steps },
        // The fake counts a request's JSON (system prompt and tool declarations included) at 4 bytes a token, about
        // 12k tokens for the first turn here: the budget trips after a few turns, with commits already made.
        inputs: { 'max-tokens': '40000' },
        env: { OTEL_BLRP_SCHEDULE_DELAY: '50' },
      });
      expect(main.outputs.status, main.stdout).toBe('budget-exceeded');
      expect(main.exitCode).toBe(1);
      // Stopped well before the script (and the 2-minute timeout) ran out.
      expect(gemini.requests.filter((r) => r.kind === 'stream').length).toBeLessThan(steps.length);
      const sizes = gemini.requests
        .filter((r) => r.kind === 'stream')
        .map((r) => JSON.stringify(r.body).length / 4);
      expect(Number(main.outputs['commit-count']), `request tokens: ${sizes.join(', ')}`).toBeGreaterThan(0);
      const [pull] = world.github.pulls();
      expect(pull?.draft).toBe(true);
      expect(await world.originLog('gemini-run/issue-1')).toContain('Log step 1');
      expect(main.summary).toMatch(/Token budget \| [\d,]+ of 40,000/);
      const [tracking] = world.github.comments(1).filter((c) => c.body.startsWith(TRACKING_MARKER));
      expect(tracking?.body).toContain('`budget-exceeded`');
    },
  );
});
