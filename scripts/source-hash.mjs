// The hash of everything dist/ is built from. build.mjs writes it to dist/source-hash.txt; the test suite's global
// setup recomputes it, so end-to-end tests (which run dist/ as a runner does) never pass on a stale bundle.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const INPUTS = ['src', 'package-lock.json', 'scripts/build.mjs', 'tsconfig.json'];

function files(root, path) {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((name) => files(root, join(path, name)));
}

/** @param {string} root the project directory */
export function sourceHash(root) {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((p) => files(root, p)).sort()) {
    hash.update(`${relative(root, join(root, file))}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}
