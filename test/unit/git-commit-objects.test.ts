import { describe, expect, it } from 'vitest';
import { parseDiffTreeRaw, parseRawCommit } from '../../src/git/commit-objects.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('parseRawCommit', () => {
  it('keeps the message byte for byte, with a signature header and a merge', () => {
    const text = [
      `tree ${A}`,
      `parent ${B}`,
      `parent ${A}`,
      'author x <x@example.com> 1 +0000',
      'committer x <x@example.com> 1 +0000',
      'gpgsig -----BEGIN PGP SIGNATURE-----',
      ' ',
      ' abc',
      ' -----END PGP SIGNATURE-----',
      '',
      'Subject  with two spaces',
      '',
      'tree not-a-header\n\n',
    ].join('\n');
    expect(parseRawCommit('c', text)).toEqual({
      sha: 'c',
      tree: A,
      parents: [B, A],
      message: 'Subject  with two spaces\n\ntree not-a-header\n\n',
    });
  });

  it('refuses an object without a tree', () => {
    expect(() => parseRawCommit('c', 'author x\n\nmsg')).toThrow(/no tree/);
  });
});

describe('parseDiffTreeRaw', () => {
  it('reads added, modified, re-moded, deleted, and paths with spaces, tabs and newlines', () => {
    const out = [
      `:000000 100644 ${Z} ${A} A`,
      'new file.txt',
      `:100644 100644 ${A} ${B} M`,
      'dir/with\ttab',
      `:100644 100755 ${A} ${A} M`,
      'script.sh',
      `:120000 000000 ${B} ${Z} D`,
      'a\nlink',
      `:000000 160000 ${Z} ${B} A`,
      'vendor/lib',
      '',
    ].join('\0');
    expect(parseDiffTreeRaw(out)).toEqual([
      { path: 'new file.txt', mode: '100644', sha: A, oldSha: null },
      { path: 'dir/with\ttab', mode: '100644', sha: B, oldSha: A },
      { path: 'script.sh', mode: '100755', sha: A, oldSha: A },
      { path: 'a\nlink', mode: '120000', sha: null, oldSha: B },
      { path: 'vendor/lib', mode: '160000', sha: B, oldSha: null },
    ]);
  });
});
