/**
 * Tests that run the action as another user (a hosted runner's `runner`, a plain user) need that user to reach
 * the project's dist/ and node_modules/, wherever the checkout lies (CI may clone below a 0700 directory such
 * as /root); so do the agent users they start. This gives them traverse-only ACL entries on the directories above `path` that others cannot
 * pass, and takes them back afterwards, under the product's lock for such shared edits (setfacl rewrites the whole
 * ACL: unlocked, an edit here could drop an entry a concurrent run just gave its agent).
 */
import { chmod, lstat, mkdir, open } from 'node:fs/promises';
import { ancestorsOf } from '../../src/isolation/access.js';
import { CLAIMS_DIR, SHARED_ACL_LOCK } from '../../src/isolation/agent-user.js';
import { exec } from '../../src/util/exec.js';

/** `entries`: ACL qualifiers such as `u:1001` or `g:gemini-agents`. */
export async function letReach(entries: string[], path: string): Promise<() => Promise<void>> {
  // As the product makes them: a sticky world-writable claims dir and a lock file only its maker can open.
  if ((await mkdir(CLAIMS_DIR, { recursive: true })) !== undefined) await chmod(CLAIMS_DIR, 0o1777);
  await (await open(SHARED_ACL_LOCK, 'a', 0o600)).close();
  const granted: string[] = [];
  for (const dir of [...ancestorsOf(path), path]) {
    const st = await lstat(dir);
    if ((st.mode & 0o001) !== 0) continue;
    await exec('flock', [
      '-w',
      '60',
      SHARED_ACL_LOCK,
      'setfacl',
      '-m',
      entries.map((e) => `${e}:x`).join(','),
      dir,
    ]);
    granted.push(dir);
  }
  return async () => {
    for (const dir of granted)
      await exec('flock', ['-w', '60', SHARED_ACL_LOCK, 'setfacl', '-x', entries.join(','), dir], {
        allowAllExitCodes: true,
      });
  };
}
