/**
 * The import graph of src/, read with the TypeScript scanner (`preProcessFile`: static, re-exported and dynamic
 * imports, type-only ones included), and src/'s files parsed once for every check. Shared by the import-rule,
 * dead-code and function-size tests.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import type * as TS from 'typescript';

/**
 * Loaded with require: an ESM import of typescript.js (9 MB of CommonJS) first has Node's loader scan it for its
 * export names, 0.25 s more per worker.
 */
export const ts = createRequire(import.meta.url)('typescript') as typeof TS;
export type { TS };

export const SRC = resolve(import.meta.dirname, '../../src');

/**
 * Parsed src/ files by path, kept for the worker's life (the unit project shares modules between files): the
 * dead-code check reads src/ three times and the size check once more; parsing src/ is about 0.5 s each time.
 */
const parsed = new Map<string, TS.SourceFile>();

/** `text` (the file at `abs`) parsed, with parent links; a src/ file is parsed once while its text stays the same. */
export function parseSource(abs: string, text: string): TS.SourceFile {
  const known = parsed.get(abs);
  if (known?.text === text) return known;
  const sf = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true);
  if (abs.startsWith(SRC + '/')) parsed.set(abs, sf);
  return sf;
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

export interface ExportedName {
  name: string;
  /** Interfaces and type aliases: they vanish from the bundle, and may be exported as part of a signature. */
  typeOnly: boolean;
}

/** Top-level names a module exports (`export function f`, `export const a, b`, `export { x as y }`). */
export function exportedNames(abs: string, text: string): ExportedName[] {
  const sf = parseSource(abs, text);
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
  const sf = parseSource(abs, text);
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
