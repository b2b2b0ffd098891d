/**
 * Tests that run the action as another user (a hosted runner's `runner`, a plain user) need that user to reach
 * the project's dist/ and node_modules/, wherever the checkout lies (CI may clone below a 0700 directory such
 * as /root); so do the agent users they start. This gives them traverse-only ACL entries on the directories above `path` that others cannot
 * pass, and takes them back afterwards.
 */
import { lstat } from 'node:fs/promises';
import { ancestorsOf } from '../../src/isolation/access.js';
import { exec } from '../../src/util/exec.js';

/** `entries`: ACL qualifiers such as `u:1001` or `g:gemini-agents`. */
export async function letReach(entries: string[], path: string): Promise<() => Promise<void>> {
  const granted: string[] = [];
  for (const dir of [...ancestorsOf(path), path]) {
    const st = await lstat(dir);
    if ((st.mode & 0o001) !== 0) continue;
    await exec('setfacl', ['-m', entries.map((e) => `${e}:x`).join(','), dir]);
    granted.push(dir);
  }
  return async () => {
    for (const dir of granted)
      await exec('setfacl', ['-x', entries.join(','), dir], { allowAllExitCodes: true });
  };
}
