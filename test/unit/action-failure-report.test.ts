/**
 * The preflight's pure decisions (which runner is refused, how tmux gets installed, inputs read leniently) and the
 * one failure report every failing end gives: what happened, what was kept, what to do next, the log.
 */
import { describe, expect, it } from 'vitest';
import { INPUT_DEFAULTS, parseInputsLeniently } from '../../src/action/inputs.js';
import {
  earlyFailure,
  failureComment,
  failureSummary,
  isNetworkFailure,
  issueComment,
  runFailure,
  type ReportInput,
} from '../../src/action/issue-report.js';
import { runnerOsProblem, tmuxInstallCommand } from '../../src/action/runner-checks.js';

const LOG = 'https://github.com/acme/widgets/actions/runs/7';

describe('the runner OS', () => {
  it.each([
    [{}, 'linux', undefined],
    [{ RUNNER_OS: 'Linux' }, 'linux', undefined],
    [{ RUNNER_OS: 'macOS' }, 'linux', 'macOS'],
    [{ RUNNER_OS: 'Windows' }, 'linux', 'Windows'],
    [{}, 'darwin', 'macOS'],
    [{ RUNNER_OS: 'Linux' }, 'win32', 'Windows'],
  ] as const)('%o on %s → %s', (env, platform, refused) => {
    const problem = runnerOsProblem(env, platform);
    if (!refused) return expect(problem).toBeUndefined();
    expect(problem).toBe(
      `gemini-run runs on Linux runners only, and this one is ${refused}: set 'runs-on: ubuntu-latest' (or a self-hosted Linux runner).`,
    );
  });
});

describe('installing tmux', () => {
  it('as root runs apt-get itself, with sudo through sudo -n, bounded by timeout; else not at all', () => {
    const root = tmuxInstallCommand({ root: true, sudo: false, apt: true });
    expect(root?.slice(0, 4)).toEqual(['timeout', '-k', '10', '150']);
    expect(root?.slice(-6)).toEqual(['apt-get', 'install', '-y', '-q', '--no-install-recommends', 'tmux']);
    expect(tmuxInstallCommand({ root: false, sudo: true, apt: true })).toEqual(['sudo', '-n', ...root!]);
    expect(tmuxInstallCommand({ root: false, sudo: false, apt: true })).toBeUndefined();
    expect(tmuxInstallCommand({ root: true, sudo: true, apt: false })).toBeUndefined();
  });
});

describe('inputs read leniently', () => {
  it('keeps the good ones, defaults the bad ones, and names every problem in one line', () => {
    const { inputs, problem } = parseInputsLeniently({
      ...INPUT_DEFAULTS,
      mode: 'turbo',
      'trigger-label': 'go',
      'timeout-minutes': '0',
    });
    expect(inputs.mode).toBe('interactive');
    expect(inputs.triggerLabel).toBe('go');
    expect(inputs.timeoutMinutes).toBe(30);
    expect(problem).toMatch(/^Invalid input: 'mode' .*; 'timeout-minutes' .*\.$/);
    expect(parseInputsLeniently(INPUT_DEFAULTS).problem).toBeUndefined();
  });
});

const base: ReportInput = {
  status: 'auth-failed',
  message: 'API key not valid. Please pass a valid API key.',
  commitCount: 0,
  finalAnswer: '',
  onPullRequest: false,
};

describe('the failure report', () => {
  it('gives auth advice only for a refused credential; a network failure says network', () => {
    expect(issueComment(base)).toMatch(/Gemini refused the credentials/);
    const network = { ...base, message: 'upstream unreachable: getaddrinfo ENOTFOUND cloudcode-pa' };
    expect(isNetworkFailure(network.message)).toBe(true);
    expect(issueComment(network)).not.toMatch(/refused the credentials|consumer Google/);
    expect(issueComment(network)).toMatch(/could not be reached.*network/);
    expect(isNetworkFailure(base.message)).toBe(false);
  });

  it('a summary says what happened, what was kept, what to do next, and links the log', () => {
    const f = runFailure({ ...base, status: 'quota-exhausted', message: 'daily limit', commitCount: 2 }, LOG);
    expect(f).toBeDefined();
    const md = failureSummary(f!);
    expect(md).toMatch(/^## gemini-run: 🚫 quota exhausted\n/);
    expect(md).toContain('**What happened:** gemini ended quota-exhausted: daily limit');
    expect(md).toContain("**What was kept:** The agent's 2 commit(s) could not be kept");
    expect(md).toMatch(/\*\*What to do next:\*\* The Gemini quota/);
    expect(md).toContain(`[The job's log](${LOG})`);
    const kept = runFailure(
      {
        ...base,
        status: 'crashed',
        commitCount: 1,
        publish: { pushedTo: 'gemini-run/issue-1', pull: { number: 4 } as never },
      },
      LOG,
    );
    expect(kept?.kept).toBe("The agent's 1 commit(s) are in pull request #4.");
    expect(runFailure({ ...base, status: 'finished' }, LOG)).toBeUndefined();
  });

  it('a misconfiguration never carries the auth paragraph, and the comment names the fix', () => {
    const f = earlyFailure('misconfigured', "Unknown model 'x': use one of auto.", {
      logUrl: LOG,
      userError: true,
    });
    expect(f.kept).toMatch(/^Nothing ran/);
    const comment = failureComment(f);
    expect(comment).toMatch(/^gemini-run ended `misconfigured`: Unknown model 'x': use one of auto\.\n\n/);
    expect(comment).not.toMatch(/refused the credentials/);
    expect(comment).toContain(`([log](${LOG}))`);
    expect(
      earlyFailure('crashed', 'Could not reach Google (ETIMEDOUT)', { logUrl: LOG, userError: true }).next,
    ).toMatch(/network/);
  });
});
