/**
 * Is the model API there at all? Pure logic over what the model proxy saw: the upstream URL before anything is
 * started (a configuration mistake, one line naming the variable), and during the run the proxy's own calls
 * (no answer at all, or a 5xx) since the last good answer. The CLI retries a failed call by itself for minutes
 * (0.42.0 `retryWithBackoff`: 10 attempts, 5 s doubling to 30 s, with jitter), so without this an unreachable
 * model is only known at the run's timeout.
 */

/**
 * The upstream URL's mistakes, in one line naming `variable`, or undefined when it is usable. `new URL` takes
 * `http://127.0.0.1:0` (port 0, which Node's http then silently replaces by 80) and refuses ports over 65535;
 * the URL itself is never quoted whole (it is the operator's text and could carry anything).
 */
export function checkUpstreamUrl(raw: string, variable: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${variable} is not a URL (a port must be 1-65535); set it to the model API's base URL, e.g. https://host:443`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `${variable} must be an http(s) URL, not ${url.protocol.slice(0, 20)}`;
  }
  if (!url.hostname) return `${variable} has no host name`;
  if (url.port === '0') {
    return `${variable} names port 0 (${url.hostname}:0): a port must be 1-65535; set the port the model API listens on`;
  }
  if (url.username || url.password || url.search || url.hash) {
    return `${variable} must not carry credentials, a query or a fragment`;
  }
  return undefined;
}

/** What the proxy saw of one model call it forwarded. */
export type CallOutcome =
  /** An HTTP answer: a status below 500 is the model being there (a 4xx is the caller's problem, or a quota). */
  | { kind: 'answer'; status: number; detail?: string }
  /** No answer at all: refused, reset, no DNS name, no route, a connect timeout. */
  | { kind: 'no-answer'; error: string };

/**
 * When the run is given up. The CLI's retries of one call come 5, ~10, ~20 s apart: three calls without an answer
 * over 10 s are one call and two of its retries (~15 s in), so an unreachable model ends a run within ~30 s. A
 * 5xx may be a moment's overload: four over 30 s (~35 s in, the CLI's fourth attempt) end it within ~60 s.
 */
export interface GiveUp {
  noAnswer: { calls: number; overMs: number };
  serverError: { calls: number; overMs: number };
}

export const GIVE_UP: GiveUp = {
  noAnswer: { calls: 3, overMs: 10_000 },
  serverError: { calls: 4, overMs: 30_000 },
};

/** How long a call may hear nothing from the upstream before the model counts as stopped: see silenceFor. */
const DEFAULT_SILENCE_MS = 5 * 60_000;

/**
 * The silence bound of a run: a quarter of its time, between 20 s and 5 min. A thinking model may take a minute
 * or two before its first byte, which a 30-minute run must allow; a 1-minute run cannot wait that long and still
 * say why it ended.
 */
export function silenceFor(timeoutMs: number): number {
  return Math.min(DEFAULT_SILENCE_MS, Math.max(20_000, Math.round(timeoutMs / 4)));
}

export type HealthNote =
  /** The first failure since the last good answer: a warning, not yet a wall. */
  | { kind: 'first-failure'; message: string }
  /** A 429: the model is there and asks to wait (the CLI retries a per-minute one by itself). */
  | { kind: 'quota-wait'; message: string }
  /** Enough failures over enough time: the run stops, `model-unavailable`. */
  | { kind: 'down'; message: string };

/**
 * Failures since the last good answer. `record` returns what is new: the first failure of a streak, or the
 * streak reaching GIVE_UP (once). `upstream` is shown as host[:port] in every message.
 */
export class UpstreamHealth {
  private streak: { since: number; calls: number; noAnswer: number; last: string } | undefined;
  private gaveUp = false;
  /** The calls in flight, by id: when each last heard from the upstream (its start, its headers, a body chunk). */
  private readonly open = new Map<number, number>();

  constructor(
    private readonly upstream: string,
    private readonly limits: GiveUp = GIVE_UP,
    /** A call that hears nothing from the upstream for this long is a model that stopped answering. */
    private readonly silenceMs: number = DEFAULT_SILENCE_MS,
  ) {}

  /** A call was sent upstream, or heard from it (headers, a body chunk): its silence starts again. */
  heard(call: number, now: number): void {
    this.open.set(call, now);
  }

  /** A call ended (answered whole, failed, or dropped by the agent): it cannot be silent any more. */
  ended(call: number): void {
    this.open.delete(call);
  }

  /**
   * Checked on a timer: a call that heard nothing for `silenceMs` gives the upstream up (once). The CLI waits on
   * such a call for ever (probe escape-after-tool-call: a hung request is only ended by an Escape), so without
   * this a model that stops answering mid-turn is only known at the run's timeout.
   */
  silence(now: number): HealthNote | undefined {
    if (this.gaveUp) return undefined;
    let quietest = 0;
    for (const last of this.open.values()) quietest = Math.max(quietest, now - last);
    if (quietest < this.silenceMs) return undefined;
    this.gaveUp = true;
    return {
      kind: 'down',
      message: `the model API at ${this.upstream} stopped answering: a call has heard nothing for ${Math.round(quietest / 1000)} s`,
    };
  }

  record(outcome: CallOutcome, now: number): HealthNote | undefined {
    if (outcome.kind === 'answer' && outcome.status < 500) {
      this.streak = undefined;
      if (outcome.status !== 429) return undefined;
      return {
        kind: 'quota-wait',
        message: `the model API asked to wait: HTTP 429 (${outcome.detail ?? 'quota'})`,
      };
    }
    const what =
      outcome.kind === 'answer'
        ? `HTTP ${outcome.status}${outcome.detail ? ` (${outcome.detail})` : ''}`
        : `no answer (${outcome.error.slice(0, 200)})`;
    const first = this.streak === undefined;
    const s = (this.streak ??= { since: now, calls: 0, noAnswer: 0, last: what });
    s.calls++;
    if (outcome.kind === 'no-answer') s.noAnswer++;
    s.last = what;
    if (first) {
      return { kind: 'first-failure', message: `the model API at ${this.upstream} failed a call: ${what}` };
    }
    const span = now - s.since;
    const { noAnswer, serverError } = this.limits;
    const down =
      (s.noAnswer >= noAnswer.calls && span >= noAnswer.overMs) ||
      (s.calls >= serverError.calls && span >= serverError.overMs);
    if (!down || this.gaveUp) return undefined;
    this.gaveUp = true;
    return {
      kind: 'down',
      message: `the model API at ${this.upstream} is unavailable: ${s.calls} call(s) in ${Math.round(span / 1000)} s failed and none was answered; the last: ${what}`,
    };
  }
}
