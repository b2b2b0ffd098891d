import { rmSync } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardProcessExit } from './process.js';

/** Whether something exists at path (any kind; a dangling link counts as absent). */
export function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * A temp directory for `fn`, removed after it — and if the process exits or is signalled first (a Ctrl-C in the
 * middle of a push must not leave its scratch repository in the temp dir).
 */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const release = guardProcessExit(() => rmSync(dir, { recursive: true, force: true }));
  try {
    return await fn(dir);
  } finally {
    release();
    await rm(dir, { recursive: true, force: true });
  }
}
