import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unexpectedConfig } from '../../src/git/workspace.js';
import { issueComment, stepFailure, type ReportInput } from '../../src/action/issue-report.js';
import {
  compareUrl,
  divertProblem,
  pullProblem,
  pushProblem,
  type PublishOutcome,
} from '../../src/action/publish.js';
import { localTranscriptStore } from '../../src/action/transcript-store.js';
import { PushRejectedError, classifyPushFailure, parseLsRemote } from '../../src/git/push.js';
import { capBody } from '../../src/github/limits.js';

const WORKFLOW_REFUSAL =
  'remote: error: refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission\nTo https://github.com/acme/widgets.git\n';

describe('classifyPushFailure', () => {
  it("tells a moved branch, a workflow refusal and anything else apart from git's answer", () => {
    expect(classifyPushFailure('!\trefs/heads/x:refs/heads/x\t[rejected] (fetch first)\n', '')).toBe('moved');
    expect(classifyPushFailure('!\trefs/heads/x:refs/heads/x\t[rejected] (non-fast-forward)\n', '')).toBe(
      'moved',
    );
    expect(classifyPushFailure('!\trefs/heads/x:refs/heads/x\t[rejected] (stale info)\n', '')).toBe('moved');
    expect(
      classifyPushFailure(
        '!\tHEAD:refs/heads/x\t[remote rejected] (pre-receive hook declined)',
        WORKFLOW_REFUSAL,
      ),
    ).toBe('workflows');
    expect(
      classifyPushFailure(
        '!\tHEAD:refs/heads/x\t[remote rejected] (refusing to allow an OAuth App to create or update workflow `.github/workflows/a.yml` without `workflow` scope)',
        '',
      ),
    ).toBe('workflows');
    expect(classifyPushFailure('', 'fatal: Authentication failed')).toBe('other');
  });
  it('parses every ref of ls-remote: heads, tags and their peeled commits, pull refs', () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((x) => x.repeat(40));
    const out = `${a}\tHEAD\n${a}\trefs/heads/main\n${b}\trefs/heads/gemini-run/issue-1\n${c}\trefs/tags/v1\n${d}\trefs/tags/v1^{}\n${e}\trefs/pull/7/head\n`;
    expect([...parseLsRemote(out)]).toEqual([
      ['refs/heads/main', a],
      ['refs/heads/gemini-run/issue-1', b],
      ['refs/tags/v1', c],
      ['refs/tags/v1^{}', d],
      ['refs/pull/7/head', e],
    ]);
  });
});

describe('publishing problems, in plain words', () => {
  const url = compareUrl(
    'https://github.com',
    { owner: 'acme', repo: 'widgets' },
    'main',
    'gemini-run/issue-1',
  );
  it('builds the compare link', () => {
    expect(url).toBe('https://github.com/acme/widgets/compare/main...gemini-run/issue-1?expand=1');
  });
  it('a workflow refusal points at the bundle and the permission', () => {
    const p = pushProblem(
      'gemini-run/issue-1',
      new PushRejectedError('gemini-run/issue-1', 'workflows', 'x'),
      'gemini-run-5-1',
    );
    expect(p.what).toMatch(/lacks the `workflows` permission/);
    expect(p.todo).toMatch(/artifact `gemini-run-5-1` as `gemini-run.bundle`/);
    expect(p.todo).toContain('git fetch gemini-run.bundle HEAD:gemini-run/issue-1');
    expect(p.headline).not.toContain('\n');
  });
  it('a 403 on PR creation gives the compare link and the setting', () => {
    const error = Object.assign(new Error('x'), {
      status: 403,
      response: { data: { message: 'GitHub Actions is not permitted to create or approve pull requests.' } },
    });
    const p = pullProblem('gemini-run/issue-1', error, url);
    expect(p.todo).toContain(url);
    expect(p.todo).toMatch(/Allow GitHub Actions to create and approve pull requests/);
    const other = pullProblem('b', Object.assign(new Error('y'), { status: 502 }), url);
    expect(other.what).toMatch(/opening the pull request failed: 502 y/);
  });
  it('a diverted branch says why and where', () => {
    expect(divertProblem('b', 'b-run-7', 'rewrote', url).what).toMatch(
      /rewrote the history of `b`.*`b-run-7`/,
    );
    expect(divertProblem('b', 'b-run-7', 'moved', url).what).toMatch(/Someone pushed to `b`/);
  });
});

describe('the report: issue comment and step failure', () => {
  const base: ReportInput = {
    status: 'finished',
    commitCount: 1,
    finalAnswer: 'Done.',
    onPullRequest: false,
  };
  const pull = { number: 2 } as NonNullable<PublishOutcome['pull']>;
  it('a clean run links the PR and does not fail', () => {
    const r = { ...base, publish: { pushedTo: 'b', pull } };
    expect(issueComment(r)).toBe('gemini-run opened #2.');
    // After the "already exists" race another run opened it: this one only updated it, and says so.
    expect(issueComment({ ...r, publish: { ...r.publish, opened: false } })).toBe('gemini-run updated #2.');
    expect(issueComment({ ...r, publish: { ...r.publish, opened: true } })).toBe('gemini-run opened #2.');
    expect(stepFailure(r)).toBeUndefined();
  });
  it('a publishing problem is told and fails the step in one line, whatever the status', () => {
    const problem = { headline: 'the push failed', what: 'The push failed.', todo: 'Do this.' };
    const r = { ...base, publish: { problem } };
    expect(issueComment(r)).toBe(
      'gemini-run finished, but its work could not be published as planned.\n\nThe push failed.\n\nDo this.',
    );
    expect(stepFailure(r)).toBe('gemini-run could not publish: the push failed');
    expect(stepFailure({ ...r, status: 'timed-out', message: 'timed out after 60 s' })).toBe(
      'gemini ended timed-out: timed out after 60 s; and the push failed',
    );
    expect(issueComment({ ...r, onPullRequest: true })).toContain('The push failed.');
    const late = issueComment({ ...r, status: 'timed-out', message: 'timed out after 60 s' });
    expect(late).toMatch(/what it committed is kept/);
    expect(late).not.toMatch(/committed nothing|pull request/);
  });
  it('an unavailable model with nothing committed never mentions a pull request', () => {
    const text = issueComment({
      ...base,
      status: 'timed-out',
      commitCount: 0,
      message:
        'the model was unavailable: 3 call(s) failed and none succeeded; the last answer was 503 "The model is overloaded."',
    });
    expect(text).toMatch(/the model was unavailable/);
    expect(text).not.toMatch(/pull request/i);
  });
  it('no-changes gives the answer; a PR follow-up that went well says nothing more', () => {
    expect(issueComment({ ...base, status: 'no-changes', commitCount: 0 })).toMatch(
      /without changing anything.*\n\nDone\./s,
    );
    expect(issueComment({ ...base, onPullRequest: true, publish: { pushedTo: 'b', pull } })).toBeUndefined();
  });
});

describe('capBody', () => {
  it('leaves a body that fits, cuts one that does not and says so, never inside a surrogate pair', () => {
    expect(capBody('short')).toBe('short');
    const capped = capBody('x'.repeat(70_000));
    expect(capped.length).toBeLessThanOrEqual(65_536);
    expect(capped).toMatch(/Cut here: this text was 70,000 characters, over GitHub's limit of 65,536/);
    const emoji = capBody('😀'.repeat(40_000), 1_000);
    expect(emoji.length).toBeLessThanOrEqual(1_000);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('unexpectedConfig: what actions/checkout does not write', () => {
  const e = (key: string, value: string | null = 'x') => ({ key, value });
  it('accepts a checkout: core, remote, branch, the credential header and include, LFS, gc', () => {
    expect(
      unexpectedConfig([
        e('core.repositoryformatversion', '0'),
        e('core.filemode', 'true'),
        e('core.bare', 'false'),
        e('remote.origin.url', 'https://github.com/acme/widgets'),
        e('remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'),
        e('branch.main.remote', 'origin'),
        e('http.https://github.com/.extraheader', 'AUTHORIZATION: basic xxx'),
        e(
          'includeIf.gitdir:/home/runner/work/w/w/.git.path',
          '/home/runner/work/_temp/git-credentials-0b1a2c3d-4e5f-6789-abcd-ef0123456789.config',
        ),
        e('filter.lfs.clean', 'git-lfs clean -- %f'),
        e('filter.lfs.process', 'git-lfs filter-process'),
        e('gc.auto', '0'),
      ]),
    ).toEqual([]);
  });
  it('names everything else: commands, includes, worktree config, redirects, unknown keys', () => {
    expect(
      unexpectedConfig([
        e('filter.lfs.process', 'evil'),
        e('filter.evil.clean', 'sh -c evil'),
        e('core.fsmonitor', './x'),
        e('core.sshCommand', 'ssh -o ProxyCommand=evil'),
        e('core.worktree', '/tmp'),
        e('core.hooksPath', '/tmp/hooks'),
        e('extensions.worktreeConfig', 'true'),
        e('include.path', '../evil.cfg'),
        e('includeIf.gitdir:/.path', '/tmp/evil.cfg'),
        e('diff.x.textconv', 'evil'),
        e('uploadpack.packObjectsHook', 'evil'),
        e('some.new.key', 'x'),
      ]),
    ).toEqual([
      'filter.lfs.process',
      'filter.evil.clean',
      'core.fsmonitor',
      'core.sshCommand',
      'core.worktree',
      'core.hooksPath',
      'extensions.worktreeConfig',
      'include.path',
      'includeIf.gitdir:/.path',
      'diff.x.textconv',
      'uploadpack.packObjectsHook',
      'some.new.key',
    ]);
  });
});

describe('localTranscriptStore', () => {
  it('keeps repositories apart', async () => {
    const root = await mkdtemp(join(tmpdir(), 'store-'));
    try {
      const src = join(root, 'src');
      await mkdir(src);
      await writeFile(join(src, 'transcript.jsonl'), '{}\n');
      const a = localTranscriptStore(join(root, 'store'), { owner: 'acme', repo: 'widgets' });
      const b = localTranscriptStore(join(root, 'store'), { owner: 'evil', repo: 'widgets' });
      await a.save('gemini-run-1-1', [join(src, 'transcript.jsonl')], src);
      const record = { sessionId: 's', runId: '1', artifact: 'gemini-run-1-1', mode: 'headless' };
      expect(await b.load(record, join(root, 'out-b'))).toBeUndefined();
      expect(await a.load(record, join(root, 'out-a'))).toBe(join(root, 'out-a', 'transcript.jsonl'));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
