import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import {
  ENGINE_STATUSES,
  STATUS,
  adviceFor,
  failsStep,
  interruptedWords,
  isInterrupted,
  statusIcon,
  statusLine,
  type Status,
} from '../../src/domain/status.js';
import { previousRunOf, renderContextFile } from '../../src/gemini/context-file.js';

const root = new URL('../../', import.meta.url);
const statuses = Object.keys(STATUS) as Status[];
/** What the `status` output can say: every status but the post step's own. */
const ACTION_STATUSES = statuses.filter((s) => STATUS[s].origin !== 'post');

/** The backquoted statuses in a line of text, in order. */
function quoted(line: string): string[] {
  return [...line.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!);
}

describe('the status table', () => {
  it('gives every status an icon, words and, when it fails the step, advice', () => {
    for (const s of statuses) {
      expect(STATUS[s].icon, s).not.toBe('');
      expect(statusLine(s), s).toMatch(new RegExp(`^\\S+ ${STATUS[s].words}$`));
      expect(adviceFor(s) !== '', s).toBe(failsStep(s));
    }
  });

  it('counts the engine statuses among the action statuses, and no post-step status', () => {
    for (const s of ENGINE_STATUSES) expect(ACTION_STATUSES).toContain(s);
    expect(ACTION_STATUSES).not.toContain('stopped');
    expect(ENGINE_STATUSES).toContain('finished');
  });

  it('names exactly the action statuses in action.yml and in the README', () => {
    const yml = z
      .object({ outputs: z.object({ status: z.object({ description: z.string() }) }) })
      .parse(parse(readFileSync(new URL('action.yml', root), 'utf8')));
    const listed = yml.outputs.status.description.replace(/\.$/, '').split(/, | or /);
    expect(listed).toEqual([...ACTION_STATUSES]);
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| `status`'));
    expect(quoted(row ?? '').slice(1)).toEqual([...ACTION_STATUSES]);
  });

  it("has a row in the README's troubleshooting table for every status, marked as the step ends", () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const section = readme.split('### Troubleshooting')[1]?.split('\n## ')[0] ?? '';
    const rows = section
      .split('\n')
      .map((l) => /^\| `([a-z-]+)` +\| (✓|✗) +\| \S/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [m[1], m[2]]);
    expect(rows).toEqual(statuses.map((s) => [s, failsStep(s) ? '✗' : '✓']));
  });

  it('tells an interrupted run’s follow-up in its own words, and nothing for the others', () => {
    for (const s of statuses) {
      const previousRun = previousRunOf(s);
      expect(previousRun !== undefined, s).toBe(isInterrupted(s));
      if (!previousRun) continue;
      const text = renderContextFile(
        { title: 't', instruction: 'i', comments: [], source: { kind: 'issue' }, previousRun },
        [],
      );
      expect(text).toContain(`The previous run on this pull request ${interruptedWords(previousRun.status)}`);
    }
    expect(previousRunOf('from-a-newer-version')).toBeUndefined();
  });

  it('shows a generic icon for a status it does not know (a tracking state from another version)', () => {
    expect(statusIcon('crashed')).toBe('💥');
    expect(statusIcon('something-new')).toBe('ℹ️');
  });

  it('names the model, not the task, when every model call failed — only for statuses the model can cause', () => {
    const down = adviceFor('timed-out', { hasPull: false, modelUnavailable: true });
    expect(down).toMatch(/model did not answer/);
    expect(down).not.toMatch(/pull request|timeout/);
    expect(adviceFor('budget-exceeded', { modelUnavailable: true })).toMatch(/max-tokens/);
    expect(adviceFor('timed-out', { hasPull: false, committed: true })).toMatch(/what it committed is kept/);
  });
});
