/**
 * The import graph of src/, read with the TypeScript scanner (`preProcessFile`: static, re-exported and dynamic
 * imports, type-only ones included). Shared by the import-rule and dead-code tests.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const SRC = resolve(import.meta.dirname, '../../src');

export interface SourceFile {
  /** Path below src/, e.g. `run/engine.ts`. */
  path: string;
  text: string;
  /** The src/ files it imports (paths below src/); imports of packages and data files are left out. */
  imports: string[];
}

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return listTs(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

export function readSourceGraph(): Map<string, SourceFile> {
  const files = new Map<string, SourceFile>();
  for (const abs of listTs(SRC)) {
    const text = readFileSync(abs, 'utf8');
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(abs), spec.replace(/\.js$/, '.ts')))
      .filter((target) => target.startsWith(SRC + '/') && target.endsWith('.ts'))
      .map((target) => relative(SRC, target));
    files.set(relative(SRC, abs), { path: relative(SRC, abs), text, imports: [...new Set(imports)] });
  }
  return files;
}

/** The top folder of a path below src/ (`run/engine.ts` → `run`). */
export function folderOf(path: string): string {
  const i = path.indexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

/** Strongly connected components with more than one file (or a file importing itself): the import cycles. */
export function importCycles(graph: Map<string, SourceFile>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    const deps = graph.get(v)?.imports ?? [];
    for (const w of deps) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || deps.includes(v)) cycles.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}
