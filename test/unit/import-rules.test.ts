import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderOf, importCycles, readSourceGraph, type SourceFile } from '../harness/source-graph.js';

/** The folder order written in CONTRIBUTING.md's Layout (`Layers: a · b → c → ...`), lowest layer first. */
function declaredLayers(): Map<string, number> {
  const doc = readFileSync(resolve(import.meta.dirname, '../../CONTRIBUTING.md'), 'utf8');
  const line = /^Layers: (.+)$/m.exec(doc)?.[1];
  if (!line) throw new Error("CONTRIBUTING.md has no 'Layers: ...' line");
  const layers = new Map<string, number>();
  line.split('→').forEach((layer, i) => {
    for (const folder of layer.split('·')) layers.set(folder.trim(), i);
  });
  return layers;
}

/** Imports that go sideways or up the declared order, as `from -> to` lines. */
function layerViolations(graph: Map<string, SourceFile>, layers: Map<string, number>): string[] {
  const bad: string[] = [];
  for (const file of graph.values()) {
    const from = folderOf(file.path);
    for (const target of file.imports) {
      const to = folderOf(target);
      if (to === from) continue;
      const a = layers.get(from);
      const b = layers.get(to);
      if (a === undefined || b === undefined || b >= a) bad.push(`${file.path} -> ${target}`);
    }
  }
  return bad;
}

describe('the import graph of src/', () => {
  const graph = readSourceGraph();
  const layers = declaredLayers();

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('imports only downward, in the folder order CONTRIBUTING.md declares', () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    expect([...folders].filter((f) => !layers.has(f)).sort()).toEqual([]);
    expect(layerViolations(graph, layers)).toEqual([]);
  });

  it('src/cli imports nothing from src/action: the two hosts share src/host instead', () => {
    const fromCli = [...graph.values()].filter((file) => folderOf(file.path) === 'cli');
    expect(fromCli.length).toBeGreaterThan(0);
    const intoAction = fromCli.flatMap((file) =>
      file.imports
        .filter((target) => folderOf(target) === 'action')
        .map((target) => `${file.path} -> ${target}`),
    );
    expect(intoAction).toEqual([]);
  });

  it('reports a cycle and an upward import when there is one', () => {
    const file = (path: string, imports: string[]): [string, SourceFile] => [
      path,
      { path, text: '', imports },
    ];
    const bent = new Map([
      file('run/engine.ts', ['run/headless.ts', 'util/log.ts']),
      file('run/headless.ts', ['run/engine.ts']),
      file('gemini/spawn.ts', ['run/headless.ts']),
      file('util/log.ts', []),
    ]);
    expect(importCycles(bent)).toEqual([['run/engine.ts', 'run/headless.ts']]);
    expect(layerViolations(bent, layers)).toEqual(['gemini/spawn.ts -> run/headless.ts']);
  });
});
