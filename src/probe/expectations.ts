/**
 * What the probes expect of each checked gemini beyond what a run branches on (gemini/cli-profile.ts): nothing in a
 * run reads these. Evidence for every value: compat/gemini/compat.md "0.61.0 — row by row".
 */
import type { CheckedVersion, CliProfile } from '../gemini/cli-profile.js';

interface ProbeExpectations {
  /** How late a telemetry record can reach the outfile after its event (ms): the log batch delay. */
  telemetryLagMs: number;
  /** The exit code of a headless run that hit the daily quota. */
  quotaExitCode: number;
  /** A transcript `$set` may carry a full `messages` snapshot that replaces the history. */
  transcriptSnapshots: boolean;
  /** Tool results are also written as `user` records of functionResponse parts. */
  toolResultsAsUserRecords: boolean;
}

const PROBE_EXPECTATIONS: Record<CheckedVersion, ProbeExpectations> = {
  '0.42.0': {
    // OTEL_BLRP_SCHEDULE_DELAY=50 is honoured: probe telemetry-latency.
    telemetryLagMs: 50,
    quotaExitCode: 1,
    transcriptSnapshots: false,
    toolResultsAsUserRecords: false,
  },
  '0.61.0': {
    // The log batch is fixed at 5 s whatever OTEL_BLRP_SCHEDULE_DELAY says: probe telemetry-latency drifts.
    telemetryLagMs: 5000,
    quotaExitCode: 173,
    transcriptSnapshots: true,
    toolResultsAsUserRecords: true,
  },
};

/** What a probe checks a binary against: its profile's switches and the probes' own expectations of it. */
export type ProbeProfile = CliProfile & ProbeExpectations;

export function probeProfile(profile: CliProfile): ProbeProfile {
  return { ...profile, ...PROBE_EXPECTATIONS[profile.checked] };
}
