/**
 * The examples' job filters against the code: every event the action would run for, the workflow a user copies
 * must let through — a filter stricter than the code (`conclusion == 'failure'` where `timed_out` is fixed too)
 * silently drops runs. Each filter is evaluated as GitHub evaluates it (@actions/expressions, the library GitHub's
 * own workflow parser uses) on GitHub's recorded webhook payloads (@octokit/webhooks-examples), varied in the fields
 * a trigger decides on; the code's verdict is interpretEvent's, with the example's own `with:` inputs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { INPUT_DEFAULTS, parseInputs, type InputName } from '../../src/action/inputs.js';
import {
  interpretEvent,
  REVIEW_TRIGGERS,
  TRIAGE_TRIGGERS,
  TRIGGERS,
  type TriggerSettings,
} from '../../src/github/trigger.js';
import { webhookExamples } from '../harness/webhook-examples.js';

type Payload = Record<string, unknown>;
const exampleWorkflow = z.object({
  on: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())]),
  jobs: z.record(
    z.string(),
    z
      .object({
        if: z.string().optional(),
        steps: z
          .array(
            z
              .object({ uses: z.string().optional(), with: z.record(z.string(), z.unknown()).optional() })
              .loose(),
          )
          .optional(),
      })
      .loose(),
  ),
});

/** Every conclusion GitHub gives a workflow run or a check suite. */
const CONCLUSIONS = [
  'success',
  'failure',
  'neutral',
  'cancelled',
  'skipped',
  'timed_out',
  'action_required',
  'stale',
  'startup_failure',
];

/** GitHub's evaluation of an `if:` (a bare expression, as a job's `if` is written), with the `github` context. */
function admits(condition: string, github: Payload): boolean {
  const expression = condition.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const lexed = new Lexer(expression).lex();
  const tree = new Parser(lexed.tokens, ['github'], []).parse();
  const context = JSON.parse(JSON.stringify({ github }), data.reviver) as data.Dictionary;
  return truthy(new Evaluator(tree, context).evaluate());
}

/** GitHub's truthiness of an expression's value (its `truthy`, which the package does not export). */
function truthy(d: data.ExpressionData): boolean {
  if (d instanceof data.Null) return false;
  if (d instanceof data.BooleanData) return d.value;
  if (d instanceof data.NumberData) return d.value !== 0 && !Number.isNaN(d.value);
  if (d instanceof data.StringData) return d.value.length > 0;
  return true;
}

/** The example's gemini-run inputs as the trigger reads them. */
function settingsOf(withInputs: Record<string, unknown>): TriggerSettings {
  const raw = Object.fromEntries(
    Object.entries(withInputs)
      .filter(([k]) => k in INPUT_DEFAULTS)
      .map(([k, v]) => [k, String(v).includes('${{') ? '' : String(v)]),
  ) as Partial<Record<InputName, string>>;
  const i = parseInputs({ ...INPUT_DEFAULTS, ...raw });
  return {
    triggerLabel: i.triggerLabel,
    triggerPhrase: i.triggerPhrase,
    triggerAssignee: i.triggerAssignee,
    phraseAnywhere: i.triggerPhraseAnywhere,
    fixCi: i.fixCi,
    branchPrefix: i.branchPrefix,
    flow: i.flow,
  };
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** GitHub's recorded payloads of `event`, each varied in what a trigger decides on. */
function variants(event: string, s: TriggerSettings): Payload[] {
  const out: Payload[] = [];
  const set = (p: Payload, path: string[], value: unknown): Payload => {
    const copy = clone(p);
    let at = copy as Record<string, unknown>;
    for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
    at[path.at(-1)!] = value;
    return copy;
  };
  const texts = [
    `${s.triggerPhrase} fix it`,
    'hello',
    `see above. ${s.triggerPhrase} fix it`,
    `${s.triggerPhrase} review`,
    `${s.triggerPhrase} review the tests`,
    `${s.triggerPhrase} triage`,
  ];
  // A schedule is no webhook (GitHub records no example): its payload names the cron line.
  if (event === 'schedule') out.push({ schedule: '0 * * * *', repository: { full_name: 'octo/repo' } });
  for (const p of webhookExamples(event)) {
    const repo = (p.repository as { full_name: string }).full_name;
    const branches = [`${s.branchPrefix ?? 'gemini-run/'}issue-1`, 'main'];
    if (event === 'workflow_run') {
      for (const c of CONCLUSIONS)
        for (const b of branches) {
          let v = set(p, ['workflow_run', 'conclusion'], c);
          v = set(v, ['workflow_run', 'head_branch'], b);
          out.push(set(v, ['workflow_run', 'head_repository', 'full_name'], repo));
        }
    } else if (event === 'check_suite') {
      for (const c of CONCLUSIONS)
        for (const b of branches)
          for (const slug of ['circleci-checks', 'github-actions']) {
            let v = set(p, ['check_suite', 'conclusion'], c);
            v = set(v, ['check_suite', 'head_branch'], b);
            out.push(set(v, ['check_suite', 'app', 'slug'], slug));
          }
    } else if (event === 'issues') {
      for (const label of [s.triggerLabel, 'bug']) out.push(set(p, ['label', 'name'], label));
      for (const body of texts) out.push(set(p, ['issue', 'body'], body));
      for (const who of [s.triggerAssignee || 'someone', 'someone-else'])
        out.push(set(p, ['assignee', 'login'], who));
    } else if (event === 'issue_comment' || event === 'pull_request_review_comment') {
      for (const body of texts)
        out.push(set(set(p, ['comment', 'body'], body), ['comment', 'user', 'type'], 'User'));
    } else if (event === 'pull_request_review') {
      for (const body of texts) out.push(set(p, ['review', 'body'], body));
    } else {
      out.push(p);
    }
  }
  return out;
}

/** The events an example listens to, with the activity types it names (none: all). */
function eventsOf(on: z.infer<typeof exampleWorkflow>['on']): [string, string[] | undefined][] {
  if (typeof on === 'string') return [[on, undefined]];
  if (Array.isArray(on)) return on.map((e) => [e, undefined]);
  return Object.entries(on).map(([e, v]) => [e, (v as { types?: string[] } | null)?.types]);
}

/** Runs the code would start that the example's filter drops: `event/action: what varied`. */
function droppedRuns(yamlText: string): string[] {
  const wf = exampleWorkflow.parse(parse(yamlText));
  const dropped: string[] = [];
  for (const job of Object.values(wf.jobs)) {
    const step = job.steps?.find((st) => st.uses?.includes('/gemini-run@'));
    if (!step || !job.if) continue;
    const s = settingsOf(step.with ?? {});
    for (const [event, types] of eventsOf(wf.on)) {
      const table = { change: TRIGGERS, review: REVIEW_TRIGGERS, triage: TRIAGE_TRIGGERS }[
        s.flow ?? 'change'
      ];
      if (!(event in table)) continue;
      for (const p of variants(event, s)) {
        if (types && typeof p.action === 'string' && !types.includes(p.action)) continue;
        let run: boolean;
        try {
          run =
            // A sweep (the deferred runs', a triage's) is a run the filter must let through too.
            interpretEvent(event, p, { ...s, ...(event === 'workflow_dispatch' ? { prompt: 'x' } : {}) })
              .kind !== 'skip';
        } catch {
          continue;
        }
        const github = {
          event: p,
          event_name: event,
          repository: (p.repository as { full_name?: string } | undefined)?.full_name ?? '',
        };
        if (run && !admits(job.if, github)) {
          const decisive = JSON.stringify({
            action: p.action,
            conclusion:
              (p.workflow_run as Payload | undefined)?.conclusion ??
              (p.check_suite as Payload | undefined)?.conclusion,
          });
          dropped.push(`${event}: ${decisive}`);
        }
      }
    }
  }
  return [...new Set(dropped)];
}

const examples = readdirSync('examples')
  .filter((f) => f.endsWith('.yml'))
  .map((f) => `examples/${f}`);

describe("the examples' filters let through every run the code starts", () => {
  it.each(examples)('%s', (file) => {
    expect(droppedRuns(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('a filter stricter than the code is caught (the check can fail)', () => {
    const text = readFileSync('examples/ci-fix.yml', 'utf8');
    const strict = text.replace(`fromJSON('["failure", "timed_out"]')`, `fromJSON('["failure"]')`);
    expect(strict).not.toBe(text);
    expect(droppedRuns(strict)).toEqual(['workflow_run: {"action":"completed","conclusion":"timed_out"}']);
  });

  it('evaluates as GitHub does', () => {
    expect(admits("github.event.x == 'A'", { event: { x: 'a' } })).toBe(true);
    expect(admits("startsWith(github.event.b, '/gem')", { event: { b: '/gemini x' } })).toBe(true);
    expect(
      admits('contains(fromJSON(\'["failure","timed_out"]\'), github.event.c)', {
        event: { c: 'timed_out' },
      }),
    ).toBe(true);
  });
});
