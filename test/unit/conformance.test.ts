/**
 * Invariants every registered provider must keep, whatever its mode. A new provider (or mode) is added to
 * `providers` and must pass this table unchanged.
 */
import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeAt } from '../../src/gemini/home.js';
import { providers, type KeyStep } from '../../src/gemini/provider.js';
import type { AuthConfig } from '../../src/domain/types.js';
import { exec } from '../../src/util/exec.js';

const SENTINEL = 'SENTINEL-TASK-TEXT-b7e1';
const GEMINI = resolve('node_modules/.bin/gemini');
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

let gitDir: string;
beforeAll(async () => {
  gitDir = await mkdtemp(join(tmpdir(), 'gr-conf-'));
  await exec('git', ['init', '-q', gitDir]);
});
afterAll(async () => {
  await rm(gitDir, { recursive: true, force: true });
});

const keyName = (s: KeyStep): string | undefined => ('key' in s ? s.key : undefined);

describe.each(providers.map((p) => [p.id, p] as const))('provider %s', (_id, provider) => {
  it('has non-empty model and effort catalogs with exactly one default each, resolvable', () => {
    expect(provider.models.length).toBeGreaterThan(0);
    expect(provider.efforts.length).toBeGreaterThan(0);
    expect(provider.models.filter((m) => m.default)).toHaveLength(1);
    expect(provider.efforts.filter((e) => e.default)).toHaveLength(1);
    for (const m of provider.models) expect(() => provider.resolveModel(m.id)).not.toThrow();
    expect(() => provider.resolveModel('no-such-model')).toThrow(/gemini-2\.5-pro/);
    for (const e of provider.efforts) expect(provider.resolveEffort(e.id)).toBe(e.id);
  });

  it('names its context file first among the context names, and a skills dir', () => {
    expect(provider.contextFileNames[0]).toBe(provider.contextFileName);
    expect(provider.skillsDir).toBe('.gemini/skills');
    expect(provider.seededPathPatterns).toContain(`/${provider.contextFileName}`);
  });

  it('scrub patterns compile in JS and in git ERE, match every positive sample and no negative', async () => {
    const positives = (await fs.readFile(provider.scrub.samples.positive, 'utf8'))
      .split('\n')
      .filter(Boolean);
    const negatives = (await fs.readFile(provider.scrub.samples.negative, 'utf8'))
      .split('\n')
      .filter(Boolean);
    expect(positives.length).toBeGreaterThan(0);
    expect(negatives.length).toBeGreaterThan(0);
    for (const p of provider.scrub.patterns) {
      expect(() => new RegExp(p, provider.scrub.flags)).not.toThrow();
      // git refuses a pattern its regcomp cannot compile (exit 128); an empty repo makes this cheap.
      const r = await exec('git', ['log', '--all', '-E', '-i', `--grep=${p}`], {
        cwd: gitDir,
        allowAllExitCodes: true,
      });
      expect(r.exitCode, `${p}: ${r.stderr}`).toBe(0);
    }
    const matches = (l: string) =>
      provider.scrub.patterns.some((p) => new RegExp(p, provider.scrub.flags).test(l));
    expect(positives.filter((l) => !matches(l))).toEqual([]);
    expect(negatives.filter(matches)).toEqual([]);
    for (const l of positives)
      expect(provider.scrub.scrub(`Subject\n\nBody\n\n${l}\n`)).toBe('Subject\n\nBody\n');
  });

  it.each(AUTHS.map((a) => [a.kind, a] as const))(
    '%s: argv never has the task, env never CI or a token',
    (_k, auth) => {
      const env = provider.buildEnv({
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
          const spec = provider.buildSpec({
            geminiPath: GEMINI,
            worktree: '/tmp/wt',
            approvalMode: 'yolo',
            model,
            resumeSessionId: resume,
            env,
            stdin: SENTINEL,
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

  it('has a turn signal for its mode, a transcript and an auth surface', () => {
    expect(provider.signals.kind).toBe(provider.mode === 'interactive' ? 'telemetry' : 'stream-json');
    expect(provider.mode === 'interactive').toBe(provider.keys !== undefined);
    for (const fn of [provider.transcript.locate, provider.transcript.fold, provider.transcript.restore]) {
      expect(typeof fn).toBe('function');
    }
    for (const kind of ['oauth', 'api-key', 'vertex-ai'] as const) {
      const owned = provider.auth.ownedSettings(kind);
      expect(owned['general.enableAutoUpdate']).toBe(false);
      expect(Object.keys(owned).some((k) => k.startsWith('general.sessionRetention'))).toBe(false);
    }
  });

  it('key recipes never contain C-c or two Escapes', () => {
    if (!provider.keys) {
      expect(provider.mode).toBe('headless');
      return;
    }
    const recipes = [provider.keys.reply(SENTINEL), provider.keys.interrupt, provider.keys.quit];
    for (const r of recipes) {
      const keys = r.map(keyName).filter(Boolean);
      expect(keys.some((k) => /^(C-c|\^C|Ctrl-?C)$/i.test(k!))).toBe(false);
      expect(keys.filter((k) => k === 'Escape').length).toBeLessThanOrEqual(1);
      expect(
        r.some((s) => 'literal' in s && (s.literal.includes('\u0003') || s.literal.includes('\u001b'))),
      ).toBe(false);
    }
    expect(provider.keys.interrupt).toEqual([{ key: 'Escape' }]);
    expect(provider.keys.reply('hi')[0]).toEqual({ literal: 'hi' });
    expect(provider.keys.reply('hi').at(-1)).toEqual({ key: 'Enter' });
    expect(provider.keys.quit[0]).toEqual({ literal: '/quit' });
    expect(provider.keys.quit.at(-1)).toEqual({ key: 'Enter' });
  });
});

it('registers both modes', () => {
  expect(providers.map((p) => p.id).sort()).toEqual(['gemini-headless', 'gemini-interactive']);
});
