/**
 * scripts/release.mjs on a local repository with a bare origin, as the release workflow runs it: the checks a tag
 * must pass, the notes it publishes, and the major tag moving to the newest release of its line — and only there.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { ROOT } from '../harness/action-job.js';
import { scrubbedGitEnv } from '../harness/repo.js';

const SCRIPT = join(ROOT, 'scripts', 'release.mjs');
let root: string;
let work: string;
let origin: string;
const env = {
  ...scrubbedGitEnv(),
  GIT_AUTHOR_NAME: 'Releaser',
  GIT_AUTHOR_EMAIL: 'r@example.invalid',
  GIT_COMMITTER_NAME: 'Releaser',
  GIT_COMMITTER_EMAIL: 'r@example.invalid',
};

const git = async (args: string[], cwd = work) => (await exec('git', args, { cwd, env })).stdout.trim();
const release = (args: string[]) =>
  exec(process.execPath, [SCRIPT, ...args], { cwd: work, env, allowAllExitCodes: true });

const CHANGELOG = (versions: string[]) =>
  [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    ...versions.flatMap((v) => [
      `## [${v}] - 2026-12-0${versions.indexOf(v) + 1}`,
      '',
      `### Added`,
      '',
      `- what ${v} brought`,
      '',
    ]),
    '[1.0.0]: https://example.invalid/releases/tag/v1.0.0',
    '',
  ].join('\n');

/** A commit that releases `version` (package.json and the changelog say it), tagged `v<version>`. */
async function releaseCommit(version: string, changelogVersions: string[]): Promise<string> {
  await writeFile(join(work, 'package.json'), JSON.stringify({ name: 'x', version }, null, 2));
  await writeFile(join(work, 'CHANGELOG.md'), CHANGELOG(changelogVersions));
  await git(['add', '-A']);
  await git(['commit', '--quiet', '-m', `Release ${version}`]);
  await git(['tag', `v${version}`]);
  const branch = await git(['rev-parse', '--abbrev-ref', 'HEAD']);
  await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`, `refs/tags/v${version}`]);
  return git(['rev-parse', 'HEAD']);
}

const originTag = (tag: string) => git(['rev-parse', '--verify', `refs/tags/${tag}^{commit}`], origin);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gemini-run-release-'));
  work = join(root, 'work');
  origin = join(root, 'origin.git');
  await exec('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin], { env });
  await exec('git', ['init', '--quiet', '--initial-branch=main', work], { env });
  await git(['remote', 'add', 'origin', origin]);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scripts/release.mjs', () => {
  it('checks the tag against package.json and the changelog, and prints the entry as the notes', async () => {
    await releaseCommit('1.0.0', ['1.0.0']);
    expect((await release(['check', 'v1.0.0'])).exitCode).toBe(0);
    const notes = await release(['notes', 'v1.0.0']);
    expect(notes.stdout).toBe('### Added\n\n- what 1.0.0 brought\n');

    for (const [tag, message] of [
      ['v1.0', /'v1.0' is not a release tag/],
      ['v1.0.0-rc.1', /is not a release tag/],
      ['v1.0.1', /package.json says version 1.0.0, the tag v1.0.1/],
    ] as const) {
      const r = await release(['check', tag]);
      expect(r.exitCode, tag).toBe(1);
      expect(r.stderr.trim()).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    await writeFile(join(work, 'package.json'), JSON.stringify({ version: '1.1.0' }));
    const noEntry = await release(['check', 'v1.1.0']);
    expect(noEntry.stderr).toMatch(/CHANGELOG.md has no entry '## \[1.1.0\] - YYYY-MM-DD'/);
  });

  it('moves the major tag to each newest release, never back to an older line, and starts v2 apart', async () => {
    const first = await releaseCommit('1.0.0', ['1.0.0']);
    expect((await release(['move-major', 'v1.0.0'])).stdout).toContain(`v1 -> v1.0.0 (${first})`);
    expect(await originTag('v1')).toBe(first);

    const second = await releaseCommit('1.1.0', ['1.1.0', '1.0.0']);
    await release(['move-major', 'v1.1.0']);
    expect(await originTag('v1')).toBe(second);

    // A fix on the 1.0 line, released after 1.1.0: v1 keeps pointing at the newest 1.x.
    await git(['checkout', '--quiet', '-b', 'release-1.0', 'v1.0.0']);
    await releaseCommit('1.0.1', ['1.0.1', '1.0.0']);
    const stays = await release(['move-major', 'v1.0.1']);
    expect(stays.stdout).toContain('v1 stays at v1.1.0');
    expect(await originTag('v1')).toBe(second);

    await git(['checkout', '--quiet', 'main']);
    const major = await releaseCommit('2.0.0', ['2.0.0', '1.1.0', '1.0.0']);
    await release(['move-major', 'v2.0.0']);
    expect(await originTag('v2')).toBe(major);
    expect(await originTag('v1')).toBe(second);
    // The released tags themselves never moved.
    expect(await originTag('v1.0.0')).toBe(first);
    expect(await readFile(join(work, 'package.json'), 'utf8')).toContain('2.0.0');
  });
});
