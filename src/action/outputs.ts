import * as core from '@actions/core';
import { failsStep } from '../domain/status.js';
import type { Usage } from '../domain/types.js';
import type { ServedTokens } from '../proxy/usage-meter.js';
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
  /** `created`, `updated` or `none`: what this run did to a pull request. */
  'pull-request-operation': PullRequestOperation;
  /** The commit the pushed branch points at (empty when nothing was pushed). */
  'head-sha': string;
  /** The agent's final answer, made publishable as the PR text is, at most FINAL_MESSAGE_BYTES. */
  'final-message': string;
  /** `success` or `failure`: exactly whether the step failed. */
  conclusion: 'success' | 'failure';
  /** JSON: tokens per model, turns, tool calls, wall time. */
  usage: string;
  /** `flow: review`: the review posted, or the one already there for the same head. */
  'review-id': string;
  /** `flow: review`: the inline comments the review posted. */
  'review-comments': string;
  /** `flow: triage`: the labels the run added, comma-separated. */
  'labels-applied': string;
}

export type PullRequestOperation = 'created' | 'updated' | 'none';

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
  'pull-request-operation',
  'head-sha',
  'final-message',
  'conclusion',
  'usage',
  'review-id',
  'review-comments',
  'labels-applied',
];

/** A step output is kept in the runner's file and copied into later steps' expressions: 64 KB is plenty. */
const FINAL_MESSAGE_BYTES = 64 * 1024;

/** `text` cut to at most `max` UTF-8 bytes, never inside a character, with a note when cut. Pure. */
export function capUtf8(text: string, max = FINAL_MESSAGE_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  const note = `\n\n… (cut: ${bytes.length} bytes, over the output's limit of ${max})`;
  let end = max - Buffer.byteLength(note, 'utf8');
  // Back up to the start of a character: continuation bytes are 10xxxxxx.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}${note}`;
}

/** The `usage` output: what a later step may budget or report on, without the summary's markdown. */
export function usageJson(usage: Usage | undefined, wallTimeMs: number, served?: ServedTokens): string {
  return JSON.stringify({
    models: (usage?.models ?? []).map((m) => ({
      model: m.model,
      requests: m.requests,
      inputTokens: m.inputTokens,
      outputTokens: m.outputTokens,
      cachedTokens: m.cachedTokens,
      totalTokens: m.totalTokens,
      ...(m.utility ? { utility: true } : {}),
    })),
    totalTokens: usage?.totalTokens ?? 0,
    // The model proxy's own count (every answer it forwarded, the agent's direct calls included).
    ...(served ? { servedTokens: served.tokens, refusedAtLimit: served.refusedAtLimit } : {}),
    turns: usage?.turns ?? 0,
    toolCalls: usage?.toolCalls ?? 0,
    wallTimeMs,
  });
}

export function conclusionOf(status: ActionStatus): ActionOutputs['conclusion'] {
  return failsStep(status) ? 'failure' : 'success';
}

/**
 * Sets every output: the ones not known are set empty so a later step can rely on them existing; `conclusion`
 * follows the status when not given (a failing status always fails the step).
 */
export function setOutputs(outputs: Partial<ActionOutputs> & { status: ActionStatus }): void {
  const full: Partial<ActionOutputs> = {
    'pull-request-operation': 'none',
    conclusion: conclusionOf(outputs.status),
    usage: usageJson(undefined, 0),
    ...outputs,
  };
  for (const name of OUTPUT_NAMES) core.setOutput(name, full[name] ?? '');
}
