/**
 * The engine's takeCommits phase: the agent's commits cross to the action's side as data (the bundle its user wrote,
 * read without following links and fetched into the vault with every object checked) and are listed there.
 * Without a vault (the toolkit on the operator's own repository) the agent ran as us, in our repository.
 */
import { join } from 'node:path';
import { filesChanged, listCommits } from '../../git/commits.js';
import { importBundle } from '../../git/vault.js';
import { AGENT_FILE_LIMITS, copyAgentFile } from '../../util/agent-file.js';
import { getErrorMessage } from '../../util/errors.js';
import { neutralize } from '../../util/untrusted-text.js';
import type { AtTake, Taken } from '../engine-record.js';
import { headSha } from './prepare-home.js';

/** The head the agent's work reached on our side, and the repository to list it in. */
async function headOnOurSide(r: AtTake): Promise<{ head: string; repo: string }> {
  const { opts, exported, baseSha, log } = r;
  if (!opts.vault) return { head: await headSha(opts.worktree), repo: opts.worktree };
  const repo = opts.vault.dir;
  if (exported.bundled) {
    try {
      const bundle = join(opts.runDir, 'agent.bundle');
      await copyAgentFile(r.bundleFile, bundle, r.agentFile(AGENT_FILE_LIMITS.bundle));
      return { head: await importBundle(opts.vault, bundle), repo };
    } catch (e) {
      log.error(`could not take the agent's commits: ${getErrorMessage(e)}`);
    }
  } else if (exported.head && exported.head !== baseSha) {
    log.error("the agent's commits could not be exported: they stay in the workspace only");
  }
  return { head: baseSha, repo };
}

export async function takeCommits(r: AtTake): Promise<Taken> {
  const { exported, baseSha, log } = r;
  if (exported.problem) log.warning(`committing and exporting the agent's work: ${exported.problem}`);
  if (exported.leftoverCommitted) log.info('committed the changes the agent left uncommitted');
  // Work that is in no commit is work the run did not keep: never an end that says it finished.
  const uncommitted = exported.commitFailed
    ? `the agent's uncommitted changes could not be committed (${neutralize(exported.commitFailed)})`
    : undefined;
  if (uncommitted) log.error(uncommitted);
  const { head, repo } = await headOnOurSide(r);
  const commits = head === baseSha ? [] : await listCommits(repo, baseSha, head);
  return {
    headSha: head,
    commits: commits.map((c) => ({ sha: c.sha, subject: c.subject })),
    filesChanged: head === baseSha ? [] : await filesChanged(repo, baseSha, head),
    ...(uncommitted !== undefined ? { uncommitted } : {}),
  };
}
