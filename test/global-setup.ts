/**
 * Refuses to run the suite on a dist/ built from other sources: the end-to-end tests run dist/*.js as a runner
 * does, and a stale bundle would let them pass (or fail) for code that is not in src/. Also installs the Node 24 they
 * run it on (test/harness/node24.ts), and prunes the harness's disk caches (test/harness/disk-cache.ts).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pruneCaches } from './harness/disk-cache.js';
import { ensureNode24 } from './harness/node24.js';

export default async function setup(): Promise<void> {
  const root = resolve(import.meta.dirname, '..');
  const script = join(root, 'scripts', 'source-hash.mjs');
  const { sourceHash } = (await import(script)) as { sourceHash: (root: string) => string };
  let built = '';
  try {
    built = readFileSync(join(root, 'dist', 'source-hash.txt'), 'utf8').trim();
  } catch {
    // no dist/ yet: same answer as a stale one
  }
  if (built !== sourceHash(root)) {
    const message = "dist/ is not built from the current sources: run 'npm run build' first.";
    // Said here too: vitest (4.1) reports a global setup's error through its source maps, and this one came out as
    // 'TypeError: code.charCodeAt is not a function' instead.
    process.stderr.write(`\n${message}\n\n`);
    throw new Error(message);
  }
  // The end-to-end tests run dist/ on the Node that action.yml declares.
  ensureNode24(root);
  pruneCaches();
}
