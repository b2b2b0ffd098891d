import { describe, expect, it } from 'vitest';
import { INPUT_DEFAULTS, parseInputs } from '../../src/action/inputs.js';
import { prBody } from '../../src/action/pr-text.js';
import { blockedProblem } from '../../src/action/publish.js';
import {
  codePath,
  contextFileRule,
  globToRegExp,
  parseProtectedPaths,
  protectedIn,
  protectedRules,
} from '../../src/domain/protected-paths.js';
import { emptyTranscript } from '../../src/gemini/transcript-fold.js';
import type { RunResult } from '../../src/run/types.js';

describe('the protected-paths matcher', () => {
  const DEFAULTS = protectedRules({ defaults: true, globs: [] }, [
    'GEMINI.local.md',
    'GEMINI.md',
    'AGENTS.md',
  ]);
  const hits = (paths: string[]) => protectedIn(paths, DEFAULTS);

  it('the defaults: what the CLI loads in every directory, other CI systems, CODEOWNERS, attributes', () => {
    const protectedPaths = [
      '.github/workflows/ci.yml',
      '.github/workflows/deep/x.yaml',
      '.github/workflows',
      '.github/actions/setup/action.yml',
      '.gemini/settings.json',
      'pkg/.gemini/settings.json',
      '.Gemini/settings.json',
      'GEMINI.md',
      'AGENTS.md',
      'src/GEMINI.md',
      'docs/deep/AGENTS.md',
      'lib/gemini.md',
      'src/Agents.MD',
      'src/GEMINI.local.md',
      'CODEOWNERS',
      '.github/CODEOWNERS',
      'docs/CODEOWNERS',
      '.gitmodules',
      '.gitattributes',
      'src/.gitattributes',
      'action.yml',
      'action.yaml',
      '.circleci/config.yml',
      '.buildkite/pipeline.yml',
      '.gitlab-ci.yml',
      'Jenkinsfile',
      'ci/Jenkinsfile',
      'azure-pipelines.yml',
      '.travis.yml',
      'bitbucket-pipelines.yml',
      '.drone.yml',
    ];
    expect(hits(protectedPaths)).toEqual([...protectedPaths].sort());
  });

  it('not look-alikes: other folders, CI files below the top, other case where GitHub reads the path', () => {
    expect(
      hits([
        'docs/.github/workflows/x.yml',
        '.github/workflowsx/a.yml',
        '.GitHub/workflows/ci.yml',
        'codeowners',
        'src/action.yml',
        'sub/.circleci/config.yml',
        'sub/.travis.yml',
        'GEMINI.md.bak',
        'NOT-GEMINI.md',
        '.github/dependabot.yml',
        'README.md',
      ]),
    ).toEqual([]);
  });

  it('takes the context file names the settings give, as literal names in every directory', () => {
    const rules = protectedRules({ defaults: true, globs: [] }, ['NOTES.md', 'docs/RULES.md', 'a*b.md', ' ']);
    expect(protectedIn(['x/notes.md', 'a/docs/RULES.md', 'RULES.md', 'q/a*b.md', 'axb.md'], rules)).toEqual([
      'a/docs/RULES.md',
      'axb.md', // `*` is read as `?`: a superset of the literal name
      'q/a*b.md',
      'x/notes.md',
    ]);
    expect(contextFileRule('../up/X.md')).toEqual({ glob: '**/up/X.md', anyCase: true });
    expect(contextFileRule('/./')).toBeUndefined();
    // Without 'defaults', only the workflow's own globs.
    expect(
      protectedIn(['src/GEMINI.md'], protectedRules({ defaults: false, globs: ['x/**'] }, ['GEMINI.md'])),
    ).toEqual([]);
  });

  // CODEOWNERS-style globs, GitHub's own examples first (docs: "About code owners").
  it.each([
    ['*.js', 'a/b/c.js', true],
    ['/build/logs/', 'build/logs/deep/x.log', true],
    ['/build/logs/', 'x/build/logs/y.log', false],
    ['/build/logs/', 'build/logs', false],
    ['docs/*', 'docs/getting-started.md', true],
    ['docs/*', 'docs/build-app/troubleshooting.md', false],
    ['apps/', 'deep/apps/x.js', true],
    ['/docs/', 'docs/a/b.md', true],
    ['**/logs', 'deeply/nested/logs/x', true],
    ['**/logs', 'logs', true],
    ['/*', 'top.md', true],
    ['/*', 'dir/file.md', false],
    ['*', 'any/thing/at/all', true],
    ['GEMINI.md', 'src/GEMINI.md', true],
    ['/GEMINI.md', 'src/GEMINI.md', false],
    ['/GEMINI.md', 'GEMINI.md', true],
    ['deploy', 'deploy/run.sh', true],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false],
    ['src/*.ts', 'x/src/a.ts', false],
    ['a/**/z', 'a/z', true],
    ['a/**/z', 'a/b/c/z', true],
    ['dir/**', 'dir', true],
    ['dir/**', 'dir/x/y', true],
    ['v?.txt', 'v1.txt', true],
    ['v?.txt', 'v/.txt', false],
    ['a.b', 'axb', false],
    ['*.md', '.hidden.md', true],
    ['GEMINI.md', 'gemini.md', false],
  ] as const)('%s matches %s: %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  it('any case only where asked', () => {
    expect(globToRegExp('GEMINI.md', { anyCase: true }).test('src/Gemini.MD')).toBe(true);
    expect(globToRegExp('.github/workflows/**').test('.GITHUB/workflows/x')).toBe(false);
  });
});

describe('the protected-paths inputs', () => {
  const parse = (raw: Record<string, string>) => parseInputs({ ...INPUT_DEFAULTS, ...raw });

  it('defaults to the defaults and block', () => {
    const i = parse({});
    expect(i.protectedPaths).toEqual({ defaults: true, globs: [] });
    expect(i.protectedPathsPolicy).toBe('block');
  });

  it("a value replaces the defaults unless it says 'defaults'; none is the explicit opt-out; empty is the default", () => {
    expect(parse({ 'protected-paths': 'infra/**\n deploy.sh, ' }).protectedPaths).toEqual({
      defaults: false,
      globs: ['infra/**', 'deploy.sh'],
    });
    expect(parse({ 'protected-paths': 'defaults, /infra/' }).protectedPaths).toEqual({
      defaults: true,
      globs: ['/infra/'],
    });
    expect(parse({ 'protected-paths': 'none' }).protectedPaths).toEqual({ defaults: false, globs: [] });
    expect(parse({ 'protected-paths': 'Defaults' }).protectedPaths).toEqual({ defaults: true, globs: [] });
    expect(parse({ 'protected-paths': '' }).protectedPaths).toEqual({ defaults: true, globs: [] });
  });

  it('refuses patterns that would silently never match or be read otherwise, in one line', () => {
    expect(() => parse({ 'protected-paths': './GEMINI.md' })).toThrow(
      /^Invalid input: 'protected-paths': '\.\/GEMINI\.md' must be relative/,
    );
    expect(() => parse({ 'protected-paths': '.github//workflows/**' })).toThrow(/'\/\/'/);
    expect(() => parse({ 'protected-paths': '//x' })).toThrow(/'\/\/'/);
    expect(() => parse({ 'protected-paths': 'a/../b' })).toThrow(/'\.\.'/);
    expect(() => parse({ 'protected-paths': '{a,b}' })).toThrow(/wildcards/);
    expect(() => parse({ 'protected-paths': '[Gg]EMINI.md' })).toThrow(/wildcards/);
    expect(() => parse({ 'protected-paths': 'a\\ b' })).toThrow(/wildcards/);
    expect(() => parse({ 'protected-paths': '!keep.md' })).toThrow(/negation/);
    expect(() => parse({ 'protected-paths': '#x' })).toThrow(/'#'/);
    expect(() => parse({ 'protected-paths': '/' })).toThrow(/names no path/);
    expect(() => parse({ 'protected-paths': 'a**' })).toThrow(/whole path segment/);
    expect(() => parse({ 'protected-paths-policy': 'warn' })).toThrow(/'block' or 'allow'/);
    expect(parseProtectedPaths('a/**/b').problems).toEqual([]);
    expect(parseProtectedPaths('/.circleci/').problems).toEqual([]);
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
