/**
 * The triage agent's answer (`gemini-triage.json`) and what the action makes of it. Pure. The agent proposes; the
 * action adds only labels the repository has (GitHub would create any other name it is given), at most the
 * workflow's number, never removes one, and says on the issue what it did and what it left, and why.
 */
import { z } from 'zod';
import type { RepoLabel } from '../../github/issues.js';
import { block, codeSpan } from '../../markdown/publish.js';
import type { AnswerFile } from './answer-file.js';
import type { Speaker } from './review-text.js';

export const TRIAGE_FILE = 'gemini-triage.json';

export const TRIAGE_FILE_SHAPE = `{
  "labels": ["bug", "area: parser"],
  "comment": "Optional, in Markdown: a short note for the issue's author, e.g. what is missing to act on it."
}`;

const MAX_LABELS_READ = 50;
const MAX_COMMENT_CHARS = 4_000;

export const triageFileSchema = z.object({
  labels: z.array(z.string().max(100)).max(MAX_LABELS_READ).nullish(),
  comment: z
    .string()
    .nullish()
    .transform((c) => (c && c.length > MAX_COMMENT_CHARS ? `${c.slice(0, MAX_COMMENT_CHARS)}…` : (c ?? ''))),
});
export type TriageAnswer = z.infer<typeof triageFileSchema>;

export interface LabelPlan {
  /** To add, as the repository spells them. */
  add: string[];
  /** Already on the issue. */
  already: string[];
  /** Not a label of the repository: as the agent wrote them. */
  unknown: string[];
  /** Past `max`. */
  overLimit: string[];
}

/** Which of the labels the agent asked for are added, in its order. */
export function planLabels(
  wanted: readonly string[],
  repoLabels: readonly RepoLabel[],
  onIssue: readonly string[],
  max: number,
): LabelPlan {
  const byName = new Map(repoLabels.map((l) => [l.name.trim().toLowerCase(), l.name]));
  const on = new Set(onIssue.map((l) => l.toLowerCase()));
  const plan: LabelPlan = { add: [], already: [], unknown: [], overLimit: [] };
  const seen = new Set<string>();
  for (const raw of wanted) {
    const key = raw.trim().toLowerCase();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    const name = byName.get(key);
    if (name === undefined) plan.unknown.push(raw.trim());
    else if (on.has(key)) plan.already.push(name);
    else if (plan.add.length >= max) plan.overLimit.push(name);
    else plan.add.push(name);
  }
  return plan;
}

const list = (names: readonly string[], s: Speaker) => names.map((n) => codeSpan(s.scrubbed(n))).join(', ');

/** The comment on the issue: what was added, what was not and why, the agent's note; or what went wrong. */
export function triageComment(
  o: {
    answer: AnswerFile<TriageAnswer>;
    plan: LabelPlan | undefined;
    max: number;
    finalAnswer: string;
    ended?: string;
    runUrl: string;
  },
  s: Speaker,
): string {
  const out: string[] = [];
  if (o.answer.kind === 'problem' || !o.plan) {
    const why = [o.ended, o.answer.kind === 'problem' ? o.answer.what : undefined].filter(Boolean).join('; ');
    out.push(
      '### ⚠️ gemini-run could not complete its triage',
      '',
      `**What happened:** ${why}. No label was added.`,
      '',
      "**The agent's final answer:**",
      block(s.publishBlock(o.finalAnswer) || '_(no answer)_'),
    );
  } else {
    const p = o.plan;
    out.push('### 🏷️ gemini-run triage', '');
    out.push(p.add.length ? `Labels added: ${list(p.add, s)}.` : 'No label added.', '');
    if (p.already.length) out.push(`Already there: ${list(p.already, s)}.`, '');
    if (p.unknown.length) out.push(`Not labels of this repository (not applied): ${list(p.unknown, s)}.`, '');
    if (p.overLimit.length)
      out.push(
        `Over the limit of ${o.max} label(s) a triage adds (not applied): ${list(p.overLimit, s)}.`,
        '',
      );
    if (o.answer.value.comment.trim()) out.push(block(s.publishBlock(o.answer.value.comment)));
  }
  out.push(footer(o.runUrl));
  return s.publish(out.join('\n'));
}

const footer = (runUrl: string) =>
  `<sub>gemini-run · [run](${runUrl}) · labels are only ever added, never removed</sub>`;

/** Whether our triage comment `body` was written by the run at `runUrl` (its footer, which no agent text forges). */
export function triageCommentOfRun(body: string, runUrl: string): boolean {
  return body.trimEnd().endsWith(footer(runUrl));
}

/**
 * The triage's comment while the agent works: the person sees at once that the issue was picked up, and another
 * run (the sweep, the issue's own `issues: opened` run) finds it and leaves the issue.
 */
export function triageUnderWay(runUrl: string, s: Speaker): string {
  return s.publish(
    [
      '### 🏷️ gemini-run is triaging this issue',
      '',
      'What it adds, and why, will be said here.',
      footer(runUrl),
    ].join('\n'),
  );
}

/** The triage's comment when its run stopped with an error: the job's log says what happened. */
export function triageStopped(runUrl: string, s: Speaker): string {
  return s.publish(
    [
      '### ⚠️ gemini-run could not complete its triage',
      '',
      `**What happened:** the run stopped with an error; [the job's log](${runUrl}) says which.`,
      footer(runUrl),
    ].join('\n'),
  );
}
