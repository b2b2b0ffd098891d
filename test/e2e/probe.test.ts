import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { probeCommand } from '../../src/cli/commands/probe.js';
import { PROBES } from '../../src/probe/index.js';
import { runProbe } from '../../src/probe/runner.js';
import { DEFAULT_PROBE_TIMEOUT_MS } from '../../src/probe/runner.js';
import type { Probe } from '../../src/probe/types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PINNED = join(ROOT, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');

function memoryIo() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (b: Buffer) => out.push(b.toString()));
  stderr.on('data', (b: Buffer) => err.push(b.toString()));
  return {
    io: { stdout, stderr, stdin: new PassThrough(), env: process.env, cwd: ROOT },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

// Every probe against the real pinned binary: this is the suite that keeps compat/gemini/compat.md honest.
describe.sequential('probe suite against the pinned gemini 0.42.0', () => {
  for (const probe of PROBES) {
    it(
      probe.name,
      async () => {
        let r = await runProbe(probe, { gemini: PINNED });
        // gemini 0.42.0 has been seen to hang once at a start under the suite's load (session-id-collision: no
        // output, killed at the deadline 28 s on, 2 s alone). A hang is asked once more and said; a behaviour that
        // drifted fails at once, and a second hang fails too.
        if (r.hung) {
          console.log(`${r.name}: gemini hung (${r.observed}); asked once more`);
          r = await runProbe(probe, { gemini: PINNED });
        }
        expect(r.pass, `${r.name}: expected ${r.expected}; observed ${r.observed}`).toBe(true);
      },
      2 * (probe.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS) + 20_000,
    );
  }
});

describe('gemini-run probe', () => {
  it('prints a drift table against the nearest checked profile and exits 1 for an unchecked version', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-cmd-'));
    try {
      const fake = join(dir, 'gemini');
      await writeFile(fake, '#!/bin/sh\necho 9.9.9\n');
      await chmod(fake, 0o755);
      const m = memoryIo();
      const code = await probeCommand.run(['--gemini', fake, '--only', 'version'], m.io);
      expect(code).toBe(1);
      expect(m.out()).toContain('gemini 9.9.9 vs the 0.61.0 profile (nearest checked)');
      expect(m.out()).toContain('| probe | behaviour | expected (0.61.0) | observed | result |');
      expect(m.out()).toContain(
        '| version | `gemini --version` prints the version on the last stdout line | 0.61.0 | 9.9.9 (exit 0) | **DRIFT** |',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('tells a gemini that hung (killed at the deadline) from a behaviour that drifted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-hang-'));
    try {
      const fake = join(dir, 'gemini');
      await writeFile(fake, '#!/bin/sh\nexec sleep 60\n');
      await chmod(fake, 0o755);
      const probe: Probe = {
        name: 'hangs',
        behaviour: 'a start that never ends',
        expected: 'exit 0',
        timeoutMs: 1500,
        async run(ctx) {
          const res = await ctx.headless(['--prompt=x']);
          return { observed: `exit ${res.exitCode}`, pass: res.exitCode === 0 };
        },
      };
      const r = await runProbe(probe, { gemini: fake, tmpRoot: dir });
      expect(r).toMatchObject({ pass: false, hung: true });
      expect(r.observed).toBe('exit 137 [gemini was still running at the deadline and was killed: it hung]');
      // A start that ends, however wrongly, is a behaviour and not a hang.
      await writeFile(fake, '#!/bin/sh\nexit 3\n');
      const drifted = await runProbe(probe, { gemini: fake, tmpRoot: dir });
      expect(drifted).toMatchObject({ pass: false, observed: 'exit 3' });
      expect(drifted.hung).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 0 with JSON results when the pinned binary passes', async () => {
    const m = memoryIo();
    const code = await probeCommand.run(['--gemini', PINNED, '--only', 'version', '--json'], m.io);
    expect(code).toBe(0);
    const parsed = JSON.parse(m.out()) as {
      version: string;
      profile: string;
      results: { name: string; pass: boolean }[];
    };
    expect(parsed.version).toBe('0.42.0');
    expect(parsed.profile).toBe('0.42.0');
    expect(parsed.results).toEqual([expect.objectContaining({ name: 'version', pass: true })]);
  });

  it('refuses unknown probes and conflicting flags as usage errors', async () => {
    await expect(probeCommand.run(['--only', 'no-such-probe'], memoryIo().io)).rejects.toThrow(
      /unknown probe/,
    );
    await expect(
      probeCommand.run(['--gemini', PINNED, '--version', '0.42.0'], memoryIo().io),
    ).rejects.toThrow(/--gemini does not go with --version/);
    await expect(probeCommand.run(['--gemini', '/nonexistent/gemini'], memoryIo().io)).rejects.toThrow(
      /does not run/,
    );
  });
});
