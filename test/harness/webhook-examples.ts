/**
 * GitHub's recorded webhook payloads (@octokit/webhooks-examples), by event and action, for the tests that hold the
 * trigger table and the examples' workflow filters to what GitHub really sends.
 */
import { createRequire } from 'node:module';

export type WebhookPayload = Record<string, unknown> & { action?: string };

const definitions = createRequire(import.meta.url)(
  '@octokit/webhooks-examples/api.github.com/index.json',
) as {
  name: string;
  examples: WebhookPayload[];
}[];

/** The examples of `event` (of `action` only, when given). */
export function webhookExamples(event: string, action?: string): WebhookPayload[] {
  // pull_request_target delivers pull_request's payload (the examples have none of their own).
  const name = event === 'pull_request_target' ? 'pull_request' : event;
  const examples = definitions.find((d) => d.name === name)?.examples ?? [];
  return action === undefined ? examples : examples.filter((e) => e.action === action);
}
