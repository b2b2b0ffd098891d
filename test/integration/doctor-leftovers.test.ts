/**
 * What a killed run leaves (a run killed with SIGKILL gets no teardown), found by `gemini-run doctor` and removed
 * by `doctor --clean`: a stale claim, a packet-filter chain of a uid no run holds. Planted by hand here, on names
 * no run ever uses (pool user 99, uid 59999), so tests running at once on this host are never touched.
 */
import { writeFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { chainsIn } from '../../src/isolation/egress-filter.js';
import { ACTION_NODE, ROOT } from '../harness/action-job.js';

const CLAIMS = '/tmp/gemini-run-agent-claims';
const CLAIM = join(CLAIMS, 'gemini-agent-99.lock');
const CHAIN = 'GEMINI-RUN-59999-doctortest';

async function doctor(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await exec(ACTION_NODE, [join(ROOT, 'dist', 'cli.js'), 'doctor', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    allowAllExitCodes: true,
    timeoutMs: 60_000,
  });
  return { code: r.exitCode, out: r.stdout, err: r.stderr };
}

const chains = async () => chainsIn((await exec('iptables', ['-w', '10', '-S'])).stdout).map((c) => c.chain);

describe('gemini-run doctor and what killed runs left', () => {
  it.skipIf(process.getuid?.() !== 0)(
    'finds a stale claim and an orphan chain; --clean removes them',
    async () => {
      await mkdir(CLAIMS, { recursive: true, mode: 0o1777 });
      // A dead process's claim, and a chain (with its OUTPUT jump) for a uid no user has.
      await writeFile(CLAIM, '2147483646 1\n', { mode: 0o600 });
      await exec('iptables', ['-w', '10', '-N', CHAIN]);
      await exec('iptables', [
        '-w',
        '10',
        '-A',
        'OUTPUT',
        '-m',
        'owner',
        '--uid-owner',
        '59999',
        '-j',
        CHAIN,
      ]);
      try {
        const seen = await doctor(['--json']);
        const checks = (
          JSON.parse(seen.out) as { checks: { name: string; status: string; detail: string; fix?: string }[] }
        ).checks;
        const left = checks.find((c) => c.name === 'left by killed runs');
        expect(left?.status, seen.out).toBe('warn');
        expect(left?.detail).toContain(`stale claim ${CLAIM}`);
        expect(left?.detail).toContain(`packet filter chain ${CHAIN} (iptables, uid 59999)`);
        expect(left?.fix).toBe('gemini-run doctor --clean removes them');

        const cleaned = await doctor(['--clean']);
        expect(cleaned.out).toContain(`removed: stale claim ${CLAIM}`);
        expect(cleaned.out).toContain(`removed: packet filter chain ${CHAIN}`);
        expect(cleaned.err).not.toContain('still there');
        expect(await chains()).not.toContain(CHAIN);
        expect((await exec('iptables', ['-w', '10', '-S', 'OUTPUT'])).stdout).not.toContain(CHAIN);
        expect((await exec('test', ['-e', CLAIM], { allowAllExitCodes: true })).exitCode).not.toBe(0);
      } finally {
        await rm(CLAIM, { force: true });
        await exec(
          'iptables',
          ['-w', '10', '-D', 'OUTPUT', '-m', 'owner', '--uid-owner', '59999', '-j', CHAIN],
          {
            allowAllExitCodes: true,
          },
        );
        await exec('iptables', ['-w', '10', '-X', CHAIN], { allowAllExitCodes: true });
      }
    },
  );
});
