/**
 * `max-daily-tokens` with the real gemini 0.42.0 (headless, through dist/): two jobs of the same repository start at
 * once under a cap of 1.5 runs' worth. Whichever GitHub numbered first in the ledger gets its `max-tokens` and
 * finishes; the other gets only the rest, and the model proxy stops the real CLI there: `daily-budget-exceeded`,
 * its commits pushed as a draft, the figures on its issue and in its job summary. The day spends at most the cap
 * and one reservation. One world, two runs of a few model calls each (the pipeline's other cases, forged entries and
 * GitHub's refusals included, are test/integration/pipeline-daily-budget.test.ts, with a stub agent).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { commentMarker } from '../../src/github/comments.js';
import { REPO } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';

const world = useActionWorld({ shared: true });

/**
 * Six commits, one per turn, then the answer: the fake counts a request's JSON (system prompt and tool
 * declarations included) at 4 bytes a token, 12.3k to 13k tokens a turn, so a whole run spends some 89k.
 */
function script(file: string): Script {
  const steps: Script['steps'] = [1, 2, 3, 4, 5, 6].map((i) => ({
    functionCalls: [
      {
        name: 'run_shell_command',
        args: {
          command: `echo step${i} >> ${file} && git add ${file} && git commit -q -m 'Step ${i} of ${file}'`,
          description: `Step ${i}`,
        },
      },
    ],
  }));
  steps.push({ text: `${file} has its six steps.` });
  return { description: `six commits to ${file}`, steps };
}

/** One run's worth (`max-tokens`): more than a whole run of the script spends. */
const RUN = 100_000;
/**
 * About 1.5 runs' worth: the second run is left 45,000, which its fourth turn crosses (three come to ~37k, four to
 * ~50k), so the proxy refuses its fifth.
 */
const CAP = 145_000;

describe('max-daily-tokens with gemini 0.42.0', () => {
  it('two jobs at once under 1.5 runs’ worth: one finishes, the proxy stops the other at what the day left; the day spends at most the cap and one reservation', async () => {
    const w = world();
    const second = w.github.addIssue({ title: 'Second', body: 'Add SECOND.md.', user: 'alice' });
    const workspace = join(w.tmp, 'workspace-2', REPO);
    await w.checkout('main', workspace);
    const inputs = { 'max-tokens': String(RUN), 'max-daily-tokens': String(CAP) };
    const env = { OTEL_BLRP_SCHEDULE_DELAY: '50' };
    const [a, b] = await Promise.all([
      w.run({ mode: 'headless', script: script('FIRST.md'), inputs, env }),
      w.run({
        mode: 'headless',
        script: script('SECOND.md'),
        inputs,
        env,
        payload: w.labeledPayload('gemini-run', 'alice', second),
        workspace,
      }),
    ]);
    const jobs = [
      { ...a, issue: 1 },
      { ...b, issue: second },
    ];
    const finished = jobs.find((j) => j.main.outputs.status === 'finished');
    const stopped = jobs.find((j) => j.main.outputs.status === 'daily-budget-exceeded');
    expect(finished, `${a.main.stdout}\n${b.main.stdout}`).toBeDefined();
    expect(stopped, `${a.main.stdout}\n${b.main.stdout}`).toBeDefined();
    const spentBy = (j: typeof finished) => Number(j!.main.outputs['total-tokens']);

    // The one that finished could spend its max-tokens; the other only the rest, and was stopped past it.
    expect(finished!.main.summary).toMatch(/this run spent [\d,]+ of the 100,000 it could/);
    expect(stopped!.main.exitCode).toBe(1);
    expect(stopped!.main.summary).toMatch(
      /\*\*Daily token budget\*\* \(`max-daily-tokens`, \d{4}-\d\d-\d\d UTC\): [\d,]+ of 145,000 tokens spent or held today/,
    );
    expect(spentBy(stopped)).toBeGreaterThanOrEqual(CAP - RUN);
    // The script's seven model calls reached the fake for the one, four for the other: the proxy refused the rest.
    const calls = (j: typeof finished) => j!.gemini.requests.filter((r) => r.kind === 'stream').length;
    expect(calls(finished)).toBe(7);
    expect(calls(stopped)).toBe(4);
    expect(Number(stopped!.main.outputs['commit-count'])).toBeGreaterThanOrEqual(3);
    expect(spentBy(finished) + spentBy(stopped)).toBeLessThanOrEqual(CAP + RUN);

    // Its work is pushed as a draft, and its issue says why, with the day's figures and the reset.
    const draft = w.github.pulls().find((p) => (p.body ?? '').includes(`#${stopped!.issue}`));
    expect(draft?.draft).toBe(true);
    const told = w.github
      .comments(stopped!.issue)
      .map((c) => c.body)
      .join('\n');
    expect(told).toMatch(
      /the repository's daily token budget ran out: this run spent [\d,]+ tokens of the 45,000 left to it \(100,000 of the 145,000 tokens of \d{4}-\d\d-\d\d \(UTC\) were spent or held by other runs\); it resets at/,
    );

    // The ledger holds both runs, each settled with what the proxy counted.
    const ledger = Array.from({ length: 20 }, (_, i) => w.github.issue(i + 1)).find((i) =>
      i?.labels.includes('gemini-run:ledger'),
    )!.number;
    const settled = w.github
      .comments(ledger)
      .filter((c) => c.body.startsWith(commentMarker('spend')))
      .map(
        (c) =>
          JSON.parse(/<!-- gemini-run:spend (\{.*\}) -->/.exec(c.body)![1]!) as {
            reserved: number;
            spent: number;
          },
      );
    expect(settled.map((e) => [e.reserved, e.spent])).toEqual([
      [RUN, spentBy(finished)],
      [CAP - RUN, spentBy(stopped)],
    ]);
  });
});
