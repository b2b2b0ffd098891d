/**
 * BENCH sign-commits-50-files-s: re-creating a run's commits through the Git database API (signCommits against
 * the fake GitHub over a real bare origin, real Octokit) — 3 commits touching 50 files, 45 text and 5 binary of
 * 64 KiB — against pushing the same commits with the action's own pushBranch, in the same run. Also prints the
 * requests it took: on github.com each costs a round trip (~0.1–0.3 s), which the local fake does not.
 * Runs alone: `node --import tsx test/bench/sign-commits.bench.ts` (or `npm run bench -- sign-commits`).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeGitHub } from '../../src/fake/github-api.js';
import { commitObjects } from '../../src/git/commit-objects.js';
import { Git } from '../../src/git/git.js';
import { pushBranch } from '../../src/git/push.js';
import { createGitHubClient } from '../../src/github/client.js';
import { signCommits } from '../../src/github/signed-commits.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { bench, median } from './lib.js';

process.env.GIT_CONFIG_GLOBAL = '/dev/null';
process.env.GIT_CONFIG_NOSYSTEM = '1';
const ROUNDS = Number(process.env.RUNS ?? 5);
const TOKEN = 'ghs_benchSignCommits0000000000000000000';

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'bench-sign-'));
  const gh = new FakeGitHub({ token: TOKEN });
  try {
    const origin = join(root, 'origin.git');
    const work = join(root, 'work');
    await Git.create(root).run(['init', '-q', '--bare', '-b', 'main', origin]);
    await mkdir(work);
    const git = Git.create(work);
    await git.run(['init', '-q', '-b', 'main']);
    for (const [k, v] of [
      ['user.name', 'Bench'],
      ['user.email', 'bench@example.com'],
      ['gc.auto', '0'],
    ])
      await git.run(['config', k!, v!]);
    await writeFile(join(work, 'README.md'), 'base\n');
    await git.run(['add', '-A']);
    await git.run(['commit', '-q', '-m', 'Base']);
    await git.run(['push', '-q', origin, 'main']);
    const base = await git.headSha();
    for (let c = 0; c < 3; c++) {
      for (let i = c; i < 50; i += 3) {
        await mkdir(join(work, 'src', `m${i % 7}`), { recursive: true });
        const file = join(work, 'src', `m${i % 7}`, i % 10 === 0 ? `blob${i}.bin` : `file${i}.ts`);
        await writeFile(
          file,
          i % 10 === 0
            ? Buffer.alloc(64 * 1024).map((_, k) => (k * (i + 3)) % 256)
            : `export const v${i} = ${i};\n`.repeat(40),
        );
      }
      await git.run(['add', '-A']);
      await git.run(['commit', '-q', '-m', `Change ${c}`]);
    }
    const head = await git.headSha();

    gh.addRepo({ owner: 'acme', name: 'demo' });
    gh.serveGitData('acme/demo', origin);
    await gh.start();
    const client = createGitHubClient(TOKEN, gh.url);
    const signS: number[] = [];
    const pushS: number[] = [];
    const readS: number[] = [];
    let requests = 0;
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      const source = await commitObjects(work, head, [base]);
      readS.push((performance.now() - t) / 1000);
      const made = await signCommits({
        client,
        repo: { owner: 'acme', repo: 'demo' },
        source,
        head,
        branch: `signed-${r}`,
        exists: false,
        log: createMemoryLogger(),
      });
      signS.push((performance.now() - t) / 1000);
      requests = made.requests;
      const tree = await Git.create(origin).output(['rev-parse', `${made.head}^{tree}`]);
      if (tree !== (await git.output(['rev-parse', `${head}^{tree}`])))
        throw new Error('signed tree differs');
      t = performance.now();
      await pushBranch({ worktree: work, remote: origin, url: origin, branch: `pushed-${r}` });
      pushS.push((performance.now() - t) / 1000);
      // The next push must send the objects again, as a run's first push does.
      await Git.create(origin).run(['update-ref', '-d', `refs/heads/pushed-${r}`]);
      await Git.create(origin).run(['gc', '-q', '--prune=now']);
    }
    const ours = median(signS);
    const baseline = median(pushS);
    bench(
      'sign-commits-50-files-s',
      ours,
      's',
      `median over ${ROUNDS} rounds of signCommits for 3 commits / 50 files (45 text inline, 5 binary blobs) against the fake GitHub; baseline: pushBranch of the same commits to the same origin`,
      { baseline, ratio: ours / baseline },
    );
    bench(
      'sign-commits-50-files-read-s',
      median(readS),
      's',
      'of which reading the commits and their changes from git',
    );
    bench(
      'sign-commits-50-files-requests',
      requests,
      'requests',
      'API requests those 50 files took (blobs, trees, commits, the ref)',
    );
  } finally {
    await gh.stop();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
