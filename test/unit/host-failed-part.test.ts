/**
 * Which part failed, read from what was thrown in the shapes the parts really throw: Octokit's RequestError (with
 * the request it made and undici's cause), node's errno errors, git's exit line through exec.
 */
import { RequestError } from '@octokit/request-error';
import { describe, expect, it } from 'vitest';
import { earlyFailure, failureComment, failureSummary } from '../../src/action/issue-report.js';
import { withoutRunnerPaths } from '../../src/action/context.js';
import { failedPartOf, failureLine } from '../../src/host/failed-part.js';

function githubError(message: string, cause: Error): RequestError {
  const e = new RequestError(message, 500, {
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:9/repos/acme/widgets/collaborators/alice/permission',
      headers: { authorization: 'token [REDACTED]' },
    },
  });
  Object.assign(e, { cause });
  return e;
}

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('what failed', () => {
  it("GitHub's API: Octokit's request error, whatever its cause says (a refused port is not the model's network)", () => {
    const refused = githubError('connect ECONNREFUSED 127.0.0.1:9', new TypeError('fetch failed'));
    const badPort = githubError('bad port', new TypeError('fetch failed', { cause: new Error('bad port') }));
    expect(failedPartOf(refused, 'gemini-run')).toBe('github');
    expect(failedPartOf(badPort, 'gemini-run')).toBe('github');
    // The line says which request: "bad port" alone says nothing.
    expect(failureLine(badPort)).toBe(
      'bad port (GET http://127.0.0.1:9/repos/acme/widgets/collaborators/alice/permission)',
    );
  });

  it("the runner's disk: an errno of a refused write, or git's words for one", () => {
    expect(
      failedPartOf(fsError('EROFS', "EROFS: read-only file system, open '/w/GEMINI.local.md'"), 'gemini'),
    ).toBe('workspace');
    expect(failedPartOf(fsError('ENOSPC', 'ENOSPC: no space left on device, write'), 'gemini')).toBe(
      'workspace',
    );
    const git = new Error(
      "git --no-pager -c exited 128: fatal: Unable to create '/w/.git/refs/remotes/origin/main.lock': Read-only file system",
    );
    expect(failedPartOf(git, 'gemini-run')).toBe('workspace');
  });

  it('the network, when nothing names GitHub; else the part that was running', () => {
    expect(failedPartOf(new Error('getaddrinfo ENOTFOUND registry.npmjs.org'), 'gemini-run')).toBe('network');
    expect(failedPartOf(new Error('tmux vanished'), 'gemini')).toBe('gemini');
    expect(failedPartOf('a thrown string', 'gemini-run')).toBe('gemini-run');
  });

  it("each part's own advice; a crash before gemini started never gets the Gemini CLI's", () => {
    for (const [part, advice] of [
      ['github', /^GitHub's API could not be reached/],
      ['workspace', /^The runner's disk refused a write/],
      ['gemini-run', /^gemini-run stopped on an error of its own/],
    ] as const) {
      const f = earlyFailure('crashed', 'x', { logUrl: 'https://l', userError: false, failedPart: part });
      expect(f.next).toMatch(advice);
      expect(failureSummary(f)).not.toMatch(/Gemini CLI stopped|model service/);
      expect(failureComment(f)).toMatch(/^gemini-run ended `crashed` \(.+ failed\): x/);
    }
  });

  it("the runner's paths are said as their variables on the issue", () => {
    const ctx = { workspace: '/runner/_work/w/w', runnerTemp: '/runner/_work/_temp', toolCache: '/opt/tc' };
    expect(
      withoutRunnerPaths(
        "Unable to create '/runner/_work/w/w/.git/index.lock' in /runner/_work/_temp/x and /opt/tc/gemini",
        ctx,
      ),
    ).toBe(
      "Unable to create '$GITHUB_WORKSPACE/.git/index.lock' in $RUNNER_TEMP/x and $RUNNER_TOOL_CACHE/gemini",
    );
  });
});
