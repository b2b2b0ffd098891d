import { restoreCheckoutCredentials, type SavedCredentials } from '../git/credentials.js';
import { rebuildWorkspaceGit, workspaceSnapshotSchema, type WorkspaceSnapshot } from '../git/workspace.js';
import { getErrorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { z } from 'zod';

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
  try {
    await rebuildWorkspaceGit({ snapshot: o.snapshot, vault: o.vault });
  } catch (e) {
    o.log.warning(
      `Could not rebuild the workspace's .git: ${getErrorMessage(e)}; the checkout's credential stays removed.`,
    );
    return;
  }
  if (o.saved) {
    await restoreCheckoutCredentials(o.snapshot.worktree, o.saved).catch((e: unknown) =>
      o.log.warning(`Could not restore the checkout's credentials: ${getErrorMessage(e)}`),
    );
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
