import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Git } from '../../src/git/git.js';
import { neutraliseCommitMessage } from '../../src/github/commit-message.js';
import { describeChange, parseRawCommit, scrubCommits, scrubMessage } from '../../src/git/scrub.js';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const scrub = (msg: string): string =>
  msg
    .split('\n')
    .filter((l) => !/^Co-authored-by: Gemini/i.test(l))
    .join('\n');
const TRAILER = 'Co-authored-by: Gemini <gemini@google.com>';

describe('scrubMessage', () => {
  it('tidies what the scrub leaves and reports unchanged messages', () => {
    expect(scrubMessage('Fix\n\nBody\n', scrub)).toEqual({ changed: false });
    expect(scrubMessage(`Fix\n\nBody\n\n${TRAILER}\n`, scrub)).toEqual({
      changed: true,
      message: 'Fix\n\nBody\n',
    });
    expect(scrubMessage(`Fix\n\n${TRAILER}\n\nSigned-off-by: A <a@b>\n`, scrub)).toEqual({
      changed: true,
      message: 'Fix\n\nSigned-off-by: A <a@b>\n',
    });
    expect(scrubMessage(`${TRAILER}\n`, scrub)).toEqual({ changed: true, message: undefined });
    expect(describeChange(['src/a.ts'])).toBe('Update src/a.ts\n');
    expect(describeChange(['a', 'b', 'c'])).toBe('Update 3 files\n');
  });
  it('keeps multi-line headers together when parsing a raw commit', () => {
    const raw =
      'tree t\nparent p1\nparent p2\nauthor A\ncommitter C\ngpgsig -----BEGIN\n line\n -----END\n\nmsg\n';
    const c = parseRawCommit(raw);
    expect(c.parents).toEqual(['p1', 'p2']);
    expect(c.headers.map((h) => h.key)).toEqual([
      'tree',
      'parent',
      'parent',
      'author',
      'committer',
      'gpgsig',
    ]);
    expect(c.message).toBe('msg\n');
    expect(c.utf8).toBe(true);
    expect(parseRawCommit('tree t\nencoding ISO-8859-1\n\nm').utf8).toBe(false);
  });
});

describe('scrubCommits on a real repository', () => {
  let dir: string;
  let git: Git;
  let n = 0;

  async function commit(
    message: string,
    file?: string,
    extraEnv: Record<string, string> = {},
  ): Promise<string> {
    n++;
    if (file) {
      await writeFile(join(dir, file), `${file} ${n}\n`);
      await git.run(['add', file]);
    }
    await git.run(['commit', '-q', '--allow-empty', '--cleanup=verbatim', '-F', '-'], {
      input: message,
      env: {
        GIT_AUTHOR_NAME: 'Ada Author',
        GIT_AUTHOR_EMAIL: 'ada@example.com',
        GIT_AUTHOR_DATE: `${1_700_000_000 + n * 60} +0530`,
        GIT_COMMITTER_NAME: 'Cy Committer',
        GIT_COMMITTER_EMAIL: 'cy@example.com',
        GIT_COMMITTER_DATE: `${1_700_000_000 + n * 61} -0700`,
        ...extraEnv,
      },
    });
    return git.headSha();
  }
  async function raw(sha: string): Promise<string> {
    return (await git.run(['cat-file', 'commit', sha])).stdout;
  }
  function headersWithoutParents(text: string): string {
    const c = parseRawCommit(text);
    return c.headers
      .filter((h) => h.key !== 'parent' && !h.key.startsWith('gpgsig'))
      .map((h) => h.text)
      .join('\n');
  }
  async function messages(range: string): Promise<string[]> {
    const out = await git.output(['log', '--reverse', '--topo-order', '--format=%B%x00', range]);
    return out
      .split('\0')
      .map((m) => m.trim())
      .filter((m) => m !== '');
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'git-scrub-'));
    git = Git.create(dir, ENV);
    await git.run(['init', '-q', '-b', 'main']);
    await git.run(['config', 'gc.auto', '0']);
    await git.run(['config', 'user.name', 'T']);
    await git.run(['config', 'user.email', 't@example.com']);
    n = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('removes attribution, keeps tree/author/committer/dates, leaves earlier commits untouched', async () => {
    const base = await commit('Initial\n', 'README.md');
    const clean1 = await commit('Clean commit before any attribution\n', 'a.txt');
    const c2 = await commit(`Add feature\n\nDetails here.\n\n${TRAILER}\n`, 'b.txt');
    const onlyTrailer = await commit(`${TRAILER}\n`, 'src-file.ts');
    const c4 = await commit('Plain follow-up\n', 'c.txt');
    await git.run(['checkout', '-q', '-b', 'side', c2]);
    const side = await commit(`Side work\n\n${TRAILER}\n`, 'side.txt');
    await git.run(['checkout', '-q', 'main']);
    await git.run(['merge', '-q', '--no-ff', '--no-edit', '-m', `Merge side\n\n${TRAILER}`, 'side']);
    const merge = await git.headSha();
    const before = new Map<string, string>();
    for (const sha of [clean1, c2, onlyTrailer, c4, side, merge]) before.set(sha, await raw(sha));
    const treeBefore = await git.output(['rev-parse', 'HEAD^{tree}']);
    // A hook the agent planted must not run (it would also veto the ref update).
    const marker = join(dir, '.git', 'hook-ran');
    await writeFile(
      join(dir, '.git', 'hooks', 'reference-transaction'),
      `#!/bin/sh\ntouch '${marker}'\nexit 1\n`,
    );
    await chmod(join(dir, '.git', 'hooks', 'reference-transaction'), 0o755);

    const result = await scrubCommits(dir, base, scrub);

    expect(result.rewritten).toBe(5); // everything from c2 on; clean1 is untouched
    expect(result.head).not.toBe(merge);
    expect(await git.headSha()).toBe(result.head);
    expect(await git.currentBranch()).toBe('main');
    expect(await git.output(['rev-parse', 'HEAD^{tree}'])).toBe(treeBefore);
    expect(await git.output(['status', '--porcelain'])).toBe('');
    expect(await git.revParse('HEAD~4')).toBe(clean1); // first parents: merge, c4, onlyTrailer, c2, clean1
    const msgs = await messages(`${base}..HEAD`);
    expect(msgs.join('\n')).not.toMatch(/Co-authored-by: Gemini/i);
    expect(msgs).toContain('Add feature\n\nDetails here.');
    expect(msgs).toContain('Update src-file.ts');
    expect(msgs).toContain('Merge side');
    expect(msgs).toContain('Plain follow-up');

    // Each rewritten commit keeps every header but its parents (tree, author, committer with dates).
    const after = (await git.output(['rev-list', '--topo-order', '--reverse', `${base}..HEAD`])).split('\n');
    const originals = (
      await git.output(['rev-list', '--topo-order', '--reverse', `${base}..${merge}`])
    ).split('\n');
    expect(after).toHaveLength(originals.length);
    for (let i = 0; i < after.length; i++) {
      const o = before.get(originals[i] ?? '') ?? (await raw(originals[i] ?? ''));
      expect(headersWithoutParents(await raw(after[i] ?? ''))).toBe(headersWithoutParents(o));
    }
    const mergeRaw = parseRawCommit(await raw(result.head));
    expect(mergeRaw.parents).toHaveLength(2);
    expect(await git.output(['reflog', '-1', '--format=%gs'])).toBe('gemini-run: scrub attribution');
    await expect(stat(marker)).rejects.toThrow();
  });

  it('is a no-op (same ids) when nothing needs scrubbing, and idempotent', async () => {
    const base = await commit('Initial\n', 'README.md');
    await commit('One\n', 'a');
    const head = await commit('Two\n', 'b');
    expect(await scrubCommits(dir, base, scrub)).toEqual({ head, rewritten: 0 });
    await commit(`Three\n\n${TRAILER}\n`, 'c');
    const first = await scrubCommits(dir, base, scrub);
    expect(first.rewritten).toBe(1);
    expect(await git.revParse('HEAD~1')).toBe(head);
    expect(await scrubCommits(dir, base, scrub)).toEqual({ head: first.head, rewritten: 0 });
    expect(await scrubCommits(dir, 'HEAD', scrub)).toEqual({ head: first.head, rewritten: 0 });
  });

  it('drops signatures of rewritten commits, keeps them on untouched ones, works on a detached HEAD', async () => {
    const base = await commit('Initial\n', 'README.md');
    const parent = await git.headSha();
    const tree = await git.output(['rev-parse', 'HEAD^{tree}']);
    const ident = 'Ada Author <ada@example.com> 1700000000 +0000';
    const sig = 'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAAB\n -----END PGP SIGNATURE-----';
    const signedClean = await git.output(['hash-object', '-w', '-t', 'commit', '--stdin'], {
      input: `tree ${tree}\nparent ${parent}\nauthor ${ident}\ncommitter ${ident}\n${sig}\n\nSigned clean\n`,
    });
    const signedDirty = await git.output(['hash-object', '-w', '-t', 'commit', '--stdin'], {
      input: `tree ${tree}\nparent ${signedClean}\nauthor ${ident}\ncommitter ${ident}\n${sig}\n\nSigned\n\n${TRAILER}\n`,
    });
    await git.run(['checkout', '-q', '--detach', signedDirty]);
    const result = await scrubCommits(dir, base, scrub);
    expect(result.rewritten).toBe(1);
    expect(await git.currentBranch()).toBeUndefined();
    expect(await git.headSha()).toBe(result.head);
    expect(await git.revParse('HEAD~1')).toBe(signedClean);
    const text = await raw(result.head);
    expect(text).not.toContain('gpgsig');
    expect(text).toBe(`tree ${tree}\nparent ${signedClean}\nauthor ${ident}\ncommitter ${ident}\n\nSigned\n`);
    expect(await git.output(['rev-parse', 'main'])).toBe(base);
  });
  it("leaves commits reachable from `keep` alone: a merged main and a person's trailer-bearing commit", async () => {
    const base = await commit('Initial\n', 'README.md');
    // Someone's commit on main, with a trailer that looks like attribution.
    await git.run(['checkout', '-q', '-b', 'other']);
    const human = await commit(`Human fix\n\n${TRAILER}\n`, 'human.txt');
    await git.run(['checkout', '-q', 'main']);
    const own = await commit(`Agent work\n\n${TRAILER}\n`, 'agent.txt');
    await git.run(['merge', '-q', '--no-ff', '-m', `Merge other\n\n${TRAILER}\n`, 'other']);
    const result = await scrubCommits(dir, base, scrub, { keep: [human] });
    expect(result.rewritten).toBe(2); // the agent's commit and its merge
    expect(await git.isAncestor(human, 'HEAD')).toBe(true);
    expect(await raw(human)).toContain(TRAILER);
    expect((await messages(`${base}..HEAD`)).sort()).toEqual([
      'Agent work',
      `Human fix\n\n${TRAILER}`,
      'Merge other',
    ]);
    expect(await git.isAncestor(own, 'HEAD')).toBe(false);
  });

  it('keeps a message in another encoding byte for byte when it has nothing to scrub, rewriting only its parent line', async () => {
    const base = await commit('Initial\n', 'README.md');
    await commit(`First\n\n${TRAILER}\n`, 'a.txt');
    await git.run(['config', 'i18n.commitEncoding', 'ISO-8859-1']);
    await writeFile(join(dir, 'b.txt'), 'b\n');
    await git.run(['add', 'b.txt']);
    // "Café" in ISO-8859-1: not valid UTF-8.
    await git.run(['commit', '-q', '-F', '-'], {
      input: Buffer.concat([Buffer.from('Caf'), Buffer.from([0xe9, 0x0a])]),
    });
    const latin = await git.headSha();
    const before = (await git.run(['cat-file', 'commit', latin])).stdoutBytes as Buffer;
    const result = await scrubCommits(dir, base, scrub);
    expect(result.rewritten).toBe(2);
    const after = (await git.run(['cat-file', 'commit', result.head])).stdoutBytes as Buffer;
    const body = (b: Buffer) => b.subarray(b.indexOf('\n\n'));
    expect(body(after).equals(body(before))).toBe(true);
    expect(after.toString('latin1')).toContain('encoding ISO-8859-1');
    expect(await messages(`${base}..HEAD~1`)).toEqual(['First']);
  });

  it('reads a message in another encoding as GitHub would: what the scrub changes is written back as UTF-8', async () => {
    const base = await commit('Initial\n', 'README.md');
    await git.run(['config', 'i18n.commitEncoding', 'ISO-8859-1']);
    // "Café, fixes #3 [skip ci]" and an attribution line, in ISO-8859-1.
    const latin1 = Buffer.from(`Caf\u00e9, fixes #3 [skip ci]\n\n${TRAILER}\n`, 'latin1');
    await commit(latin1 as unknown as string, 'a.txt');
    const neutral = (m: string) => neutraliseCommitMessage(scrub(m));
    const result = await scrubCommits(dir, base, neutral);
    expect(result.rewritten).toBe(1);
    const after = (await git.run(['cat-file', 'commit', result.head])).stdout;
    expect(after).not.toContain('encoding');
    expect(after.slice(after.indexOf('\n\n') + 2)).toBe('Café, fixes # 3 (skip ci)\n');
  });

  it('replaces a message in an encoding nobody here reads (UTF-7 hides `#3` as `+ACM-3`)', async () => {
    const base = await commit('Initial\n', 'README.md');
    const parent = await git.headSha();
    const tree = await git.output(['rev-parse', 'HEAD^{tree}']);
    const ident = 'Ada Author <ada@example.com> 1700000000 +0000';
    const utf7 = await git.output(['hash-object', '-w', '-t', 'commit', '--stdin'], {
      input: `tree ${tree}\nparent ${parent}\nauthor ${ident}\ncommitter ${ident}\nencoding UTF-7\n\nFixes +ACM-3\n`,
    });
    await git.run(['reset', '-q', '--soft', utf7]);
    const result = await scrubCommits(dir, base, neutraliseCommitMessage);
    expect(result.rewritten).toBe(1);
    const after = (await git.run(['cat-file', 'commit', result.head])).stdout;
    expect(after).toBe(`tree ${tree}\nparent ${parent}\nauthor ${ident}\ncommitter ${ident}\n\nUpdate\n`);
  });
});
