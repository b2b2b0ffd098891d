/**
 * Invariants the code that runs gemini must keep in both modes, checked on that code itself: the spawn spec and
 * environment builders the engine calls, the settings it writes, the scrub it applies, and the keys the tmux
 * driver really sends (through a tmux that logs its argv).
 */
import { promises as fs } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthConfig, RunMode } from '../../src/domain/types.js';
import { ATTRIBUTION_FLAGS, ATTRIBUTION_PATTERNS, scrubAttribution } from '../../src/gemini/attribution.js';
import { CONTEXT_FILE_NAME, SKILLS_DIR } from '../../src/gemini/context-file.js';
import { homeAt } from '../../src/gemini/home.js';
import { MODEL_CATALOG, resolveModel } from '../../src/gemini/models.js';
import { CONTEXT_FILE_NAMES, OWNED_SETTINGS } from '../../src/gemini/settings.js';
import { buildEnv, buildHeadlessSpec, buildInteractiveSpec } from '../../src/gemini/spawn.js';
import { TmuxDriver } from '../../src/tmux/tmux.js';
import { exec } from '../../src/util/exec.js';

const SENTINEL = 'SENTINEL-TASK-TEXT-b7e1';
const GEMINI = resolve('node_modules/@google/gemini-cli/bundle/gemini.js');
const SOURCE_ENV: NodeJS.ProcessEnv = {
  PATH: '/usr/bin',
  HOME: '/home/runner',
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  GITHUB_TOKEN: 'ghs_tokenvalue',
  ACTIONS_RUNTIME_TOKEN: 'rt',
  ACTIONS_CACHE_URL: 'https://cache',
  INPUT_GITHUB_TOKEN: 'ghs_tokenvalue',
  'INPUT_GEMINI-OAUTH-CREDS': 'creds',
  RUNNER_TOKEN: 'rt2',
  TASK: SENTINEL,
};
const AUTHS: AuthConfig[] = [
  { kind: 'oauth', creds: { access_token: 'at', refresh_token: 'rt' }, project: 'p' },
  { kind: 'api-key', apiKey: 'AIzaKey' },
  { kind: 'vertex-ai', project: 'p', location: 'l' },
];
/** The spec builder the engine uses for each mode (run/headless.ts, run/interactive.ts). */
const SPEC_FOR: Record<RunMode, typeof buildInteractiveSpec> = {
  interactive: (o) => buildInteractiveSpec(o),
  headless: (o) => buildHeadlessSpec({ ...o, stdin: SENTINEL }),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gr-conf-'));
  await exec('git', ['init', '-q', join(dir, 'git')]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(['interactive', 'headless'] as const)('spawning gemini, %s', (mode) => {
  it.each(AUTHS.map((a) => [a.kind, a] as const))(
    '%s: argv never has the task, env never CI or a token',
    (_k, auth) => {
      const env = buildEnv({
        home: homeAt('/tmp/h'),
        auth,
        telemetryFile: '/tmp/t.json',
        tmpDir: '/tmp/x',
        sourceEnv: SOURCE_ENV,
      });
      for (const name of Object.keys(env))
        expect(name).not.toMatch(/^(CI|GITHUB_TOKEN|GITHUB_.*|ACTIONS_.*|INPUT_.*|RUNNER_.*)$/);
      expect(Object.values(env)).not.toContain('ghs_tokenvalue');
      expect(Object.values(env)).not.toContain(SENTINEL);
      for (const model of [undefined, 'gemini-2.5-pro']) {
        for (const resume of [undefined, 'prev-session']) {
          const spec = SPEC_FOR[mode]({
            geminiPath: GEMINI,
            worktree: '/tmp/wt',
            approvalMode: 'yolo',
            model,
            resumeSessionId: resume,
            env,
          });
          expect(spec.args.join('\u0000')).not.toContain(SENTINEL);
          expect(spec.command).not.toContain(SENTINEL);
          expect(spec.args).toContain('--skip-trust');
          for (const v of Object.values(spec.env)) expect(v).not.toContain(SENTINEL);
          expect(spec.env.CI).toBeUndefined();
        }
      }
    },
  );
});

describe('what the engine gives gemini', () => {
  it('a model catalog with exactly one default, every entry resolvable', () => {
    expect(MODEL_CATALOG.filter((m) => m.default)).toHaveLength(1);
    for (const m of MODEL_CATALOG) expect(() => resolveModel(m.id)).not.toThrow();
    expect(() => resolveModel('no-such-model')).toThrow(/gemini-2\.5-pro/);
  });

  it('names its context file first among the context names, and a skills dir', () => {
    expect(CONTEXT_FILE_NAMES[0]).toBe(CONTEXT_FILE_NAME);
    expect(SKILLS_DIR).toBe('.gemini/skills');
  });

  it('settings that turn auto-update off and keep sessions, for every auth kind', () => {
    for (const kind of ['oauth', 'api-key', 'vertex-ai'] as const) {
      const owned = OWNED_SETTINGS(kind);
      expect(owned['general.enableAutoUpdate']).toBe(false);
      expect(owned['general.enableAutoUpdateNotification']).toBe(false);
      expect(Object.keys(owned).some((k) => k.startsWith('general.sessionRetention'))).toBe(false);
    }
  });

  it('scrub patterns compile in JS and in git ERE, match every positive sample and no negative', async () => {
    const lines = async (f: string) =>
      (await fs.readFile(join('fixtures/attribution', f), 'utf8')).split('\n').filter(Boolean);
    const positives = await lines('positive.txt');
    const negatives = await lines('negative.txt');
    expect(positives.length).toBeGreaterThan(0);
    expect(negatives.length).toBeGreaterThan(0);
    for (const p of ATTRIBUTION_PATTERNS) {
      expect(() => new RegExp(p, ATTRIBUTION_FLAGS)).not.toThrow();
      // git refuses a pattern its regcomp cannot compile (exit 128); an empty repo makes this cheap.
      const r = await exec('git', ['log', '--all', '-E', '-i', `--grep=${p}`], {
        cwd: join(dir, 'git'),
        allowAllExitCodes: true,
      });
      expect(r.exitCode, `${p}: ${r.stderr}`).toBe(0);
    }
    const matches = (l: string) => ATTRIBUTION_PATTERNS.some((p) => new RegExp(p, ATTRIBUTION_FLAGS).test(l));
    expect(positives.filter((l) => !matches(l))).toEqual([]);
    expect(negatives.filter(matches)).toEqual([]);
    for (const l of positives)
      expect(scrubAttribution(`Subject\n\nBody\n\n${l}\n`)).toBe('Subject\n\nBody\n');
  });
});

describe('the keys the tmux driver sends', () => {
  it('text literally, a pause, then Enter; one Escape; never C-c', async () => {
    const log = join(dir, 'tmux.log');
    const wrapper = join(dir, 'tmux');
    await writeFile(wrapper, `#!/bin/sh\necho "$(date +%s%3N) $*" >> '${log}'\nexec tmux "$@"\n`);
    await chmod(wrapper, 0o755);
    const runDir = await mkdtemp(join(dir, 'run-'));
    const driver = await TmuxDriver.create({
      id: `conformance-${process.pid}`,
      runDir,
      tmuxPath: wrapper,
      pane: { command: 'cat', args: [], env: {}, cwd: runDir },
    });
    try {
      await driver.typeText('/quit');
      await driver.sendEscape();
    } finally {
      await driver.stop();
    }
    const sent = (await readFile(log, 'utf8'))
      .split('\n')
      .filter((l) => l.includes(' send-keys '))
      .map((l) => {
        const [at, ...argv] = l.split(' ');
        return { at: Number(at), keys: argv.slice(argv.indexOf('send-keys') + 3).join(' ') };
      });
    expect(sent.map((s) => s.keys)).toEqual(['-l -- /quit', 'Enter', 'Escape']);
    // The CLI drops an Enter that arrives with the text: the driver waits before pressing it.
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(250);
    expect(sent.some((s) => /C-c|\^C/i.test(s.keys))).toBe(false);
  });
});
