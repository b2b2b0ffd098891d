/**
 * BENCH review-posted-s: from a `pull_request: opened` event to its review on the fake GitHub (`flow: review`,
 * `node dist/index.js` with the real gemini 0.42.0 headless against the fake model: two model calls, the answer
 * file, one review), the median of `RUNS` (default 3); baseline the change flow in the same worlds, from an
 * `issues: labeled` event to its pull request (three model calls: a file, a commit, the answer). Each is timed from
 * the step's start to the moment the fake GitHub holds what it posts, so the post step and the harness are left out.
 * The two alternate, so the machine's load falls on both. `node --import tsx test/bench/review-latency.bench.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ActionWorld } from '../harness/action-job.js';
import { bench, median } from './lib.js';

const RUNS = Math.max(1, Number(process.env.RUNS ?? 3));
const PULL = 2;

/** Seconds from now until `posted()` holds, polled every 10 ms while `run` goes on. */
async function timeUntil(run: () => Promise<{ status?: string }>, posted: () => boolean): Promise<number> {
  const t0 = performance.now();
  let at = 0;
  const poll = setInterval(() => {
    if (!at && posted()) at = performance.now();
  }, 10);
  try {
    const { status } = await run();
    if (status !== 'finished') throw new Error(`the step ended ${status}, not finished`);
  } finally {
    clearInterval(poll);
  }
  if (!at) throw new Error('nothing was posted');
  return (at - t0) / 1000;
}

async function openPull(world: ActionWorld): Promise<unknown> {
  const { repo } = world;
  await repo.git(['checkout', '--quiet', '-b', 'fix/calc', 'main']);
  const file = join(repo.dir, 'src/calc.js');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, 'export function add(a, b) {\n  return a - b;\n}\n');
  await repo.git(['add', '-A']);
  await repo.git(['commit', '--quiet', '-m', 'Add add()']);
  await repo.git(['push', '--quiet', 'origin', 'fix/calc', `fix/calc:refs/pull/${PULL}/head`]);
  await repo.git(['checkout', '--quiet', 'main']);
  if (
    world.github.addPull({ title: 'Add add()', body: 'Adds add().', head: 'fix/calc', user: 'alice' }) !==
    PULL
  )
    throw new Error('the pull request is not #2');
  return world.pullRequestPayload('opened', PULL);
}

async function round(i: number): Promise<{ review: number; change: number }> {
  const world = await ActionWorld.create();
  try {
    await world.checkout();
    const payload = await openPull(world);
    const review = () =>
      timeUntil(
        async () =>
          (
            await world.run({
              mode: 'headless',
              eventName: 'pull_request',
              payload,
              inputs: { flow: 'review' },
              script: 'review-bug',
            })
          ).main.outputs,
        () => world.github.reviews(PULL).length > 0,
      );
    const changed = () =>
      timeUntil(
        async () => (await world.run({ mode: 'headless', script: 'edit-and-commit' })).main.outputs,
        () => world.github.pulls().some((p) => p.number !== PULL),
      );
    // Alternate which goes first: a warm cache or a busy neighbour falls on both.
    if (i % 2 === 0) {
      const r = await review();
      return { review: r, change: await changed() };
    }
    const c = await changed();
    return { review: await review(), change: c };
  } finally {
    await world[Symbol.asyncDispose]();
  }
}

const reviews: number[] = [];
const changes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const r = await round(i);
  reviews.push(r.review);
  changes.push(r.change);
  console.log(`# round ${i + 1}/${RUNS}: review ${r.review.toFixed(2)} s, change ${r.change.toFixed(2)} s`);
}
const review = median(reviews);
const baseline = median(changes);
bench(
  'review-posted-s',
  Number(review.toFixed(2)),
  's',
  `pull_request opened to its review on the fake GitHub (flow: review, headless 0.42.0, median of ${RUNS}); baseline the change flow's issues labeled to its pull request in the same worlds`,
  { baseline: Number(baseline.toFixed(2)), ratio: review / baseline },
);
