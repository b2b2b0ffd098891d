/**
 * The import graph of src/ and what the source checks need of each file (its imports, exports, the names it takes
 * from other modules, the length of every function), read with the TypeScript parser and scanner. Shared by the
 * import-rule, dead-code and function-size tests.
 *
 * Parsing the repository's ~500 files is most of the unit project's CPU (TypeScript's 9 MB module loaded in each
 * worker, then every file parsed), so a file's facts are kept on disk under node_modules/.cache, keyed by the
 * SHA-256 of this module's own text, the TypeScript version, the file's path and its text: a changed file, or a
 * changed analysis, is parsed again; TypeScript is loaded only when one is.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import type * as TS from 'typescript';
import { SOURCE_FACTS_CACHE, keep, readKept } from './disk-cache.js';

export const SRC = resolve(import.meta.dirname, '../../src');
const ROOT = resolve(SRC, '..');
const require = createRequire(import.meta.url);

let loadedTs: typeof TS | undefined;
/**
 * Loaded on the first cache miss, with require: an ESM import of typescript.js (9 MB of CommonJS) first has Node's
 * loader scan it for its export names, 0.25 s more per worker.
 */
function typescript(): typeof TS {
  return (loadedTs ??= require('typescript') as typeof TS);
}

const ANALYSIS = createHash('sha256')
  .update(readFileSync(import.meta.filename))
  .update((require('typescript/package.json') as { version: string }).version)
  .digest('hex');

export interface ExportedName {
  name: string;
  /** Interfaces and type aliases: they vanish from the bundle, and may be exported as part of a signature. */
  typeOnly: boolean;
}

/** What the source checks read of one file; plain data, so it can be kept on disk. */
interface Facts {
  /** Relative import specifiers as written (static, re-exported, dynamic and type-only imports). */
  specifiers: string[];
  exported: ExportedName[];
  /** Module path (absolute, `.ts`) → the names taken from it, `*` for all of them. */
  uses: [string, string[]][];
  /** Every function-like node with a body: its name (see functionName) and its length in lines. */
  functions: [string, number][];
}

function factsKey(abs: string, text: string): string {
  return createHash('sha256')
    .update(ANALYSIS)
    .update('\0')
    .update(abs)
    .update('\0')
    .update(text)
    .digest('hex');
}

/** The facts of `text` (the file at `abs`): from the disk cache for a file of the repository, else parsed. */
function factsOf(abs: string, text: string): Facts {
  if (!abs.startsWith(ROOT + '/')) return parseFacts(abs, text);
  const file = join(SOURCE_FACTS_CACHE, `${factsKey(abs, text)}.json`);
  const kept = readKept(file);
  if (kept) return JSON.parse(kept) as Facts;
  const facts = parseFacts(abs, text);
  keep(file, JSON.stringify(facts));
  return facts;
}

function parseFacts(abs: string, text: string): Facts {
  const ts = typescript();
  const sf = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true);
  return {
    specifiers: ts
      .preProcessFile(text, true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.')),
    exported: exportsOf(ts, sf),
    uses: [...usesOf(ts, sf, abs)].map(([k, v]) => [k, [...v]]),
    functions: functionsOf(ts, sf),
  };
}

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
    const imports = factsOf(abs, text)
      .specifiers.map((spec) => resolve(dirname(abs), spec.replace(/\.js$/, '.ts')))
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

/** Top-level names a module exports (`export function f`, `export const a, b`, `export { x as y }`). */
export function exportedNames(abs: string, text: string): ExportedName[] {
  return factsOf(abs, text).exported;
}

function exportsOf(ts: typeof TS, sf: TS.SourceFile): ExportedName[] {
  const names: ExportedName[] = [];
  const exported = (n: TS.Node): boolean =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st)) {
      if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements)
          names.push({ name: el.name.text, typeOnly: el.isTypeOnly });
      }
      continue;
    }
    if (!exported(st)) continue;
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.push({ name: d.name.text, typeOnly: false });
      }
    } else if (
      (ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st)) &&
      st.name
    ) {
      names.push({
        name: st.name.text,
        typeOnly: ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st),
      });
    }
  }
  return names;
}

/**
 * What one file takes from the modules it imports: `module path → names`, `*` for all of them (a namespace
 * import, `export *`, or a dynamic `import()` whose names are not read here). Relative specifiers only.
 */
export function importedNames(abs: string, text: string): Map<string, Set<string>> {
  return new Map(factsOf(abs, text).uses.map(([k, v]) => [k, new Set(v)]));
}

function usesOf(ts: typeof TS, sf: TS.SourceFile, abs: string): Map<string, Set<string>> {
  const uses = new Map<string, Set<string>>();
  const use = (spec: string, name: string): void => {
    if (!spec.startsWith('.')) return;
    const target = resolve(dirname(abs), spec.replace(/\.js$/, '.ts'));
    const set = uses.get(target) ?? new Set<string>();
    set.add(name);
    uses.set(target, set);
  };
  const visit = (n: TS.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const spec = n.moduleSpecifier.text;
      const clause = n.importClause;
      if (clause?.name) use(spec, 'default');
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) use(spec, '*');
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) use(spec, (el.propertyName ?? el.name).text);
      }
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      const spec = n.moduleSpecifier.text;
      if (!n.exportClause) use(spec, '*');
      else if (ts.isNamedExports(n.exportClause)) {
        for (const el of n.exportClause.elements) use(spec, (el.propertyName ?? el.name).text);
      }
    } else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    ) {
      use(n.arguments[0].text, '*');
    } else if (
      ts.isImportTypeNode(n) &&
      ts.isLiteralTypeNode(n.argument) &&
      ts.isStringLiteral(n.argument.literal)
    ) {
      use(n.argument.literal.text, n.qualifier && ts.isIdentifier(n.qualifier) ? n.qualifier.text : '*');
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return uses;
}

/** Every .ts file below these folders of the repository, as absolute paths. */
export function listRepoTs(...folders: string[]): string[] {
  return folders.flatMap((f) => listTs(resolve(SRC, '..', f)));
}

/**
 * Every function-like node of a source text longer than `max` lines, as `path: name` → lines (`path` as given). An
 * anonymous function is named after the named function around it (`outer/<anonymous>`), or its line without one.
 */
export function longFunctions(abs: string, path: string, text: string, max: number): Map<string, number> {
  return new Map(
    factsOf(abs, text)
      .functions.filter(([, lines]) => lines > max)
      .map(([name, lines]) => [`${path}: ${name}`, lines]),
  );
}

function functionsOf(ts: typeof TS, sf: TS.SourceFile): [string, number][] {
  const found: [string, number][] = [];
  const visit = (node: TS.Node, outer: string | undefined): void => {
    let name = outer;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const from = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const to = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const own = node.name?.getText(sf);
      name = own ?? (outer ? `${outer}/<anonymous>` : `<anonymous at line ${from + 1}>`);
      found.push([name, to - from + 1]);
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(sf, undefined);
  return found;
}
