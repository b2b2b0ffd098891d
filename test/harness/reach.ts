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

/**
 * How many holders each (entries, directory) grant has, across test files (vitest runs them in separate processes,
 * and two of them may let the same runner user reach the same directories): the entry goes only with the last one.
 */
const HOLDERS = '/tmp/gemini-run-test-reach';

/** Run under the lock: bump the holder count of "$1 on $2" by $3; set the entries when it becomes 1, drop at 0. */
const COUNT_SCRIPT = [
  'set -e',
  'mkdir -p "$HOLDERS"',
  'f="$HOLDERS/$(printf "%s|%s" "$1" "$2" | md5sum | cut -c1-32)"',
  'n=$(cat "$f" 2>/dev/null || echo 0)',
  'n=$((n + $3))',
  'if [ "$n" -le 0 ]; then rm -f "$f"; setfacl -x "$4" "$2" || true; else echo "$n" > "$f"; fi',
  'if [ "$3" -gt 0 ]; then setfacl -m "$1" "$2"; fi',
].join('\n');

async function hold(acl: string, dir: string, delta: 1 | -1, remove: string): Promise<void> {
  await exec(
    'flock',
    ['-w', '60', SHARED_ACL_LOCK, 'sh', '-c', COUNT_SCRIPT, 'count', acl, dir, String(delta), remove],
    { allowAllExitCodes: delta < 0, env: { ...process.env, HOLDERS } },
  );
}

/** `entries`: ACL qualifiers such as `u:1001` or `g:gemini-agents`. */
export async function letReach(entries: string[], path: string): Promise<() => Promise<void>> {
  // As the product makes them: a sticky world-writable claims dir and a lock file only its maker can open.
  if ((await mkdir(CLAIMS_DIR, { recursive: true })) !== undefined) await chmod(CLAIMS_DIR, 0o1777);
  await (await open(SHARED_ACL_LOCK, 'a', 0o600)).close();
  const acl = entries.map((e) => `${e}:x`).join(',');
  const remove = entries.join(',');
  const granted: string[] = [];
  for (const dir of [...ancestorsOf(path), path]) {
    const st = await lstat(dir);
    if ((st.mode & 0o001) !== 0) continue;
    await hold(acl, dir, 1, remove);
    granted.push(dir);
  }
  return async () => {
    for (const dir of granted.splice(0)) await hold(acl, dir, -1, remove);
  };
}
