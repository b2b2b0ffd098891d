import { restoreCheckoutCredentials, type SavedCredentials } from '../git/credentials.js';
import { rebuildWorkspaceGit, workspaceSnapshotSchema, type WorkspaceSnapshot } from '../git/workspace.js';
import type { NestedRepoReport } from '../git/nested-repos.js';
import { neutralize } from '../util/untrusted-text.js';
import { getErrorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { z } from 'zod';
import type { Basics, Prepared } from './run-record.js';

/**
 * The workspace after the run: a `.git` the action made (src/git/workspace.ts) with the checkout's credential back,
 * so a later step's `git status` or `git push` works and runs nothing the agent planted. Never throws.
 */
export async function restoreWorkspace(o: {
  snapshot: WorkspaceSnapshot;
  vault: string;
  saved: SavedCredentials | undefined;
  log: Logger;
}): Promise<void> {
  let nested: NestedRepoReport;
  try {
    nested = await rebuildWorkspaceGit({ snapshot: o.snapshot, vault: o.vault });
    logNested(nested, o.log);
  } catch (e) {
    o.log.warning(
      `Could not rebuild the workspace's .git: ${getErrorMessage(e)}; the checkout's credential stays removed.`,
    );
    return;
  }
  if (o.saved) {
    // A nested checkout gets its credentials back only where the rebuild found it as the action left it.
    await restoreCheckoutCredentials(o.snapshot.worktree, o.saved, new Set(nested.kept)).catch((e: unknown) =>
      o.log.warning(`Could not restore the checkout's credentials: ${getErrorMessage(e)}`),
    );
  }
}

/**
 * Last, when nothing of the agent runs and nothing it wrote is read any more: the workspace gets the action's
 * .git back (the agent's is thrown away whole), and only then the checkout's credential.
 */
export async function restoreAfterRun(r: Basics & Prepared): Promise<void> {
  await restoreWorkspace({
    snapshot: r.workspace.snapshot,
    vault: r.workspace.vault.dir,
    saved: r.savedCredentials,
    log: r.log,
  });
  r.io.saveState('workspace', '');
  r.io.saveState('savedCredentials', '');
}

/** Paths named in one log line at most; the rest is counted. */
const SHOWN = 10;

function shown(paths: readonly string[]): string {
  const list = paths.slice(0, SHOWN).map((p) => neutralize(p, 200));
  return `${list.join(', ')}${paths.length > SHOWN ? ` and ${paths.length - SHOWN} more` : ''}`;
}

/** What the rebuild did with the repositories nested in the worktree, in the job log (the paths are the agent's). */
function logNested(report: NestedRepoReport, log: Logger): void {
  const { removed, removedPreexisting: before } = report;
  if (removed.length > 0) {
    const earlier =
      before.length > 0
        ? ` (${before.length} of them there before the run, since changed or with a config that runs commands: ${shown(before)})`
        : '';
    log.warning(
      `Removed ${removed.length} nested repositor${removed.length === 1 ? 'y' : 'ies'} left in the workspace, so that no later step's git runs their config: ${shown(removed)}${earlier}`,
    );
  }
  if (report.kept.length > 0) {
    log.info(
      `Kept ${report.kept.length} nested repositor${report.kept.length === 1 ? 'y' : 'ies'} that were there before the run, as they were: ${shown(report.kept)}`,
    );
  }
  if (report.trackedShapes.length > 0) {
    log.info(
      `Left ${report.trackedShapes.length} tracked directory(ies) shaped like a bare repository (a later step that runs git inside one uses its config): ${shown(report.trackedShapes)}`,
    );
  }
  if (report.problems.length > 0) {
    log.warning(`Could not check the whole workspace for nested repositories: ${shown(report.problems)}`);
  }
}

const workspaceStateSchema = z.object({ snapshot: workspaceSnapshotSchema, vault: z.string() });

/** The post step's half: the state the main step saved, or undefined when it is unreadable. */
export function parseWorkspaceState(raw: string): { snapshot: WorkspaceSnapshot; vault: string } | undefined {
  try {
    return workspaceStateSchema.parse(JSON.parse(raw));
  } catch {
    return undefined;
  }
}
