/**
 * A transcript saved from one home and worktree continues in another with the real gemini 0.42.0 (--resume in a
 * fresh home); the pure checks of fold, locate and restore are in test/unit/gemini-transcript.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldTranscriptFile } from '../../src/gemini/transcript-fold.js';
import { locateTranscript, restoreTranscript } from '../../src/gemini/transcript-locate.js';
import { exec } from '../../src/util/exec.js';
import { FakeGemini } from '../harness/fake-gemini.js';
import { GEMINI_BIN, headlessArgs, prepareGeminiEnv, type GeminiEnv } from '../harness/gemini-launcher.js';

describe('restoreTranscript with the real gemini 0.42.0 (--resume in a fresh home)', () => {
  let dir: string;
  let fake: FakeGemini | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gr-resume-'));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('a session saved from one home and worktree continues in another', async () => {
    fake = await FakeGemini.start({
      description: 'two headless turns',
      steps: [{ text: 'First answer: forty-two.' }, { text: 'Second answer: still forty-two.' }],
    });
    const sid = randomUUID();
    const run = async (
      name: string,
      args: string[],
    ): Promise<{ env: GeminiEnv; wt: string; code: number }> => {
      const env = await prepareGeminiEnv({ fakeUrl: fake!.url, runDir: path.join(dir, name) });
      const wt = path.join(dir, name, 'Work Tree');
      await mkdir(wt, { recursive: true });
      const r = await exec(GEMINI_BIN, [...args, '-m', 'gemini-2.5-flash'], {
        cwd: wt,
        env: env.env,
        input: '',
        allowAllExitCodes: true,
        timeoutMs: 60_000,
      });
      if (r.exitCode !== 0) throw new Error(`gemini exited ${r.exitCode}: ${r.stderr.slice(-500)}`);
      return { env, wt, code: r.exitCode };
    };
    const first = await run('a', headlessArgs({ prompt: 'What is the answer?', sessionId: sid }));
    const saved = await locateTranscript(first.env.home, first.wt, sid);
    expect(saved).toBeDefined();
    expect((await foldTranscriptFile(saved!)).finalAnswer).toBe('First answer: forty-two.');

    // A fresh home and a worktree at another path: only the restored file links the two runs.
    const envB = await prepareGeminiEnv({ fakeUrl: fake.url, runDir: path.join(dir, 'b') });
    const restored = await restoreTranscript(envB.home, path.join(dir, 'b', 'Work Tree'), saved!);
    await run('b', [
      '--prompt=And again?',
      '--output-format',
      'stream-json',
      '--skip-trust',
      '--approval-mode',
      'yolo',
      '--resume',
      sid,
    ]);

    const second = fake.modelRequests()[1]?.body;
    expect(JSON.stringify(second)).toContain('What is the answer?');
    expect(JSON.stringify(second)).toContain('First answer: forty-two.');
    expect(await locateTranscript(envB.home, path.join(dir, 'b', 'Work Tree'), sid)).toBe(restored);
    const folded = await foldTranscriptFile(restored);
    expect(folded.messages.map((m) => m.type)).toEqual(['user', 'gemini', 'user', 'gemini']);
    expect(folded.finalAnswer).toBe('Second answer: still forty-two.');
  });
});
