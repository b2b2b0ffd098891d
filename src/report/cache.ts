/**
 * Downloaded summaries kept on disk by artifact id, so a second report over the same runs downloads nothing new: an
 * artifact never changes once uploaded, so what it held (its run-summary.json's text, or that it has none) is
 * kept for good. One file per artifact, written whole and renamed into place, read back through a schema: the
 * directory is ours but a file in it is read as data.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** What an artifact held, as kept. */
export type Cached = { kind: 'summary'; text: string } | { kind: 'none' };

const entrySchema = z.union([
  z.object({ artifact: z.number(), runSummary: z.string().max(4 * 1024 * 1024) }),
  z.object({ artifact: z.number(), noRunSummary: z.literal(true) }),
]);

export interface SummaryCache {
  get(artifactId: number): Promise<Cached | undefined>;
  put(artifactId: number, entry: Cached): Promise<void>;
}

/** `$XDG_CACHE_HOME/gemini-run/report` (else `~/.cache/…`), one folder per API host and repository. */
export function defaultCacheDir(env: NodeJS.ProcessEnv, apiUrl: string, repo: string): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  const host = new URL(apiUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
  const [owner = '', name = ''] = repo.toLowerCase().split('/');
  return join(base, 'gemini-run', 'report', host, owner, name);
}

export function diskCache(dir: string): SummaryCache {
  const file = (id: number) => join(dir, `${id}.json`);
  let made: Promise<unknown> | undefined;
  return {
    async get(id) {
      const text = await readFile(file(id), 'utf8').catch(() => undefined);
      if (text === undefined) return undefined;
      let parsed: z.infer<typeof entrySchema> | undefined;
      try {
        parsed = entrySchema.parse(JSON.parse(text));
      } catch {
        return undefined; // A damaged entry is as good as none: the artifact is read again.
      }
      if (parsed.artifact !== id) return undefined;
      return 'runSummary' in parsed ? { kind: 'summary', text: parsed.runSummary } : { kind: 'none' };
    },
    async put(id, entry) {
      made ??= mkdir(dir, { recursive: true, mode: 0o700 });
      await made;
      const body =
        entry.kind === 'summary'
          ? { artifact: id, runSummary: entry.text }
          : { artifact: id, noRunSummary: true };
      const tmp = `${file(id)}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(body), { mode: 0o600 });
      await rename(tmp, file(id));
    },
  };
}
