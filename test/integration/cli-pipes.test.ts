/**
 * The toolkit's output piped into a reader that stops early (`| head`): the command ends quietly, as if the rest
 * had been read — no EPIPE stack, no exit code of its own from the closed pipe.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { ACTION_NODE, ROOT } from '../harness/action-job.js';

/** `gemini-run <args> | head -1` under pipefail: the exit code is the command's, stderr is its own. */
async function pipedIntoHead(args: string): Promise<{ code: number; out: string; err: string }> {
  // The reader closes its end before the command has written (it starts in ~0.3 s): every write meets EPIPE.
  const script = `set -o pipefail; "$NODE" "$CLI" ${args} 2>"$ERR" | { exec 0<&-; true; }; echo "code=$?"; cat "$ERR"`;
  const r = await exec('bash', ['-c', script], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE: ACTION_NODE,
      CLI: join(ROOT, 'dist', 'cli.js'),
      ERR: `/tmp/gemini-run-pipes-${process.pid}.err`,
    },
    allowAllExitCodes: true,
  });
  const code = Number(/code=(\d+)/.exec(r.stdout)?.[1] ?? -1);
  return { code, out: r.stdout, err: r.stdout.replace(/^code=\d+\n/, '') };
}

describe('output into a closed pipe', () => {
  it('probe --list and a usage text end quietly with exit 0', async () => {
    for (const args of ['probe --list', 'run --help']) {
      const r = await pipedIntoHead(args);
      expect(r.err, args).not.toMatch(/EPIPE|^\s+at |Unhandled/m);
      expect(r.code, `${args}: ${r.err}`).toBe(0);
    }
  });

  it('doctor --wide keeps its own exit code and prints no stack', async () => {
    const r = await pipedIntoHead('doctor --wide');
    expect(r.err).not.toMatch(/EPIPE|^\s+at |Unhandled/m);
    // Whatever the host's checks say (0 or 1), never the crash's.
    expect([0, 1]).toContain(r.code);
  });
});
