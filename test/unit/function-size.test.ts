import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 80;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every function-like node of a source text longer than `max` lines, as `name (lines)`. */
function longFunctions(path: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const from = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const to = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText(source) ?? `<anonymous at line ${from + 1}>`;
      if (to - from + 1 > max) found.push(`${path}: ${name} (${to - from + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function size', () => {
  it(`keeps every function in src/action under ${MAX_LINES} lines`, () => {
    const root = new URL('../../src/action', import.meta.url).pathname;
    const long = filesUnder(root).flatMap((f) =>
      longFunctions(f.slice(root.length - 'src/action'.length), readFileSync(f, 'utf8'), MAX_LINES),
    );
    expect(long).toEqual([]);
  });

  it('finds a long function (the check can fail)', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `function big() {\n${body}\n}\n`, MAX_LINES)).toEqual([
      `x.ts: big (${MAX_LINES + 2} lines)`,
    ]);
  });
});
