import { describe, expect, it } from 'vitest';
import { neutraliseCommitMessage as neutralise } from '../../src/github/commit-message.js';

/**
 * What GitHub and CI systems act on in a commit message, found without the neutraliser's own rules: any issue
 * reference, closing keyword with one, mention or CI-skip directive left live. For text whose only URLs are
 * issue URLs (every one of which must go): a run of the messages below through this finds nothing.
 */
function live(text: string): string[] {
  const found = [
    /(?:^|[^0-9A-Za-z_])#\d+/g,
    /GH-\d+/gi,
    /[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#\d+/g,
    /(?:^|[^A-Za-z0-9_])@[A-Za-z0-9][A-Za-z0-9-]*/g,
    /https?:\/\/\S+\/(?:issues|pull)\/\d+/gi,
    /www\.\S+\/(?:issues|pull)\/\d+/gi,
    /\[(?:skip ci|ci skip|no ci|skip actions|actions skip|skip[ -]\w+|\w+ skip)\]/gi,
    /\*\*\*NO_CI\*\*\*/gi,
    /skip-checks\s*:/gi,
  ];
  return found.flatMap((re) => text.match(re) ?? []);
}

describe('the commit message neutraliser', () => {
  // What the agent wrote → what reaches the remote.
  it.each([
    ['Fixes #3', 'Fixes # 3'],
    ['closes acme/widget#4', 'closes acme/widget# 4'],
    ['Resolves: GH-12', 'Resolves: GH- 12'],
    ['fixed https://github.com/acme/widget/issues/5.', 'fixed github.com/acme/widget/issues/5.'],
    [
      'see http://github.com/acme/widget/pull/6#discussion_r1',
      'see github.com/acme/widget/pull/6#discussion_r1',
    ],
    ['(www.github.com/acme/widget/issues/7)', '(github.com/acme/widget/issues/7)'],
    ['https://ghe.example.com/a/b/issues/8#9', 'ghe.example.com/a/b/issues/8# 9'],
    ['Thanks @alice and @acme/core', 'Thanks @ alice and @ acme/core'],
    ['Bump @types/node', 'Bump @ types/node'],
    ['[skip ci] Tidy', '(skip ci) Tidy'],
    ['Tidy [ci skip]', 'Tidy (ci skip)'],
    ['[no ci] [skip actions] [actions skip]', '(no ci) (skip actions) (actions skip)'],
    ['[SKIP CI] [skip travis] [azp skip] [skip-ci]', '(SKIP CI) (skip travis) (azp skip) (skip-ci)'],
    ['Docs ***NO_CI***', 'Docs (NO_CI)'],
    ['Tidy\n\n\nskip-checks: true\n', 'Tidy\n\n\n(skip-checks true)\n'],
    ['Tidy\n\nskip-checks:true', 'Tidy\n\n(skip-checks true)'],
    // Left as written: e-mail addresses, other links and their anchors, words, colours, brackets without `skip`.
    ['Co-authored-by: Ada <ada@example.com>', 'Co-authored-by: Ada <ada@example.com>'],
    [
      'See https://example.com/spec#123 and https://a.b/@me',
      'See https://example.com/spec#123 and https://a.b/@me',
    ],
    ['Use [WIP] markers, #fff colours and C# code', 'Use [WIP] markers, #fff colours and C# code'],
    ['', ''],
  ])('%j → %j', (agent, pushed) => {
    expect(neutralise(agent)).toBe(pushed);
    expect(neutralise(pushed)).toBe(pushed);
  });

  it('reads URLs no longer than GitHub does: what it would not link is text', () => {
    // A letter before the scheme, an underscore in the domain's last parts, a `<`: no link, so no protection.
    expect(neutralise('xhttps://a.b/#5')).toBe('xhttps://a.b/# 5');
    expect(neutralise('https://a.b_c.d/#5')).toBe('https://a.b_c.d/# 5');
    expect(neutralise('https://a.b/x<#5')).toBe('https://a.b/x<# 5');
    expect(neutralise('https://localhost/#5')).toBe('https://localhost/# 5');
    expect(neutralise('/www.a.b/#5')).toBe('/www.a.b/# 5');
    expect(neutralise('HTTPS://a.b/#5')).toBe('HTTPS://a.b/# 5');
  });

  it('leaves nothing live in a hostile message, and is idempotent', () => {
    const hostile = [
      'Fix the parser (fixes #3, closes acme/widget#4, resolves https://github.com/acme/widget/issues/5)',
      '',
      'Also fixes: GH-6 and www.github.com/other/repo/pull/7 — thanks @alice, cc @acme/security.',
      'Closes #1 [skip ci] [ci skip] [no ci] [skip actions] [actions skip] ***NO_CI***',
      '#8 at the start, (#9) in parens, "#10" quoted, tab\t#11',
      '',
      'skip-checks: true',
    ].join('\n');
    const out = neutralise(hostile);
    expect(live(hostile).length).toBeGreaterThan(15);
    expect(live(out)).toEqual([]);
    expect(neutralise(out)).toBe(out);
    // Still the same words for a person.
    expect(out.replace(/[ ()[\]*]/g, '')).toBe(
      hostile
        .replace(/https?:\/\/|www\./g, '')
        .replace(/[ ()[\]*]/g, '')
        .replace('skip-checks:true', 'skip-checkstrue'),
    );
  });
});
