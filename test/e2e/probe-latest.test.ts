import { describe, expect, it } from 'vitest';
import { profileFor } from '../../src/gemini/cli-profile.js';
import { PROBES } from '../../src/probe/index.js';
import { DEFAULT_PROBE_TIMEOUT_MS, runProbe } from '../../src/probe/runner.js';
import { GEMINI_LATEST_BIN } from '../harness/gemini-launcher.js';

const PROFILE = profileFor('0.61.0', { allowUnchecked: false });

// The same suite against the second checked version: its known differences (quota exit 173, the 5 s telemetry
// batch, transcript snapshots) are its profile's expectations, so anything failing here is new drift.
describe.sequential('probe suite against gemini 0.61.0 (its own profile)', () => {
  for (const probe of PROBES) {
    it(
      probe.name,
      async () => {
        const r = await runProbe(probe, { gemini: GEMINI_LATEST_BIN, profile: PROFILE });
        expect(r.pass, `${r.name}: expected ${r.expected}; observed ${r.observed}`).toBe(true);
      },
      (probe.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS) + 20_000,
    );
  }
});
