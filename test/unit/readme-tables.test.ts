/**
 * The README's tables against the code's own: inputs and their defaults (the input schema), outputs (what the
 * action sets), statuses (the status table), models (the catalog), the toolkit's commands (the CLI's registry),
 * and the checkout step the workflows use (the one the workspace error names). Each check reads a README text and
 * returns what drifted, so the last tests feed it deliberately drifted copies: the check can fail.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INPUT_DEFAULTS, type InputName } from '../../src/action/inputs.js';
import { OUTPUT_NAMES } from '../../src/action/outputs.js';
import { CHECKOUT_STEP } from '../../src/action/runner-checks.js';
import { COMMANDS } from '../../src/cli/main.js';
import { STATUS, failsStep, type Status } from '../../src/domain/status.js';
import { MODEL_CATALOG } from '../../src/gemini/models.js';

const README = readFileSync('README.md', 'utf8');

/** The rows of the first table under `heading` (a `#`-heading line), as cells without their padding. */
function tableUnder(readme: string, heading: string): string[][] {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const lines = readme.slice(start + heading.length + 2).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  if (first < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    rows.push(cells);
  }
  return rows.slice(1);
}

const ticked = (s: string) => `\`${s}\``;

/** Inputs whose default is empty in action.yml but has a meaning the README says in words. */
const DEFAULTS_IN_WORDS: Partial<Record<InputName, string>> = {
  'github-token': ticked('${{ github.token }}'),
  model: `${ticked('auto')} (see [Models](#models))`,
  'base-branch': 'repository default',
  'protected-paths': 'see [Protected paths](#protected-paths)',
};

function inputsDrift(readme: string): string[] {
  const rows = tableUnder(readme, '### Inputs');
  const names = rows.map((r) => /^`([a-z-]+)`$/.exec(r[0] ?? '')?.[1] ?? r[0] ?? '');
  const drift: string[] = [];
  for (const name of Object.keys(INPUT_DEFAULTS) as InputName[]) {
    const row = rows[names.indexOf(name)];
    if (!row) {
      drift.push(`input ${name} has no row`);
      continue;
    }
    const expected = DEFAULTS_IN_WORDS[name] ?? (INPUT_DEFAULTS[name] ? ticked(INPUT_DEFAULTS[name]) : '');
    if (row[1] !== expected)
      drift.push(`input ${name}: default ${JSON.stringify(row[1])}, not ${JSON.stringify(expected)}`);
  }
  for (const n of names) if (!(n in INPUT_DEFAULTS)) drift.push(`row ${n} is no input`);
  return drift;
}

function outputsDrift(readme: string): string[] {
  const rows = tableUnder(readme, '### Outputs');
  const named = rows.flatMap((r) => [...(r[0] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!));
  const drift = OUTPUT_NAMES.filter((n) => !named.includes(n)).map((n) => `output ${n} has no row`);
  for (const n of named) if (!OUTPUT_NAMES.includes(n as never)) drift.push(`row ${n} is no output`);
  return drift;
}

/** The troubleshooting table: one row per status, in the table's order, ✓/✗ as the step ends. */
function statusesDrift(readme: string): string[] {
  const rows = tableUnder(readme, '### Troubleshooting');
  const drift: string[] = [];
  const statuses = Object.keys(STATUS) as Status[];
  const listed = rows.map((r) => /^`([a-z-]+)`$/.exec(r[0] ?? '')?.[1]);
  if (JSON.stringify(listed) !== JSON.stringify(statuses))
    drift.push(`statuses ${listed.join(', ')}, not ${statuses.join(', ')}`);
  rows.forEach((r, i) => {
    const s = statuses[i];
    if (!s) return;
    if (r[1] !== (failsStep(s) ? '✗' : '✓')) drift.push(`${s}: step ${r[1]}`);
    // The post step's statuses are the tracking comment's: the `status` output never has them.
    if (STATUS[s].origin === 'post' && !/never the `status` output/.test(r[2] ?? ''))
      drift.push(`${s}: the row does not say the status output never has it`);
  });
  return drift;
}

function modelsDrift(readme: string): string[] {
  const rows = tableUnder(readme, '### Models').map((r) => [/^`(.+)`$/.exec(r[0] ?? '')?.[1], r[1]]);
  const expected = MODEL_CATALOG.map((m) => [m.id, m.label]);
  return JSON.stringify(rows) === JSON.stringify(expected)
    ? []
    : [`models ${JSON.stringify(rows)}, not ${JSON.stringify(expected)}`];
}

function commandsDrift(readme: string): string[] {
  const rows = tableUnder(readme, '## The toolkit CLI');
  const named = rows.map((r) => /^`gemini-run ([a-z-]+)/.exec(r[0] ?? '')?.[1]);
  const drift = COMMANDS.filter((c) => !named.includes(c.name)).map((c) => `command ${c.name} has no row`);
  for (const n of named) if (!COMMANDS.some((c) => c.name === n)) drift.push(`row ${n ?? '?'} is no command`);
  return drift;
}

/** Every `uses: actions/checkout@…` of the README and the examples is the one the workspace error names. */
function checkoutDrift(texts: Record<string, string>): string[] {
  const drift: string[] = [];
  for (const [file, text] of Object.entries(texts)) {
    for (const m of text.matchAll(/uses: (actions\/checkout@\S+)/g))
      if (m[1] !== CHECKOUT_STEP) drift.push(`${file}: ${m[1]}, not ${CHECKOUT_STEP}`);
  }
  return drift;
}

describe("the README's tables are the code's", () => {
  it('inputs and their defaults', () => expect(inputsDrift(README)).toEqual([]));
  it('outputs', () => expect(outputsDrift(README)).toEqual([]));
  it('statuses, with how the step ends', () => expect(statusesDrift(README)).toEqual([]));
  it('models', () => expect(modelsDrift(README)).toEqual([]));
  it("the toolkit's commands", () => expect(commandsDrift(README)).toEqual([]));
  it('the checkout step of every workflow shown', () => {
    const examples = Object.fromEntries(
      ['ci-fix', 'comment', 'dispatch', 'github-app', 'issue-label'].map((n) => [
        `examples/${n}.yml`,
        readFileSync(`examples/${n}.yml`, 'utf8'),
      ]),
    );
    expect(checkoutDrift({ 'README.md': README, ...examples })).toEqual([]);
  });
});

describe('a drifted copy is caught (each check can fail)', () => {
  it('a default changed, an input left out', () => {
    const drifted = README.replace(/^\| `timeout-minutes` +\| `30` /m, (l) =>
      l.replace('`30`', '`60`'),
    ).replace(/^\| `draft` .*\n/m, '');
    expect(inputsDrift(drifted)).toEqual([
      'input timeout-minutes: default "`60`", not "`30`"',
      'input draft has no row',
    ]);
  });

  it('an output left out', () => {
    expect(outputsDrift(README.replace(/^\| `head-sha` .*\n/m, ''))).toEqual(['output head-sha has no row']);
  });

  it('a status the step ends otherwise, and the post status said as an output', () => {
    const drifted = README.replace(/^(\| `crashed` +\| )✗/m, '$1✓').replace(
      /never the `status` output/,
      'an output',
    );
    expect(statusesDrift(drifted)).toEqual([
      'crashed: step ✓',
      'stopped: the row does not say the status output never has it',
    ]);
  });

  it('a model the catalog does not have', () => {
    expect(modelsDrift(README.replace('`gemini-2.5-pro`', '`gemini-2.0-pro`'))).toHaveLength(1);
  });

  it('a command left out, and an old checkout', () => {
    expect(commandsDrift(README.replace(/^\| `gemini-run doctor.*\n/m, ''))).toEqual([
      'command doctor has no row',
    ]);
    expect(
      checkoutDrift({ 'README.md': README.replace('actions/checkout@v5', 'actions/checkout@v4') }),
    ).toEqual([`README.md: actions/checkout@v4, not ${CHECKOUT_STEP}`]);
  });
});
