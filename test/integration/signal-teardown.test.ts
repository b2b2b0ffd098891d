/**
 * A signal in the middle of a change to the host (Ctrl-C on the demo, a cancelled job): what the change made is
 * undone, including the step in flight when the signal came and anything the run's code opened a moment after,
 * and the process ends by the signal. A real child process signalled the way a terminal or the runner does.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';

const SCRIPT = join(import.meta.dirname, '..', 'harness', 'signal-during-setup.ts');
const asRoot = process.getuid?.() === 0;
const dirs: string[] = [];

afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

function child(args: string[]): Promise<{ how: string; out: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    c.stdout.on('data', (b: Buffer) => (out += b.toString()));
    c.on('error', reject);
    c.on('close', (code, signal) => resolve({ how: signal ?? `exit ${code}`, out }));
  });
}

async function scratch(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'gemini-run-signal-'));
  dirs.push(d);
  return d;
}

describe('a signal during a change to the host', () => {
  it('stops the steps, waits for the one in flight, then undoes all of them', async () => {
    const dir = await scratch();
    const r = await child(['steps', dir]);
    expect(r.how, r.out).toBe('SIGINT');
    // The steps stopped at the signal (else the teardown would have waited for all ten).
    expect(r.out).toContain('made: stopped by SIGINT');
    // Undone alongside, the steps after the signal would have stayed (rule-4 … rule-10).
    expect(await readdir(dir)).toEqual([]);
  });

  it('tears down what the run guarded after the signal, while the earlier teardowns ran', async () => {
    const dir = await scratch();
    const r = await child(['late', dir]);
    expect(r.how, r.out).toBe('SIGINT');
    expect(r.out).toContain('claim guarded');
    expect(await readdir(dir)).toEqual([]);
  });

  it.skipIf(!asRoot)(
    'leaves no chain and no jump of the packet filter, whenever in its installation the signal comes',
    async () => {
      const uid = 61_000 + (process.pid % 1000);
      const rules = async () => {
        const out = (await exec('iptables', ['-S'])).stdout;
        return out.split('\n').filter((l) => l.includes(`GEMINI-RUN-${uid}-`));
      };
      const seen: string[] = [];
      for (const when of ['0', '10', '25', '50', '100', 'installed']) {
        const r = await child(['egress', String(uid), when]);
        seen.push(r.out.trim().split('\n')[0] ?? '');
        expect(r.how, `${when}: ${r.out}`).toBe('SIGINT');
        expect(await rules(), `${when}: ${r.out}`).toEqual([]);
      }
      // Both sides of the race were run: signalled during the installation (at once: before its first rule is
      // in), and once it was installed.
      expect(seen[0]).toBe('install: stopped by SIGINT');
      expect(seen.at(-1)).toBe('installed');
    },
  );
});
