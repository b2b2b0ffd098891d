/**
 * Every way a run can end, in one table. Each list and switch about statuses (the step's failure, the summary's
 * status line, the tracking comment's icon, the advice on the issue, what the next run's task says about an
 * interrupted one, the session record's schema) derives from it, so a status added here without its words does not
 * compile, and one that is not added here cannot be used.
 */

/** What the advice may depend on: where the work is and whether the model, not the task, was the cause. */
export interface AdviceContext {
  /** A pull request holds the agent's work (only then may the advice point at it). */
  hasPull: boolean;
  /** The agent committed something (kept on a branch or in the artifact, as the text above the advice says). */
  committed: boolean;
}

interface StatusSpec {
  /** Who decides it: the engine (how gemini's run ended), the action (around the run), or the post step. */
  origin: 'engine' | 'action' | 'post';
  /** The step fails with it (and the outputs say so: a failing status is never `finished`). */
  fails: boolean;
  icon: string;
  /** Its words in the run summary's heading. */
  words: string;
  /**
   * The run stopped in the middle of its work: how the next run's task tells the agent so (GEMINI.local.md). A
   * follow-up of such a run is told to look at `git log` and `git status` first.
   */
  interrupted?: string;
  /**
   * The model's own failures can be the cause: when every model call failed, the advice says "the model did not
   * answer" instead of this status's own.
   */
  modelCanCause?: boolean;
  /** What a person should do next (empty when nothing needs doing). */
  advice(c: AdviceContext): string;
}

const noAdvice = (): string => '';

/**
 * What failed, when a run ended on a failure that is not the agent's work: each part names itself and has its own
 * advice, so a GitHub that could not be reached is never told as the model's network, nor a read-only workspace
 * as a Gemini CLI that stopped (gemini never started).
 */
export const FAILED_PARTS = {
  github: {
    names: "GitHub's API",
    advice:
      "GitHub's API could not be reached or failed the request (the message names the address): check `GITHUB_API_URL` on a GitHub Enterprise Server, the runner's network and proxy to it, or githubstatus.com; then re-run.",
  },
  workspace: {
    names: "the runner's workspace",
    advice:
      "The runner's disk refused a write (read-only, full, or not the runner user's): check the free space of the workspace and `RUNNER_TEMP` and that the checkout belongs to the user the job runs as; then re-run.",
  },
  network: {
    names: 'the network',
    advice:
      "A service could not be reached from the runner (a network failure, not a refused credential; the message names the address): check the runner's network, proxy or firewall, then re-run.",
  },
  gemini: {
    names: 'the Gemini CLI',
    advice:
      'The Gemini CLI stopped unexpectedly; the last screen lines are in the job log. Re-run, and report it if it repeats.',
  },
  'gemini-run': {
    names: 'gemini-run itself',
    advice:
      'gemini-run stopped on an error of its own (the job log has the details with ACTIONS_STEP_DEBUG set): re-run, and report it with the log if it repeats.',
  },
} as const satisfies Record<string, { names: string; advice: string }>;
export type FailedPart = keyof typeof FAILED_PARTS;

export const STATUS = {
  finished: { origin: 'engine', fails: false, icon: '✅', words: 'finished', advice: noAdvice },
  'no-changes': {
    origin: 'action',
    fails: false,
    icon: '✅',
    words: 'finished without changes',
    advice: noAdvice,
  },
  'timed-out': {
    origin: 'engine',
    fails: true,
    icon: '⏱️',
    words: 'timed out',
    interrupted: 'was stopped at its time limit',
    modelCanCause: true,
    advice: ({ hasPull, committed }) =>
      hasPull
        ? 'The agent did not finish within `timeout-minutes`. Its partial work is in the draft pull request; raise the timeout or narrow the task and re-run.'
        : committed
          ? 'The agent did not finish within `timeout-minutes`; what it committed is kept, as said above. Raise the timeout or narrow the task and re-run.'
          : 'The agent did not finish within `timeout-minutes` and committed nothing; raise the timeout or narrow the task and re-run.',
  },
  crashed: {
    origin: 'engine',
    fails: true,
    icon: '💥',
    words: 'crashed',
    interrupted: 'ended when the Gemini CLI crashed',
    modelCanCause: true,
    advice: () => FAILED_PARTS.gemini.advice,
  },
  'quota-exhausted': {
    origin: 'engine',
    fails: true,
    icon: '🚫',
    words: 'quota exhausted',
    interrupted: 'ended when the model quota ran out',
    modelCanCause: true,
    advice: () =>
      'The Gemini quota of this account is used up. Wait for it to reset (see the message), use another model with the `model` input, or switch to an API key or Vertex AI; then re-run.',
  },
  'auth-failed': {
    origin: 'engine',
    fails: true,
    icon: '🔒',
    words: 'authentication failed',
    advice: () =>
      'Gemini refused the credentials. Refresh them (`gemini-run login` on the runner host, or update the `gemini-oauth-creds` / `gemini-api-key` secret); consumer Google accounts are refused by the server since 2026-06, so use an API key or Vertex AI.',
  },
  'budget-exceeded': {
    origin: 'engine',
    fails: true,
    icon: '💰',
    words: 'token budget exceeded',
    interrupted: 'was stopped at its token budget',
    advice: ({ hasPull }) =>
      hasPull
        ? 'The run spent more tokens than `max-tokens` allows and was stopped. Its partial work is in the draft pull request; raise the budget or narrow the task and re-run.'
        : 'The run spent more tokens than `max-tokens` allows and was stopped before it committed anything; raise the budget or narrow the task and re-run.',
  },
  // Named by the action from the engine's budget stop when the day's remainder, not `max-tokens`, was the run's
  // limit (one limit in the model proxy, phases/budget.ts), or before gemini starts when nothing is left.
  'daily-budget-exceeded': {
    origin: 'engine',
    fails: true,
    icon: '📅',
    words: 'daily token budget spent',
    interrupted: "was stopped when the repository's daily token budget ran out",
    advice: ({ hasPull }) =>
      `The repository's daily token budget (\`max-daily-tokens\`) is spent; it resets at midnight UTC.${hasPull ? ' The partial work is in the draft pull request.' : ''} Re-run after the reset, raise the cap, or set \`on-quota: defer\` so that a scheduled run continues after it.`,
  },
  'model-unavailable': {
    origin: 'engine',
    fails: true,
    icon: '🔌',
    words: 'model unavailable',
    interrupted: 'was stopped because the model API did not answer',
    advice: () =>
      "The model API did not answer (the message above names it and the error): nothing is wrong with the task. Check the upstream's URL (`GOOGLE_GEMINI_BASE_URL`, `GOOGLE_VERTEX_BASE_URL`, `CODE_ASSIST_ENDPOINT`), the runner's network and `HTTPS_PROXY`, or the service's status; then re-run.",
  },
  'publish-failed': {
    origin: 'action',
    fails: true,
    icon: '📦',
    words: 'finished, but not published',
    advice: () =>
      "Nothing of the agent's work is lost: it is where the text above says. Once the cause is fixed, re-run: the run branch only moves forward, so the next run continues from it.",
  },
  deferred: {
    origin: 'action',
    fails: false,
    icon: '⏸️',
    words: 'deferred until the quota resets',
    // What happens next (when, and how to cancel) is the deferral's own comment (deferral.ts).
    advice: noAdvice,
  },
  refused: { origin: 'action', fails: false, icon: '⛔', words: 'refused', advice: noAdvice },
  skipped: { origin: 'action', fails: false, icon: '⏭️', words: 'skipped', advice: noAdvice },
  misconfigured: {
    origin: 'action',
    fails: true,
    icon: '🔧',
    words: 'misconfigured',
    advice: () =>
      'The workflow or the runner is set up wrong, as said above: fix what it names (nothing was run), then re-run.',
  },
  stopped: {
    origin: 'post',
    fails: true,
    icon: '🛑',
    words: 'stopped before it finished',
    advice: () =>
      'The job was cancelled, or its main step stopped, before the run finished. What the agent did is not published; re-run the job to continue.',
  },
} as const satisfies Record<string, StatusSpec>;

type Table = typeof STATUS;
export type Status = keyof Table;
type Of<O extends StatusSpec['origin']> = { [K in Status]: Table[K]['origin'] extends O ? K : never }[Status];

/** How a run of the engine ended. */
export type EngineStatus = Of<'engine'>;
/** What the action's `status` output can say: the engine's statuses and the action's own. */
export type ActionStatus = Of<'engine' | 'action'>;
/** A status that stopped the agent in the middle of its work (a follow-up resumes it). */
export type InterruptedStatus = {
  [K in Status]: Table[K] extends { interrupted: string } ? K : never;
}[Status];

const STATUSES = Object.keys(STATUS) as Status[];
function withOrigin<S extends Status>(origins: readonly StatusSpec['origin'][]): readonly S[] {
  return STATUSES.filter((s) => origins.includes(STATUS[s].origin)) as S[];
}
export const ENGINE_STATUSES = withOrigin<EngineStatus>(['engine']) as readonly [
  EngineStatus,
  ...EngineStatus[],
];

export function failsStep(status: Status): boolean {
  return STATUS[status].fails;
}

/** A failing status of the engine's: "gemini ended <status>" is the step's failure (the action's say their own). */
export function isGeminiFailure(status: Status): boolean {
  return STATUS[status].fails && STATUS[status].origin === 'engine';
}

export function isInterrupted(status: string | undefined): status is InterruptedStatus {
  return status !== undefined && Object.hasOwn(STATUS, status) && 'interrupted' in STATUS[status as Status];
}

export function interruptedWords(status: InterruptedStatus): string {
  return STATUS[status].interrupted;
}

/** The status as a summary heading shows it: its icon and its words. */
export function statusLine(status: Status): string {
  return `${STATUS[status].icon} ${STATUS[status].words}`;
}

/** The icon of a status written by an older or newer run (a tracking state read back): a generic one if unknown. */
export function statusIcon(status: string): string {
  return Object.hasOwn(STATUS, status) ? STATUS[status as Status].icon : 'ℹ️';
}

const MODEL_DID_NOT_ANSWER =
  'The model did not answer: every call failed (overloaded or rate-limited; the last error is quoted above). Nothing is wrong with the task or the setup: re-run later, or choose another model with the `model` input.';

/**
 * What a person should do next. `modelUnavailable`: every model call failed (walls.modelUnavailable), so for the
 * statuses the model can cause, the model is named rather than the task or the setup.
 */
export function adviceFor(
  status: Status,
  o: Partial<AdviceContext> & { modelUnavailable?: boolean } = {},
): string {
  const c: AdviceContext = { hasPull: o.hasPull ?? true, committed: o.committed ?? false };
  const spec: StatusSpec = STATUS[status];
  if (o.modelUnavailable && spec.modelCanCause) {
    return `${MODEL_DID_NOT_ANSWER}${c.hasPull ? ' What the agent committed before is in the draft pull request.' : ''}`;
  }
  return spec.advice(c);
}
