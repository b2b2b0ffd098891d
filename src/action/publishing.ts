/**
 * The rules every text the action writes on GitHub follows, in one place: secrets redacted, attribution scrubbed
 * (`scrub-attribution`), and the last check of markdown/publish.ts (no mention, foreign reference or closing
 * keyword, no outside link or image, only the action's own HTML). Admission, the misconfigured report and the
 * deferred-run sweep publish through it.
 */
import { scrubAttribution } from '../gemini/attribution.js';
import { publishedBlock, publishedDocument, type PublishContext } from '../markdown/publish.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { Redactor } from './redact.js';

export interface Publisher {
  /** A body the action assembled, made publishable (secrets, attribution, the last check of markdown/publish.ts). */
  publish(text: string): string;
  /** Markdown the action did not write (the agent's answer, an issue's text) as a block of its own, nothing live. */
  publishBlock(text: string): string;
  /** Where the run publishes: its repository and issue, what a published text may link. */
  publishOn: PublishContext;
  /** Attribution scrubbed (when asked) and secrets redacted, no markup rules: for plain-text fields. */
  scrubbed(text: string): string;
}

/** How the run publishes on its repository, on `ownIssue` (the issue or pull request it is about) when it has one. */
export function publisherFor(
  r: {
    inputs: Pick<ActionInputs, 'scrubAttribution'>;
    ctx: Pick<ActionContext, 'serverUrl' | 'repo'>;
    redactor: Redactor;
  },
  ownIssue: number | undefined,
): Publisher {
  const { inputs, ctx, redactor } = r;
  const scrubbed = (text: string) => redactor.redact(inputs.scrubAttribution ? scrubAttribution(text) : text);
  const on: PublishContext = {
    serverUrl: ctx.serverUrl,
    owner: ctx.repo.owner,
    repo: ctx.repo.repo,
    ...(ownIssue !== undefined ? { ownIssue } : {}),
  };
  return {
    scrubbed,
    publishOn: on,
    publish: (text) => publishedDocument(scrubbed(text), on),
    publishBlock: (text) => publishedBlock(scrubbed(text), on),
  };
}
