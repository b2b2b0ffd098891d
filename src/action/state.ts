import * as core from '@actions/core';

/** What the main step leaves for the post step (core.saveState / getState). */
const STATE = {
  runDir: 'runDir',
  sandbox: 'sandbox',
  worktree: 'worktree',
  savedCredentials: 'savedCredentials',
} as const;

export function saveState(key: keyof typeof STATE, value: string): void {
  core.saveState(STATE[key], value);
}

export function getState(key: keyof typeof STATE): string {
  return core.getState(STATE[key]);
}
