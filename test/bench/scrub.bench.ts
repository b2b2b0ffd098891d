/**
 * BENCH scrub-1000-commits-s: scrubCommits over 1,000 commits that each carry a Gemini trailer, against the
 * classic tool for the job, `git filter-branch --msg-filter`, on a copy of the same repository in the same run.
 * Runs alone: `node --import tsx test/bench/scrub.bench.ts`.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Git } from '../../src/git/git.js';
import { scrubCommits } from '../../src/git/scrub.js';
import { exec } from '../../src/util/exec.js';
import { bench } from './lib.js';

const COMMITS = 1000;
const TRAILER = 'Co-authored-by: Gemini <gemini@google.com>';

// Machine-wide git config must not change the figures (or the result).
process.env.GIT_CONFIG_GLOBAL = '/dev/null';
process.env.GIT_CONFIG_NOSYSTEM = '1';

function fastImportStream(count: number): string {
  const parts: string[] = [];
  const data = (text: string): string => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 0; i <= count; i++) {
    const when = 1_700_000_000 + i * 60;
    const message = i === 0 ? 'Initial commit\n' : `Change ${i}\n\nWhy change ${i} was made.\n\n${TRAILER}\n`;
    parts.push(
      'commit refs/heads/main\n',
      `author Ada Author <ada@example.com> ${when} +0200\n`,
      `committer Cy Committer <cy@example.com> ${when + 5} -0500\n`,
      data(message),
      `M 100644 inline src/file-${i % 20}.txt\n`,
      data(`content ${i}\n`),
    );
  }
  return parts.join('');
}

async function buildRepo(dir: string): Promise<{ base: string }> {
  await mkdir(dir);
  const git = Git.create(dir);
  await git.run(['init', '-q', '-b', 'main']);
  await git.run(['config', 'gc.auto', '0']);
  await git.run(['config', 'user.name', 'Bench']);
  await git.run(['config', 'user.email', 'bench@example.com']);
  await git.run(['fast-import', '--quiet'], { input: fastImportStream(COMMITS) });
  await git.run(['reset', '-q', '--hard', 'main']);
  return { base: await git.revParse(`main~${COMMITS}`) };
}

async function messages(dir: string, base: string): Promise<string[]> {
  const out = await Git.create(dir).output(['log', '--format=%B%x00', `${base}..HEAD`]);
  return out
    .split('\0')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'bench-scrub-'));
  try {
    const ours = join(root, 'ours');
    const theirs = join(root, 'baseline');
    const { base } = await buildRepo(ours);
    await exec('cp', ['-a', ours, theirs]);

    const scrub = (msg: string): string =>
      msg
        .split('\n')
        .filter((l) => !/^Co-authored-by: Gemini/i.test(l))
        .join('\n');
    let t = performance.now();
    const result = await scrubCommits(ours, base, scrub);
    const oursS = (performance.now() - t) / 1000;

    t = performance.now();
    await Git.create(theirs).run(
      ['filter-branch', '-f', '--msg-filter', 'sed "/^Co-authored-by: Gemini/d"', `${base}..HEAD`],
      { env: { FILTER_BRANCH_SQUELCH_WARNING: '1' } },
    );
    const baselineS = (performance.now() - t) / 1000;

    // Both must have done the same job, or the comparison means nothing.
    const a = await messages(ours, base);
    const b = await messages(theirs, base);
    if (result.rewritten !== COMMITS || a.length !== COMMITS || a.some((m) => m.includes('Co-authored-by'))) {
      throw new Error(`scrub did not rewrite ${COMMITS} commits cleanly (rewritten ${result.rewritten})`);
    }
    if (JSON.stringify(a) !== JSON.stringify(b))
      throw new Error('scrub and filter-branch disagree on messages');
    const treeA = await Git.create(ours).output(['rev-parse', 'HEAD^{tree}']);
    const treeB = await Git.create(theirs).output(['rev-parse', 'HEAD^{tree}']);
    if (treeA !== treeB) throw new Error('scrub changed the tree');

    bench(
      'scrub-1000-commits-s',
      oursS,
      's',
      `wall time of one scrubCommits over ${COMMITS} commits; baseline: git filter-branch --msg-filter on a copy, same messages and tree checked`,
      { baseline: baselineS, ratio: oursS / baselineS },
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
