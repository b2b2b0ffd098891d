import * as core from '@actions/core';
import type { ActionStatus } from '../run/types.js';

/** The action's outputs; names fixed by the contract (DESIGN.md). */
export interface ActionOutputs {
  status: ActionStatus;
  'session-id': string;
  branch: string;
  'pr-number': string;
  'pr-url': string;
  'commit-count': string;
  'transcript-path': string;
  'summary-path': string;
  models: string;
  'total-tokens': string;
}

export const OUTPUT_NAMES: readonly (keyof ActionOutputs)[] = [
  'status',
  'session-id',
  'branch',
  'pr-number',
  'pr-url',
  'commit-count',
  'transcript-path',
  'summary-path',
  'models',
  'total-tokens',
];

/** Sets every output: the ones not known are set empty so a later step can rely on them existing. */
export function setOutputs(outputs: Partial<ActionOutputs> & { status: ActionStatus }): void {
  for (const name of OUTPUT_NAMES) core.setOutput(name, outputs[name] ?? '');
}
