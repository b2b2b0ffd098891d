import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

/** An Octokit call written out: `client.rest.issues.get(`, `.paginate(`, `.graphql(`, across line breaks too. */
const OCTOKIT_CALL = /\.rest\s*\.\s*\w+\s*\.\s*\w+|\.paginate\s*\(|\.graphql\s*[<(]/g;

/**
 * Files outside src/github that may call Octokit themselves, and why. Everything a run does on GitHub goes through
 * src/github (one place for its shapes, its errors and the fake's conformance).
 */
const ALLOWED: Record<string, string> = {
  'src/report/github-runs.ts':
    "`gemini-run report` reads a repository's history (workflows, their runs, the issues they name): endpoints no run calls, read once in the report's gather step",
  'src/report/artifact-summary.ts': "`gemini-run report` downloads the runs' artifacts, which no run reads",
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function octokitCalls(text: string): string[] {
  return [...text.matchAll(OCTOKIT_CALL)].map((m) => m[0].replace(/\s+/g, ''));
}

describe('GitHub calls', () => {
  it('are made in src/github only (the allow-list says why for each exception)', () => {
    const found = filesUnder(join(ROOT, 'src'))
      .map((f) => relative(ROOT, f))
      .filter((f) => !f.startsWith('src/github/') && !Object.hasOwn(ALLOWED, f))
      .flatMap((f) => octokitCalls(readFileSync(join(ROOT, f), 'utf8')).map((call) => `${f}: ${call}`));
    expect(found).toEqual([]);
  });

  it('finds a call written across lines (the check can fail)', () => {
    expect(octokitCalls('await client.rest.issues\n  .removeLabel({});\nclient.paginate(x)')).toEqual([
      '.rest.issues.removeLabel',
      '.paginate(',
    ]);
  });

  it('allows only files that exist and still call Octokit', () => {
    for (const f of Object.keys(ALLOWED)) {
      expect(octokitCalls(readFileSync(join(ROOT, f), 'utf8')).length, f).toBeGreaterThan(0);
    }
  });
});
