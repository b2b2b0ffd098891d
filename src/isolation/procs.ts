/**
 * The processes of one uid, read from /proc. The agent's uid is the boundary of a run: whatever it started —
 * a `setsid` daemon, a double fork, a process that left every group — still carries that uid, so "nothing
 * the agent started outlives the run" is checked by uid, not by process tree.
 */
import { readdir, readFile } from 'node:fs/promises';

/** Real and effective uid from a /proc/<pid>/status text (the `Uid:` line). Exported for tests. */
export function uidsOfStatus(status: string): number[] {
  const m = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
  if (!m) return [];
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Whether a /proc/<pid>/status text is of a zombie (dead; its parent just has not reaped it). */
export function isZombieStatus(status: string): boolean {
  return /^State:\s+[ZX]/m.test(status);
}

/** Live (non-zombie) pids whose real, effective or saved uid is `uid`. */
export async function pidsOfUid(uid: number): Promise<number[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const out: number[] = [];
  await Promise.all(
    names
      .filter((n) => /^\d+$/.test(n))
      .map(async (n) => {
        const status = await readFile(`/proc/${n}/status`, 'utf8').catch(() => '');
        if (status && !isZombieStatus(status) && uidsOfStatus(status).includes(uid)) out.push(Number(n));
      }),
  );
  return out.sort((a, b) => a - b);
}
