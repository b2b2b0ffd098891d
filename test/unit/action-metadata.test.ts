import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { INPUT_DEFAULTS, parseInputs, type InputName } from '../../src/action/inputs.js';
import { OUTPUT_NAMES } from '../../src/action/outputs.js';
import { DEFAULT_GEMINI_VERSION } from '../../src/gemini/cli-profile.js';

const actionYml = z
  .object({
    runs: z.object({ using: z.string(), main: z.string(), post: z.string() }),
    inputs: z.record(
      z.string(),
      z.object({ default: z.string().optional(), required: z.boolean().optional() }),
    ),
    outputs: z.record(z.string(), z.object({ description: z.string() })),
    description: z.string(),
  })
  .parse(parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')));

describe('action.yml contract', () => {
  it('runs on node24 with main and post entries from dist/', () => {
    expect(actionYml.runs).toMatchObject({ using: 'node24', main: 'dist/index.js', post: 'dist/post.js' });
  });

  it('declares exactly the inputs the parser reads, with the same defaults', () => {
    expect(Object.keys(actionYml.inputs).sort()).toEqual(Object.keys(INPUT_DEFAULTS).sort());
    for (const [name, spec] of Object.entries(actionYml.inputs)) {
      expect(spec.required ?? false, name).toBe(false);
      if (name === 'github-token') expect(spec.default).toBe('${{ github.token }}');
      else expect(spec.default ?? '', name).toBe(INPUT_DEFAULTS[name as InputName]);
    }
  });

  it('defaults to the one DEFAULT_GEMINI_VERSION, the gemini the project pins for its own runs', () => {
    expect(actionYml.inputs['gemini-version']?.default).toBe(DEFAULT_GEMINI_VERSION);
    const pkg = z
      .object({ devDependencies: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')));
    expect(pkg.devDependencies['@google/gemini-cli']).toBe(DEFAULT_GEMINI_VERSION);
  });

  it('has a description the Marketplace accepts (under 125 characters)', () => {
    expect(actionYml.description.length).toBeLessThan(125);
  });

  it('declares exactly the outputs the action sets', () => {
    expect(Object.keys(actionYml.outputs).sort()).toEqual([...OUTPUT_NAMES].sort());
  });
});

describe('parseInputs', () => {
  const base = { ...INPUT_DEFAULTS } as Record<InputName, string>;

  it('parses the defaults', () => {
    const inputs = parseInputs(base);
    expect(inputs).toMatchObject({
      mode: 'interactive',
      approvalMode: 'yolo',
      timeoutMinutes: 30,
      draft: false,
    });
  });

  it('lists every problem in one line', () => {
    let message = '';
    try {
      parseInputs({ ...base, mode: 'tui', draft: 'yes', 'timeout-minutes': 'soon' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^Invalid input: /);
    for (const name of ["'mode'", "'draft'", "'timeout-minutes'"]) expect(message).toContain(name);
    expect(message).not.toContain('\n');
  });

  it('refuses timeout-minutes 0 with a message that does not say 0 is allowed', () => {
    expect(() => parseInputs({ ...base, 'timeout-minutes': '0' })).toThrow(
      /'timeout-minutes' must be a number of minutes above 0 and at most 360/,
    );
  });

  it('accepts booleans in any case', () => {
    expect(parseInputs({ ...base, draft: 'TRUE' }).draft).toBe(true);
  });
});

describe('the inputs of issue 13', () => {
  const base = { ...INPUT_DEFAULTS } as Record<InputName, string>;

  it('parses the lists, the budget and the settings object', () => {
    const inputs = parseInputs({
      ...base,
      'exclude-tools': ' write_file, run_shell_command ,,write_file',
      'allowed-tools': 'read_file',
      extensions: './ext/one\n\n https://github.com/o/ext.git \n',
      'max-tokens': '5000',
      settings: '{"ui": {"hideBanner": true}}',
      'trigger-assignee': 'gemini-bot',
    });
    expect(inputs).toMatchObject({
      excludeTools: ['write_file', 'run_shell_command'],
      allowedTools: ['read_file'],
      extensions: ['./ext/one', 'https://github.com/o/ext.git'],
      maxTokens: 5000,
      settings: { ui: { hideBanner: true } },
      trackProgress: true,
      triggerAssignee: 'gemini-bot',
    });
  });

  it('turns invalid settings JSON and a bad budget into one line naming the input', () => {
    let message = '';
    try {
      parseInputs({ ...base, settings: '{"ui": ', 'max-tokens': '-3' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/'settings' is not valid JSON/);
    expect(message).toContain("'max-tokens'");
    expect(message).not.toContain('\n');
    expect(() => parseInputs({ ...base, settings: '[1]' })).toThrow(/'settings' must be a JSON object/);
  });

  it('declares the camel-case name of every input', () => {
    const inputs = parseInputs(base) as unknown as Record<string, unknown>;
    for (const name of Object.keys(INPUT_DEFAULTS)) {
      const camel = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(inputs, name).toHaveProperty(camel);
    }
  });
});

describe('the pull request controls (issue 27)', () => {
  const base = { ...INPUT_DEFAULTS, 'gemini-api-key': 'k' };

  it('splits on commas and newlines, trims, drops empties and duplicates; a team may name its org', () => {
    const inputs = parseInputs({
      ...base,
      labels: 'bug, needs review\n\nbug',
      assignees: 'alice\r\nbob,',
      reviewers: 'dependabot[bot], carol',
      'team-reviewers': 'acme/core\nweb',
    });
    expect(inputs.labels).toEqual(['bug', 'needs review']);
    expect(inputs.assignees).toEqual(['alice', 'bob']);
    expect(inputs.reviewers).toEqual(['dependabot[bot]', 'carol']);
    expect(inputs.teamReviewers).toEqual(['core', 'web']);
    expect(parseInputs(base).labels).toEqual([]);
  });

  it('refuses what is not a login, a slug or a label, in one line naming it', () => {
    expect(() => parseInputs({ ...base, reviewers: 'alice, @bob' })).toThrow(
      /^Invalid input: 'reviewers' has "@bob", which is not a GitHub login\.$/,
    );
    expect(() => parseInputs({ ...base, labels: 'x'.repeat(51) })).toThrow(
      /'labels' has "x+", which is not a label name/,
    );
    expect(() => parseInputs({ ...base, 'team-reviewers': 'a team' })).toThrow(/not a team slug/);
  });
});

describe('commit-author and committer (issue 27)', () => {
  const base = { ...INPUT_DEFAULTS, 'gemini-api-key': 'k' };

  it("parses 'Name <email>' and leaves them unset when empty", () => {
    const inputs = parseInputs({ ...base, 'commit-author': 'Release Bot <release@example.com>' });
    expect(inputs.commitAuthor).toEqual({ name: 'Release Bot', email: 'release@example.com' });
    expect(inputs.committer).toBeUndefined();
    expect(inputs.rewriteAuthor).toBe(true);
    expect(parseInputs({ ...base, 'rewrite-author': 'false' }).rewriteAuthor).toBe(false);
  });

  it.each(['release@example.com', 'Bot <not-an-email>', 'Bot <a@b.c> trailing', 'A <b> <c@d.e>'])(
    'refuses %j in one line',
    (value) => {
      // The value given is echoed (a committer is no secret), so the typo shows.
      expect(() => parseInputs({ ...base, committer: value })).toThrow(
        `Invalid input: 'committer' must be in the form 'Name <email@example.com>', not '${value}'.`,
      );
    },
  );
});
