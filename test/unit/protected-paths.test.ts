import { describe, expect, it } from 'vitest';
import { INPUT_DEFAULTS, parseInputs } from '../../src/action/inputs.js';
import { prBody } from '../../src/action/pr-text.js';
import { blockedProblem } from '../../src/action/publish.js';
import {
  DEFAULT_PROTECTED_PATHS,
  codePath,
  globToRegExp,
  parseProtectedPaths,
  protectedIn,
} from '../../src/domain/protected-paths.js';
import { emptyTranscript } from '../../src/gemini/transcript-fold.js';
import type { RunResult } from '../../src/run/types.js';

describe('the protected-paths matcher', () => {
  const hits = (paths: string[]) => protectedIn(paths, DEFAULT_PROTECTED_PATHS);

  it('matches the defaults the persistence attacks go through', () => {
    expect(
      hits([
        '.github/workflows/ci.yml',
        '.github/workflows/deep/x.yaml',
        '.github/workflows',
        '.github/actions/setup/action.yml',
        '.gemini/settings.json',
        'GEMINI.md',
        'AGENTS.md',
        'CODEOWNERS',
        '.github/CODEOWNERS',
        '.gitmodules',
      ]),
    ).toHaveLength(10);
  });

  it('does not match look-alikes: other folders, nested context files, other case (as GitHub reads them)', () => {
    expect(
      hits([
        'src/GEMINI.md',
        'docs/.github/workflows/x.yml',
        '.github/workflowsx/a.yml',
        '.GitHub/workflows/ci.yml',
        'gemini.md',
        '.github/dependabot.yml',
        'README.md',
      ]),
    ).toEqual([]);
  });

  it('knows *, ** and ?', () => {
    expect(globToRegExp('**/GEMINI.md').test('a/b/GEMINI.md')).toBe(true);
    expect(globToRegExp('**/GEMINI.md').test('GEMINI.md')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/a.ts')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/a/b.ts')).toBe(false);
    expect(globToRegExp('a/**/z').test('a/z')).toBe(true);
    expect(globToRegExp('a/**/z').test('a/b/c/z')).toBe(true);
    expect(globToRegExp('v?.txt').test('v1.txt')).toBe(true);
    expect(globToRegExp('v?.txt').test('v/.txt')).toBe(false);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });
});

describe('the protected-paths inputs', () => {
  const parse = (raw: Record<string, string>) => parseInputs({ ...INPUT_DEFAULTS, ...raw });

  it('defaults to the documented list and block', () => {
    const i = parse({});
    expect(i.protectedPaths).toEqual(DEFAULT_PROTECTED_PATHS);
    expect(i.protectedPathsPolicy).toBe('block');
  });

  it('a value replaces the defaults; none is the explicit opt-out; empty is the default', () => {
    expect(parse({ 'protected-paths': 'infra/**\n deploy.sh, ' }).protectedPaths).toEqual([
      'infra/**',
      'deploy.sh',
    ]);
    expect(parse({ 'protected-paths': 'none' }).protectedPaths).toEqual([]);
    expect(parse({ 'protected-paths': '' }).protectedPaths).toEqual(DEFAULT_PROTECTED_PATHS);
  });

  it('refuses patterns that would silently never match, in one line', () => {
    expect(() => parse({ 'protected-paths': './GEMINI.md' })).toThrow(
      /^Invalid input: 'protected-paths': '\.\/GEMINI\.md' must be relative/,
    );
    expect(() => parse({ 'protected-paths': '.github//workflows/**' })).toThrow(/'\/\/'/);
    expect(() => parse({ 'protected-paths': '{a,b}' })).toThrow(/wildcards/);
    expect(() => parse({ 'protected-paths': 'a**' })).toThrow(/whole path segment/);
    expect(() => parse({ 'protected-paths-policy': 'warn' })).toThrow(/'block' or 'allow'/);
    expect(parseProtectedPaths('a/**/b').problems).toEqual([]);
  });
});

describe('what people are told', () => {
  const changes = [
    { path: '.github/workflows/ci.yml', stat: { added: 3, removed: 1 } },
    { path: 'GEMINI.md', stat: 'binary' as const },
    { path: 'a`b\n.md' },
  ];

  it('block: the paths, their stat, the bundle and the input to set', () => {
    const p = blockedProblem('gemini-run/issue-1', changes, 'gemini-run-1-1');
    expect(p.headline).toMatch(/change 3 protected paths .*nothing was pushed/);
    expect(p.what).toContain(
      '`.github/workflows/ci.yml` (+3 −1), `GEMINI.md` (binary), `a\\x60b\\x0a.md` (no net change)',
    );
    expect(p.todo).toMatch(/`gemini-run-1-1` as `gemini-run\.bundle`.*protected-paths-policy: allow/);
    expect(p.what).not.toMatch(/\n/);
  });

  it('allow: the pull request body opens with the warning', () => {
    const result = { status: 'finished', transcript: emptyTranscript() } as unknown as RunResult;
    const body = prBody({
      task: { title: 't', instruction: 'i' } as never,
      result,
      summary: 's',
      protectedChanges: changes,
      on: { serverUrl: 'https://github.com', owner: 'o', repo: 'r' },
    });
    expect(body.split('\n')[0]).toBe('## ⚠ Changes protected paths');
    expect(body).toContain('- `.github/workflows/ci.yml` (+3 −1)');
    const on = { serverUrl: 'https://github.com', owner: 'o', repo: 'r' };
    expect(prBody({ task: { title: 't', instruction: 'i' } as never, result, summary: 's', on })).not.toMatch(
      /protected/,
    );
  });

  it('a path cannot end its code span or its line', () => {
    expect(codePath('x`y\rz')).toBe('`x\\x60y\\x0dz`');
  });
});
