/**
 * What the agent made leaves its repository as data. Whatever has to happen inside the agent's repository after
 * the run (commit what it left uncommitted, find its head, write its commits into a bundle) runs as the agent's
 * own user, with an environment that holds nothing of ours: whatever its repository makes git execute (a filter in
 * `config.worktree`, a hook, an fsmonitor), the agent could have executed anyway. The action then reads the
 * bundle as a file (src/util/agent-file.ts) and fetches it into its own repository (src/git/vault.ts).
 */
import { exec, type ExecResult } from '../util/exec.js';
import type { GitIdentity } from './commits.js';

export interface ExportOptions {
  worktree: string;
  /** Argv prefix that runs a program as the agent's user; empty: as this process (isolation: none). */
  runAs: readonly string[];
  /** The agent's HOME and PATH: its own git config applies to it, ours does not. */
  home: string;
  path: string;
  /** The commit the run started from: the bundle leaves out what it reaches. */
  base: string;
  /** Where the agent's user writes the bundle (a path in its own directory). */
  bundle: string;
  /** Identity and message of the commit of uncommitted work. */
  identity?: GitIdentity;
  message: string;
  timeoutMs?: number;
}

export interface ExportResult {
  /** The agent's HEAD, as it reported it (a hex id), or undefined when it could not be read. */
  head?: string;
  /** True when the bundle was written (HEAD differs from base). */
  bundled: boolean;
  leftoverCommitted: boolean;
  /**
   * The agent left work that could not be committed (git's own words): that work is not in any commit, so the run
   * did not keep it and must not end as if it had.
   */
  commitFailed?: string;
  /** What went wrong, in one line, for a warning. */
  problem?: string;
}

function agentGit(o: ExportOptions) {
  const env = [
    `HOME=${o.home}`,
    `PATH=${o.path}`,
    'LC_ALL=C',
    'GIT_TERMINAL_PROMPT=0',
    'GIT_PAGER=cat',
    'GIT_EDITOR=true',
    // The worktree belongs to the action's user: git refuses another owner's repository unless it is named here.
    'GIT_CONFIG_COUNT=1',
    'GIT_CONFIG_KEY_0=safe.directory',
    `GIT_CONFIG_VALUE_0=${o.worktree}`,
    ...(o.identity
      ? [
          `GIT_AUTHOR_NAME=${o.identity.name}`,
          `GIT_AUTHOR_EMAIL=${o.identity.email}`,
          `GIT_COMMITTER_NAME=${o.identity.name}`,
          `GIT_COMMITTER_EMAIL=${o.identity.email}`,
        ]
      : []),
  ];
  return (args: string[]): Promise<ExecResult> => {
    const argv = [...o.runAs, 'env', '-i', ...env, 'git', '-C', o.worktree, ...args];
    const [file, ...rest] = argv as [string, ...string[]];
    return exec(file, rest, {
      allowAllExitCodes: true,
      timeoutMs: o.timeoutMs ?? 5 * 60_000,
      env: { PATH: o.path },
    });
  };
}

const HEX_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Commits leftovers and bundles HEAD as the agent's user. Never throws: a failure is a `problem`. */
export async function exportWork(o: ExportOptions): Promise<ExportResult> {
  const git = agentGit(o);
  let leftoverCommitted = false;
  let commitFailed: string | undefined;
  const problems: string[] = [];
  // git's own complaint is its last lines; what a planted hook or filter printed comes before.
  const first = (r: ExecResult) =>
    r.stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300) || `exit ${r.exitCode}`;
  try {
    const add = await git(['add', '--all']);
    if (add.exitCode !== 0) {
      commitFailed = `git add: ${first(add)}`;
      problems.push(commitFailed);
    }
    const staged = await git(['diff', '--cached', '--quiet']);
    if (staged.exitCode === 1) {
      // The message in argv, not on stdin: a command the repository makes git run (an fsmonitor) inherits stdin
      // and could swallow it. It is our fixed text, nothing secret.
      const commit = await git([
        'commit',
        '--no-verify',
        '--no-gpg-sign',
        '--quiet',
        '-m',
        o.message.trimEnd(),
      ]);
      if (commit.exitCode === 0) leftoverCommitted = true;
      else {
        commitFailed = `git commit: ${first(commit)}`;
        problems.push(commitFailed);
      }
    }
    const rev = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
    const head = rev.stdout.trim();
    const failed = commitFailed ? { commitFailed } : {};
    if (rev.exitCode !== 0 || !HEX_ID.test(head)) {
      return {
        bundled: false,
        leftoverCommitted,
        ...failed,
        problem: [...problems, 'no HEAD commit'].join('; '),
      };
    }
    if (head === o.base) {
      return {
        head,
        bundled: false,
        leftoverCommitted,
        ...failed,
        ...(problems.length ? { problem: problems.join('; ') } : {}),
      };
    }
    let bundle = await git(['bundle', 'create', '--quiet', o.bundle, 'HEAD', `^${o.base}`]);
    // The base may be gone from the agent's repository (a rewritten history, a pruned object store): all of HEAD.
    if (bundle.exitCode !== 0) bundle = await git(['bundle', 'create', '--quiet', o.bundle, 'HEAD']);
    if (bundle.exitCode !== 0) problems.push(`git bundle: ${first(bundle)}`);
    return {
      head,
      bundled: bundle.exitCode === 0,
      leftoverCommitted,
      ...failed,
      ...(problems.length ? { problem: problems.join('; ') } : {}),
    };
  } catch (e) {
    const message = (e as Error).message;
    return { bundled: false, leftoverCommitted, commitFailed: commitFailed ?? message, problem: message };
  }
}
