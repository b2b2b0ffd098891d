import { copyFile, writeFile } from 'node:fs/promises';
import { withTempDir } from '../util/fs.js';
import { dirname, join, resolve } from 'node:path';
import { Git, gitEnv } from './git.js';

export interface PushOptions {
  worktree: string;
  /** A remote name ('origin') or a URL. */
  remote: string;
  branch: string;
  /**
   * The URL to push to. Pass the one derived from trusted settings (GITHUB_SERVER_URL + repository): a remote
   * name is resolved through the worktree's config, which the agent could have edited.
   */
  url?: string;
  /** What to push (default HEAD of the worktree). */
  sha?: string;
  /** A GitHub token; given to git for this one command only, in its environment. */
  token?: string;
  /**
   * Force, but only over the value we expect the remote branch to have (`--force-with-lease`);
   * null = the branch must not exist yet.
   */
  force?: { expectedSha: string | null };
}

/**
 * Pushes a commit of the worktree to a branch.
 *
 * The push does not run in the worktree. The agent could write to its .git/config and hooks (an
 * `http.proxy`, a `url.*.insteadOf`, a pre-push hook, a credential helper that logs what it is given) and all
 * of them would see or redirect the token. So the push runs from an empty bare repository created for it,
 * which borrows the worktree's objects through `objects/info/alternates`, with the global config ignored
 * (the agent could have written that too) and the token only in this process's environment:
 * GIT_CONFIG_COUNT config is not written anywhere and, unlike `-c`, is not in argv (which `ps` shows everyone).
 */
export async function pushBranch(o: PushOptions): Promise<void> {
  const git = Git.forUntrusted(o.worktree);
  const sha = await git.revParse(o.sha ?? 'HEAD');
  const isUrl = looksLikeUrl(o.remote);
  const configured = o.url ?? (isUrl ? o.remote : await git.remoteUrl(o.remote));
  if (!configured) throw new Error(`git remote '${o.remote}' has no URL`);
  const url = absolutizeLocalPath(configured, o.worktree);

  const { objects, shallow, format } = await git.objectStore();

  await withTempDir('gemini-run-push-', async (dir) => {
    const clean = Git.create(dir, pushBaseEnv(process.env));
    await clean.run(['init', '--quiet', '--bare', `--object-format=${format}`, dir]);
    await writeFile(join(dir, 'objects', 'info', 'alternates'), `${objects}\n`);
    // A shallow checkout (actions/checkout's default depth 1) must stay shallow here, or the push walks into
    // parents that were never fetched.
    await copyFile(shallow, join(dir, 'shallow')).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    const args = ['push', '--quiet', '--no-verify', '--porcelain'];
    if (o.force) args.push(`--force-with-lease=refs/heads/${o.branch}:${o.force.expectedSha ?? ''}`);
    args.push(url, `${sha}:refs/heads/${o.branch}`);
    const r = await clean.run(args, {
      allowAllExitCodes: true,
      timeoutMs: 10 * 60_000,
      env: buildPushConfigEnv(url, o.token),
    });
    if (r.exitCode !== 0) {
      throw new PushRejectedError(
        o.branch,
        classifyPushFailure(r.stdout, r.stderr),
        describePushFailure(r.stdout, r.stderr, o.token),
      );
    }
  });
  // Keep the worktree's view of the remote branch current, so later ancestry checks see what we pushed.
  if (!isUrl) await git.tryRun(['update-ref', `refs/remotes/${o.remote}/${o.branch}`, sha]);
}

/**
 * Why a push was refused, as far as it matters for what happens next:
 * - `moved`: the remote branch is not where we expected (someone pushed; non-fast-forward, fetch first, stale lease);
 * - `workflows`: the token may not create or update `.github/workflows/*` (GitHub's pre-receive refusal);
 * - `other`: anything else (auth, network, a protected branch, another hook).
 */
export type PushFailureKind = 'moved' | 'workflows' | 'other';

export class PushRejectedError extends Error {
  override readonly name = 'PushRejectedError';
  constructor(
    readonly branch: string,
    readonly kind: PushFailureKind,
    /** git's answer in one line, without hints and secrets. */
    readonly detail: string,
  ) {
    super(`git push to branch '${branch}' failed: ${detail}`);
  }
}

/** Classifies git's answer to a failed push (porcelain stdout + stderr, LC_ALL=C). Pure. */
export function classifyPushFailure(stdout: string, stderr: string): PushFailureKind {
  const text = `${stdout}\n${stderr}`;
  if (/without [`']?workflows?[`']? (scope|permission)/i.test(text)) return 'workflows';
  if (/\[rejected\] \((non-fast-forward|fetch first|stale info)\)|\(stale info\)|\(fetch first\)/.test(text))
    return 'moved';
  return 'other';
}

/**
 * Every ref of a remote (`git ls-remote`: heads, tags with their peeled commits, `refs/pull/*`), asked from an
 * empty directory so no repository config the agent could have written takes part; the token travels as for a
 * push. A commit any of them reaches existed before the run: the scrub never rewrites it.
 */
export async function listRemoteRefs(o: { url: string; token?: string }): Promise<Map<string, string>> {
  return withTempDir('gemini-run-ls-remote-', async (dir) => {
    const clean = Git.create(dir, pushBaseEnv(process.env));
    const out = await clean.output(['ls-remote', o.url], {
      env: { ...buildPushConfigEnv(o.url, o.token), GIT_CEILING_DIRECTORIES: dirname(dir) },
      timeoutMs: 5 * 60_000,
    });
    return parseLsRemote(out);
  });
}

/** `<sha>\t<ref>` lines → ref → sha, for every ref (a peeled tag as `refs/tags/x^{}`). Pure. */
export function parseLsRemote(out: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const m = /^([0-9a-f]{40,64})\t(refs\/\S+)$/.exec(line.trim());
    if (m?.[1] && m[2]) refs.set(m[2], m[1]);
  }
  return refs;
}

/**
 * The environment of the push repository: the caller's without repository or trace variables (GIT_TRACE_CURL
 * would print headers) and with the global config ignored. The auth header is added for the push command only.
 */
export function pushBaseEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = gitEnv(base);
  for (const key of Object.keys(env))
    if (key.startsWith('GIT_TRACE') || key === 'GIT_CURL_VERBOSE') delete env[key];
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  return env;
}

/**
 * GIT_CONFIG_COUNT/KEY_n/VALUE_n entries for one push. The header is scoped to the push URL's origin, so a
 * rewritten URL (insteadOf) pointing elsewhere would not receive it; an empty value first clears any header
 * the system config adds for the same URL; credential helpers and hooks are switched off.
 */
export function buildPushConfigEnv(url: string, token?: string): Record<string, string> {
  const entries: [string, string][] = [
    ['core.hooksPath', '/dev/null'],
    ['credential.helper', ''],
  ];
  const origin = httpOrigin(url);
  if (token && origin) {
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    entries.push([`http.${origin}/.extraheader`, '']);
    entries.push([`http.${origin}/.extraheader`, `AUTHORIZATION: basic ${basic}`]);
  }
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** SCHEME://HOST[:PORT] of an http(s) URL, without any user info; undefined for other transports. */
export function httpOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return parsed.origin;
}

function looksLikeUrl(remote: string): boolean {
  return (
    remote.includes('://') || remote.startsWith('/') || remote.startsWith('.') || /^[^/]+@[^/]+:/.test(remote)
  );
}

/** The push runs in another directory, so a relative local path must become absolute first. */
function absolutizeLocalPath(url: string, worktree: string): string {
  if (url.includes('://')) return url;
  if (/^[^/]*:/.test(url)) return url; // scp-like ssh: host:path
  return resolve(worktree, url);
}

/**
 * One line from git's answer: the porcelain status of the rejected ref ("[rejected] (non-fast-forward)",
 * "[rejected] (stale info)") or else its error lines, without hints, and with the token and its base64 form
 * cut out should they ever appear.
 */
function describePushFailure(stdout: string, stderr: string, token?: string): string {
  const refLines = stdout
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.split('\t').slice(2).join(' ').trim());
  const errLines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('hint:') && !l.startsWith('To '));
  let text = [...refLines, ...errLines.filter((l) => !/^error: failed to push some refs/.test(l))]
    .slice(0, 3)
    .join(' | ');
  if (text === '') text = errLines.at(-1) ?? 'no output';
  if (token) {
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    text = text.split(token).join('***').split(basic).join('***');
  }
  return text;
}
