import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, exportedNames, importedNames, listRepoTs } from '../harness/source-graph.js';

/** Files run as programs (the bundles' entries): nothing imports them. */
const ENTRY_POINTS = new Set(['action/index.ts', 'action/post.ts', 'cli/main.ts', 'proxy/main.ts']);

/**
 * Exports the checks below would flag that stay on purpose, each with its reason (`file: *` for a whole module).
 * Keep it short: an export no one uses is usually code to delete.
 */
const ALLOWED: Record<string, string> = {
  'gemini/settings.ts: unmergeSettings':
    "the undo of mergeSettings (its sidecar records what we own): no command calls it yet; wire it into 'logout' or delete it with the sidecar",
  'gemini/settings.ts: ownedPaths': 'reads the same sidecar as unmergeSettings; goes with it',
  'gemini/transcript-fold.ts: foldTranscript':
    'the text entry of the TranscriptFolder that foldTranscriptFile runs; tests feed it captured lines',
  'tmux/tmux.ts: tmuxServerAlive': "leak checks in tests ask with the driver's own tmux environment",
  'git/workspace.ts: unexpectedConfig':
    "the allow-list of what actions/checkout writes, table-tested without a repository (inspectWorkspace's core)",
  'util/log.ts: createMemoryLogger': 'the Logger the tests run the product with, kept beside the interface',
};

/** Which names of each src/ module the given files import (`*` = all of them). */
function importsBy(files: string[]): Map<string, Set<string>> {
  const users = new Map<string, Set<string>>();
  for (const abs of files) {
    for (const [target, names] of importedNames(abs, readFileSync(abs, 'utf8'))) {
      if (target === abs) continue;
      const set = users.get(target) ?? new Set<string>();
      for (const n of names) set.add(n);
      users.set(target, set);
    }
  }
  return users;
}

interface Finding {
  /** `file: name` */
  key: string;
  why: 'unused' | 'only-tests' | 'needless-export';
}

/**
 * Every export of src/ that the product does not need:
 * - `unused`: nothing anywhere imports it and its own module does not use it;
 * - `only-tests`: only tests import it and its own module does not use it (tests of code that never runs, the
 *   way the old provider abstraction was tested while the engine never called it);
 * - `needless-export`: a value nothing imports that its own module uses (drop the `export`). A type may stay
 *   exported this way: it is part of an exported signature.
 */
function findings(): Finding[] {
  const bySrc = importsBy(listRepoTs('src'));
  const byAll = importsBy(listRepoTs('src', 'test', 'scripts'));
  const out: Finding[] = [];
  for (const abs of listRepoTs('src')) {
    const path = relative(SRC, abs);
    if (ENTRY_POINTS.has(path)) continue;
    const inSrc = bySrc.get(abs) ?? new Set<string>();
    const anywhere = byAll.get(abs) ?? new Set<string>();
    if (inSrc.has('*')) continue;
    if (`${path}: *` in ALLOWED) continue;
    const text = readFileSync(abs, 'utf8');
    for (const { name, typeOnly } of exportedNames(abs, text)) {
      const key = `${path}: ${name}`;
      if (key in ALLOWED || inSrc.has(name)) continue;
      const usedInModule = (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1;
      if (!usedInModule)
        out.push({ key, why: anywhere.has(name) || anywhere.has('*') ? 'only-tests' : 'unused' });
      else if (!typeOnly && !anywhere.has(name) && !anywhere.has('*'))
        out.push({ key, why: 'needless-export' });
    }
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

describe('dead code in src/', () => {
  const found = findings();

  it('no export goes unused by the product', () => {
    expect(found.filter((f) => f.why !== 'needless-export').map((f) => `${f.key} (${f.why})`)).toEqual([]);
  });

  it('no value is exported that only its own module uses', () => {
    expect(found.filter((f) => f.why === 'needless-export').map((f) => f.key)).toEqual([]);
  });

  it('every allowed entry names an export that still exists', () => {
    for (const key of Object.keys(ALLOWED)) {
      const [path, name] = key.split(': ') as [string, string];
      const abs = `${SRC}/${path}`;
      const names = exportedNames(abs, readFileSync(abs, 'utf8')).map((e) => e.name);
      if (name === '*') expect(names.length, key).toBeGreaterThan(0);
      else expect(names, key).toContain(name);
    }
  });
});
