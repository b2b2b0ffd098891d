import { access } from 'node:fs/promises';

/** Whether something exists at path (any kind; a dangling link counts as absent). */
export function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
