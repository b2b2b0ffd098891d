import * as core from '@actions/core';

/** What the main step leaves for the post step (core.saveState / getState). */
const STATE = {
  runDir: 'runDir',
  sandbox: 'sandbox',
  worktree: 'worktree',
  savedCredentials: 'savedCredentials',
  /** The snapshot of the workspace's .git and the vault, to rebuild it from ('' once the main step did). */
  workspace: 'workspace',
  /** The live tracking comment while the run works ('' once its last edit is done). */
  tracking: 'tracking',
  /** The agent's packet filter (network restricted/none) while installed ('' once the main step removed it). */
  egress: 'egress',
} as const;

export function saveState(key: keyof typeof STATE, value: string): void {
  core.saveState(STATE[key], value);
}

export function getState(key: keyof typeof STATE): string {
  return core.getState(STATE[key]);
}
