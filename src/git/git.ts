import { exec, type ExecResult } from '../util/exec.js';

/**
 * Variables that point git at another repository, index or object store. A parent git process (a hook, a
 * `git rebase -x`) exports them; inherited, they would make every command here act on the wrong repository.
 */
const REPO_LOCATION_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_QUARANTINE_PATH',
  'GIT_REPLACE_REF_BASE',
];

/**
 * The environment git gets from us: the caller's (or the process's) environment minus repository-location
 * variables, with pagers and editors disabled so no command ever waits for a terminal. The exec wrapper adds
 * GIT_TERMINAL_PROMPT=0 and LC_ALL=C on top.
 */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (REPO_LOCATION_VARS.includes(key) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(key)) continue;
    env[key] = value;
  }
  env.GIT_PAGER = 'cat';
  env.PAGER = 'cat';
  env.GIT_EDITOR = 'true';
  env.GIT_SEQUENCE_EDITOR = 'true';
  // Replacement refs would make cat-file show objects other than the ones the commits really point at.
  env.GIT_NO_REPLACE_OBJECTS = '1';
  return env;
}

/**
 * For a repository the action made itself (the vault, the rebuilt workspace .git) or config it parses outside any
 * repository: gitEnv without the system's or the user's global config, so only what the action wrote applies.
 */
export function ownRepoEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...gitEnv(base), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
}

/**
 * Variables git may keep when it works on a repository the agent could write to. Its config can name
 * commands (filters, fsmonitor, textconv, hooks) that would inherit our environment, and ours holds the
 * GitHub token; theirs holds nothing secret.
 */
const UNTRUSTED_ENV_ALLOW = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'TZ',
  'TMPDIR',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
];

function untrustedRepoEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of UNTRUSTED_ENV_ALLOW) if (base[key] !== undefined) env[key] = base[key];
  return env;
}

/** Config for every command on such a repository: hooks and the fsmonitor command are never run. */
const UNTRUSTED_REPO_CONFIG: readonly string[] = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
];

export interface GitRunOptions {
  allowAllExitCodes?: boolean;
  input?: string | Buffer;
  /** Extra variables for this one command (merged over the instance's environment). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** A thin seam over the exec wrapper bound to one working directory. */
export class Git {
  private constructor(
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly prefix: readonly string[] = [],
  ) {}

  /** `env` is the base environment (default: process.env); repository-location variables are removed. */
  static create(dir: string, env?: NodeJS.ProcessEnv): Git {
    return new Git(dir, gitEnv(env));
  }

  /**
   * For a repository the agent has had write access to (its worktree, before or after the run): no hooks,
   * no fsmonitor, and an environment without secrets for anything its config makes git run.
   */
  static forUntrusted(dir: string, env: NodeJS.ProcessEnv = process.env): Git {
    return new Git(dir, gitEnv(untrustedRepoEnv(env)), UNTRUSTED_REPO_CONFIG);
  }

  run(args: readonly string[], opts: GitRunOptions = {}): Promise<ExecResult> {
    return exec('git', ['--no-pager', ...this.prefix, ...args], {
      cwd: this.dir,
      env: opts.env ? { ...this.env, ...opts.env } : this.env,
      input: opts.input,
      allowAllExitCodes: opts.allowAllExitCodes,
      timeoutMs: opts.timeoutMs,
    });
  }

  /** True when the command exits 0; never throws for a non-zero exit. */
  async tryRun(
    args: readonly string[],
    opts: Omit<GitRunOptions, 'allowAllExitCodes'> = {},
  ): Promise<boolean> {
    const r = await this.run(args, { ...opts, allowAllExitCodes: true });
    return r.exitCode === 0;
  }

  /** stdout without the trailing newline. */
  async output(args: readonly string[], opts: GitRunOptions = {}): Promise<string> {
    const r = await this.run(args, opts);
    return r.stdout.replace(/\n$/, '');
  }

  headSha(): Promise<string> {
    return this.revParse('HEAD');
  }

  /** The full object id of a commit-ish; throws when it does not name a commit. */
  revParse(rev: string): Promise<string> {
    return this.output(['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`]);
  }

  /** The object id, or undefined when `rev` names nothing. */
  async tryRevParse(rev: string): Promise<string | undefined> {
    const r = await this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
      allowAllExitCodes: true,
    });
    return r.exitCode === 0 ? r.stdout.trim() : undefined;
  }

  /** The short name of the checked-out branch, or undefined on a detached HEAD. */
  async currentBranch(): Promise<string | undefined> {
    const r = await this.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { allowAllExitCodes: true });
    return r.exitCode === 0 ? r.stdout.trim() : undefined;
  }

  /** The full ref HEAD points at (refs/heads/x), or undefined when detached. */
  async headRef(): Promise<string | undefined> {
    const r = await this.run(['symbolic-ref', '--quiet', 'HEAD'], { allowAllExitCodes: true });
    return r.exitCode === 0 ? r.stdout.trim() : undefined;
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const r = await this.run(['merge-base', '--is-ancestor', ancestor, descendant], {
      allowAllExitCodes: true,
    });
    if (r.exitCode > 1) throw new Error(`git merge-base --is-ancestor failed: ${r.stderr.trim()}`);
    return r.exitCode === 0;
  }

  /** The remote's configured fetch URL as written in config (no insteadOf rewriting), or undefined. */
  async remoteUrl(remote: string): Promise<string | undefined> {
    const r = await this.run(['config', '--get', `remote.${remote}.url`], { allowAllExitCodes: true });
    return r.exitCode === 0 ? r.stdout.trim() : undefined;
  }

  async statusPorcelain(): Promise<StatusEntry[]> {
    const r = await this.run(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
    return parseStatusPorcelain(r.stdout);
  }

  /**
   * Where the repository keeps its objects and its shallow list (absolute paths) and its hash algorithm, in one
   * command: the fetch and the push borrow the object store from a repository of their own.
   */
  async objectStore(): Promise<{ objects: string; shallow: string; format: 'sha1' | 'sha256' }> {
    const out = await this.output([
      'rev-parse',
      '--show-object-format',
      '--path-format=absolute',
      '--git-path',
      'objects',
      '--git-path',
      'shallow',
    ]);
    const [format, objects, shallow] = out.split('\n');
    if (!objects || !shallow) throw new Error(`git rev-parse gave no object store in ${this.dir}`);
    return { objects, shallow, format: format === 'sha256' ? 'sha256' : 'sha1' };
  }

  /** The repository's hash algorithm ('sha1' or 'sha256'). */
  async objectFormat(): Promise<'sha1' | 'sha256'> {
    const r = await this.run(['rev-parse', '--show-object-format'], { allowAllExitCodes: true });
    return r.exitCode === 0 && r.stdout.trim() === 'sha256' ? 'sha256' : 'sha1';
  }
}

export interface StatusEntry {
  /** Index status (X): ' ', 'M', 'A', 'D', 'R', 'C', 'U', '?', '!' */
  index: string;
  /** Worktree status (Y) */
  worktree: string;
  path: string;
  /** For renames and copies: where it came from. */
  origPath?: string;
}

/**
 * Parses `git status --porcelain=v1 -z`. With -z, paths are never quoted and a rename or copy is followed by
 * its source path as a separate NUL-terminated field.
 */
export function parseStatusPorcelain(out: string): StatusEntry[] {
  const fields = out.split('\0');
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field === undefined || field === '') continue;
    if (field.length < 4 || field[2] !== ' ')
      throw new Error(`unexpected git status entry: ${JSON.stringify(field)}`);
    const entry: StatusEntry = { index: field[0] ?? ' ', worktree: field[1] ?? ' ', path: field.slice(3) };
    if ('RC'.includes(entry.index) || 'RC'.includes(entry.worktree)) {
      i++;
      const orig = fields[i];
      if (orig === undefined || orig === '') throw new Error('git status: rename without a source path');
      entry.origPath = orig;
    }
    entries.push(entry);
  }
  return entries;
}
