/**
 * The one seam between gemini-run and the Gemini CLI versions its probes have checked. Everything a run does
 * differently between 0.42.0 and 0.61.0 is a switch here, chosen from what the running binary prints for
 * `--version`; no other module compares version strings. What the probes alone expect of a version is theirs
 * (src/probe/expectations.ts). Evidence for every value: compat/gemini/compat.md "0.61.0 — row by row".
 */
import { UserError } from '../util/errors.js';
import { geminiVersionOf } from './install.js';

export const CHECKED_VERSIONS = ['0.42.0', '0.61.0'] as const;
export type CheckedVersion = (typeof CHECKED_VERSIONS)[number];

/**
 * The gemini the action and `gemini-run setup` install when asked for none, and the one the probes and the engine
 * assume. action.yml writes it as its 'gemini-version' default (test/unit/action-metadata.test.ts checks they agree).
 */
export const DEFAULT_GEMINI_VERSION: CheckedVersion = '0.42.0';

/** The checked versions in a sentence, "0.42.0 and 0.61.0": help texts name them from the table, not by hand. */
export function checkedVersionsInWords(conjunction: 'and' | 'or' = 'and'): string {
  const all: readonly string[] = CHECKED_VERSIONS;
  return all.length < 2 ? all.join('') : `${all.slice(0, -1).join(', ')} ${conjunction} ${all.at(-1)}`;
}

/** What a run branches on. */
export interface CliBehaviour {
  /** Fatal API errors exit with their HTTP status & 0xFF (a daily quota, HTTP 429, exits 173). */
  httpStatusExitCodes: boolean;
  /**
   * After an Escape cancels a request that followed a tool call, the TUI asks the model again by itself this
   * many times at most (0.61.0's auto-nudge; a tool call in the answer runs): the timeout must Escape each one.
   */
  nudgesAfterCancel: number;
}

export interface CliProfile extends CliBehaviour {
  /** What `gemini --version` printed. */
  version: string;
  /** The probed profile in use. */
  checked: CheckedVersion;
  /** The version was not probed; the workflow asked to try it anyway. */
  unchecked: boolean;
}

const BEHAVIOUR: Record<CheckedVersion, CliBehaviour> = {
  '0.42.0': {
    httpStatusExitCodes: false,
    nudgesAfterCancel: 0,
  },
  '0.61.0': {
    httpStatusExitCodes: true,
    // MAX_AUTO_NUDGE_ATTEMPTS = 2 in useGeminiStream: probe escape-after-tool-call.
    nudgesAfterCancel: 2,
  },
};

const VERSION_RE = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/;

function parts(v: string): [number, number, number] | undefined {
  const m = VERSION_RE.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function isCheckedVersion(v: string): v is CheckedVersion {
  return (CHECKED_VERSIONS as readonly string[]).includes(v);
}

/** The one-line refusal for a version the probes have not checked. */
export function uncheckedMessage(version: string): string {
  return `gemini ${version} has not been checked by gemini-run's probes (checked: ${CHECKED_VERSIONS.join(', ')}): use one of those, or set 'allow-unchecked-gemini-version: true' (CLI: --allow-unchecked-gemini-version) to try it anyway`;
}

/**
 * The profile of a version: a checked version gets its own; any other is refused unless allowUnchecked, and then
 * gets the newest checked profile not newer than it (a prerelease counts as its release), or the oldest one for
 * anything older than every checked version.
 */
export function profileFor(version: string, o: { allowUnchecked: boolean }): CliProfile {
  if (isCheckedVersion(version))
    return { ...BEHAVIOUR[version], version, checked: version, unchecked: false };
  if (!o.allowUnchecked) throw new UserError(uncheckedMessage(version));
  const v = parts(version);
  let chosen: CheckedVersion = CHECKED_VERSIONS[0];
  if (v) {
    for (const c of CHECKED_VERSIONS) if (compare(parts(c) as [number, number, number], v) <= 0) chosen = c;
  }
  return { ...BEHAVIOUR[chosen], version, checked: chosen, unchecked: true };
}

/** The profile of the binary at geminiPath, from its `--version`. */
export async function profileOfBinary(
  geminiPath: string,
  o: { allowUnchecked: boolean; env?: NodeJS.ProcessEnv },
): Promise<CliProfile> {
  const version = await geminiVersionOf(geminiPath, o.env);
  if (!version) throw new UserError(`The gemini at ${geminiPath} does not run ('--version' failed).`);
  return profileFor(version, o);
}

/** What the engine assumes when its caller names no profile (library callers, older tests). */
const DEFAULT_BEHAVIOUR: CliBehaviour = BEHAVIOUR[DEFAULT_GEMINI_VERSION];

const HTTP_STATUS_NAMES: Record<number, string> = {
  400: 'bad request',
  401: 'unauthenticated',
  403: 'permission denied',
  404: 'not found',
  429: 'quota exhausted',
  500: 'server error',
  503: 'unavailable',
};

/** The HTTP status a fatal exit code stands for on this CLI ("HTTP 429, quota exhausted"), if any. */
export function httpStatusOfExit(
  code: number | null,
  profile: Pick<CliBehaviour, 'httpStatusExitCodes'> = DEFAULT_BEHAVIOUR,
): string | undefined {
  if (code === null || !profile.httpStatusExitCodes) return undefined;
  for (const [status, name] of Object.entries(HTTP_STATUS_NAMES)) {
    if ((Number(status) & 0xff) === code) return `HTTP ${status}, ${name}`;
  }
  return undefined;
}

/**
 * How a pane's end reads. The wrapper shell reports a signal as 128+N, so on a CLI whose fatal errors exit with
 * `status & 0xFF` an HTTP status must be recognised before the code is read as a signal (173 is HTTP 429, not
 * signal 45).
 */
export function describeExit(
  pane: { exitCode: number | null; signal?: number },
  profile: Pick<CliBehaviour, 'httpStatusExitCodes'> = DEFAULT_BEHAVIOUR,
): string {
  const code = pane.exitCode;
  const http = httpStatusOfExit(code, profile);
  if (http) return `gemini exited with code ${code} (${http})`;
  if (code !== null && code > 128) return `gemini was killed by signal ${code - 128}`;
  if (code === null && pane.signal) return `gemini was killed by signal ${pane.signal}`;
  if (code === null) return 'gemini exited (exit code unknown)';
  return `gemini exited with code ${code}`;
}
