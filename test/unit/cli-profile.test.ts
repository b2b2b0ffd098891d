// The binaries' own --version is read in test/e2e/action-latest.test.ts (this project starts no process).
import { describe, expect, it } from 'vitest';
import { INPUT_DEFAULTS, parseInputs, type InputName } from '../../src/action/inputs.js';
import {
  checkedVersionsInWords,
  describeExit,
  profileFor,
  uncheckedMessage,
} from '../../src/gemini/cli-profile.js';
import { probeProfile } from '../../src/probe/expectations.js';
import { decideHeadlessEnd, decideWall } from '../../src/run/walls.js';

describe('profileFor', () => {
  it('gives each checked version its own profile', () => {
    const old = probeProfile(profileFor('0.42.0', { allowUnchecked: false }));
    const latest = probeProfile(profileFor('0.61.0', { allowUnchecked: false }));
    expect(old).toMatchObject({ checked: '0.42.0', unchecked: false, quotaExitCode: 1, telemetryLagMs: 50 });
    expect(latest).toMatchObject({
      checked: '0.61.0',
      unchecked: false,
      quotaExitCode: 173,
      httpStatusExitCodes: true,
      telemetryLagMs: 5000,
      transcriptSnapshots: true,
      toolResultsAsUserRecords: true,
    });
  });

  it('names the checked versions in words for help texts', () => {
    expect(checkedVersionsInWords()).toBe('0.42.0 and 0.61.0');
    expect(checkedVersionsInWords('or')).toBe('0.42.0 or 0.61.0');
  });

  it('refuses any other version with one line naming the checked ones and the way out', () => {
    for (const v of ['0.55.0', '0.41.9', '0.62.0', '0.61.0-nightly.1', '1.0.0']) {
      expect(() => profileFor(v, { allowUnchecked: false })).toThrow(uncheckedMessage(v));
    }
    expect(uncheckedMessage('0.55.0')).not.toContain('\n');
    expect(uncheckedMessage('0.55.0')).toMatch(/0\.42\.0, 0\.61\.0.*allow-unchecked-gemini-version: true/);
  });

  it('when allowed, uses the newest checked profile not newer than the version', () => {
    const pick = (v: string) => profileFor(v, { allowUnchecked: true });
    expect(pick('0.55.0')).toMatchObject({ version: '0.55.0', checked: '0.42.0', unchecked: true });
    expect(pick('0.62.3')).toMatchObject({ checked: '0.61.0', unchecked: true });
    expect(pick('0.61.0-nightly.1')).toMatchObject({ checked: '0.61.0', unchecked: true });
    expect(pick('0.30.0')).toMatchObject({ checked: '0.42.0', unchecked: true });
    expect(pick('weird')).toMatchObject({ checked: '0.42.0', unchecked: true });
  });
});

describe('exit codes', () => {
  const latest = profileFor('0.61.0', { allowUnchecked: false });
  it('reads 173 as HTTP 429 on 0.61.0, and as a signal only where the CLI does not exit with HTTP statuses', () => {
    expect(describeExit({ exitCode: 173 }, latest)).toBe(
      'gemini exited with code 173 (HTTP 429, quota exhausted)',
    );
    expect(describeExit({ exitCode: 137 }, latest)).toBe('gemini was killed by signal 9');
    expect(describeExit({ exitCode: 173 })).toBe('gemini was killed by signal 45');
  });

  it('reaches the walls: an interactive crash and a headless end on 0.61.0 name the HTTP status', () => {
    const d = decideWall({
      events: [],
      pane: { dead: true, exitCode: 173 },
      screen: [],
      elapsedMs: 1000,
      timeoutMs: 60_000,
      sessionRetries: 0,
      cli: latest,
    });
    expect(d).toMatchObject({ status: 'crashed', message: expect.stringContaining('code 173 (HTTP 429') });
    const h = decideHeadlessEnd({
      events: [],
      exitCode: 244,
      timedOut: false,
      streamTerminalQuota: false,
      stderr: '',
      sessionRetries: 0,
      cli: latest,
    });
    expect(h).toMatchObject({
      status: 'crashed',
      message: 'gemini exited with code 244 (HTTP 500, server error)',
    });
  });
});

describe('allow-unchecked-gemini-version input', () => {
  const base = { ...INPUT_DEFAULTS } as Record<InputName, string>;
  it('defaults to false and parses true', () => {
    expect(parseInputs(base).allowUncheckedGeminiVersion).toBe(false);
    expect(
      parseInputs({ ...base, 'allow-unchecked-gemini-version': 'true' }).allowUncheckedGeminiVersion,
    ).toBe(true);
    expect(() => parseInputs({ ...base, 'allow-unchecked-gemini-version': 'yes' })).toThrow(
      /'allow-unchecked-gemini-version' must be 'true' or 'false'/,
    );
  });
});
