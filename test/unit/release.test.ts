/**
 * One version everywhere: package.json, the CLI's --version, the newest CHANGELOG.md entry (Keep a Changelog), and
 * a release workflow that runs the checks the release needs, in order, through scripts/release.mjs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { VERSION } from '../../src/cli/version.js';

const pkg = z.object({ version: z.string() }).parse(JSON.parse(readFileSync('package.json', 'utf8')));
const changelog = readFileSync('CHANGELOG.md', 'utf8');

describe('the release', () => {
  it("the CLI's version is package.json's, and the changelog's newest entry is it, dated", () => {
    expect(VERSION).toBe(pkg.version);
    const entries = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(entries[0]).toEqual(['Unreleased', undefined]);
    expect(entries[1]?.[0]).toBe(pkg.version);
    expect(entries[1]?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(changelog).toContain('[Keep a Changelog](https://keepachangelog.com/');
  });

  it('the workflow runs on vX.Y.Z tags: checks, a fresh dist/, the tests, then the release and the major tag', () => {
    const wf = z
      .object({
        on: z.object({ push: z.object({ tags: z.array(z.string()) }) }),
        jobs: z.record(
          z.string(),
          z
            .object({
              needs: z.string().optional(),
              permissions: z.record(z.string(), z.string()),
              steps: z.array(z.object({ run: z.string().optional(), uses: z.string().optional() }).loose()),
            })
            .loose(),
        ),
      })
      .parse(parse(readFileSync('.github/workflows/release.yml', 'utf8')));
    expect(wf.on.push.tags).toEqual(['v[0-9]+.[0-9]+.[0-9]+']);
    const runs = (job: string) => (wf.jobs[job]?.steps ?? []).map((s) => s.run ?? '').join('\n');
    const verify = runs('verify');
    const order = [
      'release.mjs check',
      'npm ci',
      'npm run build',
      'git status --porcelain -- dist',
      'npm test',
    ];
    const at = order.map((s) => verify.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      verify,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(wf.jobs.verify?.permissions).toEqual({ contents: 'read' });
    expect(wf.jobs.publish?.needs).toBe('verify');
    expect(wf.jobs.publish?.permissions).toEqual({ contents: 'write' });
    expect(runs('publish')).toMatch(
      /release\.mjs notes[\s\S]*gh release create[\s\S]*release\.mjs move-major/,
    );
  });
});
