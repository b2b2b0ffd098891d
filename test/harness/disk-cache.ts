/**
 * The test harness's answers kept between runs under node_modules/.cache (cmark-gfm's trees, the source checks'
 * facts): an entry is a file named by its key. A hit marks the entry used, and the global setup removes entries
 * unused for a fortnight, so the directories hold what the suite still asks, not every text it ever saw.
 */
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the caches live: node_modules/.cache, which a fresh clone lacks and `npm ci` leaves alone. */
const CACHE_ROOT = resolve(import.meta.dirname, '../../node_modules/.cache');
/** cmark-gfm's answers (cmark.ts), a directory per binary version and arguments. */
export const CMARK_CACHE = join(CACHE_ROOT, 'gemini-run-cmark');
/** The source checks' facts of each file (source-graph.ts). */
export const SOURCE_FACTS_CACHE = join(CACHE_ROOT, 'gemini-run-source-facts');

const UNUSED_FOR_MS = 14 * 24 * 3600 * 1000;

/** The kept text of `file`, marked used; undefined when there is none. */
export function readKept(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // removed a moment ago by a prune: the answer read is still right
  }
  return text;
}

/** Keeps `text` as `file`. Two workers may keep the same entry: each writes its own temp file and renames it. */
export function keep(file: string, text: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temp = `${file}.${process.pid}.${process.hrtime.bigint()}`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** When the caches were last pruned (its mtime). */
const PRUNED_STAMP = join(CACHE_ROOT, 'gemini-run-pruned');

/**
 * Removes the entries of every cache unused for 14 days; how many. Asked by each project's global setup, it scans
 * (about 40 ms for 4,000 entries) at most once a day.
 */
export function pruneCaches(now = Date.now()): number {
  try {
    if (now - statSync(PRUNED_STAMP).mtimeMs < 24 * 3600 * 1000) return 0;
  } catch {
    // never pruned here
  }
  const removed = pruneKept(CMARK_CACHE, now) + pruneKept(SOURCE_FACTS_CACHE, now);
  keep(PRUNED_STAMP, new Date(now).toISOString());
  return removed;
}

/** Removes the entries under `dir` (its files, and those one directory down) unused since `now - 14 days`. */
export function pruneKept(dir: string, now = Date.now()): number {
  let removed = 0;
  const visit = (d: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(d, name);
      try {
        const st = statSync(path);
        if (st.isDirectory()) {
          if (depth === 0) visit(path, 1);
        } else if (now - st.mtimeMs > UNUSED_FOR_MS) {
          rmSync(path, { force: true });
          removed++;
        }
      } catch {
        // another worker's temp file, renamed meanwhile
      }
    }
  };
  visit(dir, 0);
  return removed;
}
