/**
 * The pipeline around the real engine, with a stand-in for gemini (test/harness/stub-agent.ts), in seconds: the
 * paths the stub engine skips. The model API down before gemini starts (`model-unavailable`, found by the proxy's
 * launch probe, decided by the engine); and `isolation: user` with `network: restricted`: the sandbox, the packet
 * filter and the forward proxy opened, the stand-in working as the agent's own user through them, its work
 * exported by that user, and everything closed again.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_USER_PREFIX } from '../../src/isolation/agent-user.js';
import { exec } from '../../src/util/exec.js';
import { ended, PipelineWorld, usePipelineWorld } from '../harness/pipeline-world.js';
import { scrubbedGitEnv } from '../harness/repo.js';

let w: PipelineWorld;
usePipelineWorld((world) => (w = world));

const asRoot = process.getuid?.() === 0;

async function iptablesRules(): Promise<string> {
  const v4 = await exec('iptables', ['-w', '10', '-S'], { allowAllExitCodes: true });
  const v6 = await exec('ip6tables', ['-w', '10', '-S'], { allowAllExitCodes: true });
  return v4.stdout + v6.stdout;
}

describe('the real engine, a stand-in for gemini', () => {
  it('model-unavailable: the model API cannot be reached at the start, gemini is never started, the issue is told', async () => {
    const r = await w.run({
      agent: { commits: { 'Add notes': { 'NOTES.md': 'n\n' } } },
      // Nothing listens there: the proxy's launch probe is refused.
      env: { GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9' },
    });
    const out = ended(r);
    expect(out.outputs).toMatchObject({ status: 'model-unavailable', conclusion: 'failure', 'pr-url': '' });
    expect(out.failure).toMatch(/the model API at 127\.0\.0\.1:9 cannot be reached: ECONNREFUSED/);
    expect(r.seen).toHaveLength(0);
    expect(r.log.join('\n')).toMatch(/model-unavailable: .*; gemini was not started/);
    expect(w.github.pulls()).toHaveLength(0);
    const told = w.github
      .comments(1)
      .map((c) => c.body)
      .join('\n');
    expect(told).toMatch(/`model-unavailable`/);
    expect(r.summary).toMatch(/model-unavailable/);
  });

  it('the real engine around the stand-in: its commits and leftovers reach the pull request', async () => {
    const r = await w.run({
      agent: {
        commits: { 'Add notes': { 'NOTES.md': 'notes\n' } },
        leftovers: { 'TODO.md': 'later\n' },
        answer: 'Added the notes.',
      },
    });
    expect(ended(r).outputs).toMatchObject({ status: 'finished', 'commit-count': '2', 'pr-number': '2' });
    // isolation: none: the stand-in ran as this process's user.
    expect(r.agent?.user).toEqual([(await exec('id', ['-un'])).stdout.trim()]);
    const log = await exec('git', ['log', '--format=%s', 'main..refs/heads/gemini-run/issue-1'], {
      cwd: w.world.repo.originDir,
      env: scrubbedGitEnv(),
    });
    expect(log.stdout.trim().split('\n')).toEqual([
      'gemini-run: commit work the agent left uncommitted',
      'Add notes',
    ]);
    // The engine took the context file out of the worktree before the agent's work was committed.
    expect(await w.workspaceFile('GEMINI.local.md')).toBeUndefined();
  });

  it.skipIf(!asRoot)(
    'isolation: user, network: restricted: the stand-in works as its own user behind the filter and the proxy; all of it closed after',
    async () => {
      // This run's chain, seen while it ran: the host's listing may hold other runs' (other test files') chains.
      let chain: string | undefined;
      const r = await w.run({
        inputs: { isolation: 'user', network: 'restricted' },
        agent: {
          commits: { 'Add notes': { 'NOTES.md': 'notes\n' } },
          fetch: ['http://not-allowed.example/'],
          during: async (ctx) => {
            const uid = ctx.opts.sandbox?.user.uid ?? -1;
            chain = (await iptablesRules()).match(new RegExp(`GEMINI-RUN-${uid}-[0-9a-f]+`))?.[0];
          },
        },
      });
      const out = ended(r);
      expect(out.outputs).toMatchObject({ status: 'finished', 'commit-count': '1', 'pr-number': '2' });
      // The agent's own user: not this process's.
      expect(r.agent?.user[0]).toMatch(new RegExp(`^${AGENT_USER_PREFIX}\\d+$`));
      // The forward proxy refused the host that is not allowed, and the run says so.
      expect(r.agent?.fetched[0]?.stdout).toMatch(/not-allowed\.example/);
      const egress = await w.savedEgress(r);
      expect(egress?.mode).toBe('restricted');
      expect(egress?.blocked.map((b) => b.host)).toEqual(['not-allowed.example']);
      expect(r.log.join('\n')).toMatch(
        /network: restricted refused 1 proxy request\(s\) \(not-allowed\.example:80\)/,
      );
      // Everything the work phase opened is closed: the sandbox and the filter are gone from the post step's state,
      // and no rule of the run's chain is left.
      expect(r.state.sandbox).toBe('');
      expect(r.state.egress).toBe('');
      expect(chain).toBeDefined();
      expect(await iptablesRules()).not.toContain(chain);
      // The workspace is the action's again, its .git rebuilt, the agent's file owned by this user now.
      expect(await w.workspaceFile('NOTES.md')).toBe('notes\n');
    },
  );
});
