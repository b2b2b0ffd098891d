/** GitHub markdown as the demo shows it in a terminal: what GitHub would render, not its escapes. */
import { describe, expect, it } from 'vitest';
import { markdownForTerminal } from '../../src/cli/terminal-markdown.js';

describe('markdown for a terminal', () => {
  it('resolves escapes and inline HTML the way GitHub renders them, and leaves hidden markers out', () => {
    const md = [
      '<!-- gemini-run:summary -->',
      'Comment <code>\\/gemini \\<instruction\\></code> on the pull request, see [run 7](https://github.com/o/r/actions/runs/7).',
    ].join('\n');
    expect(markdownForTerminal(md)).toBe(
      'Comment `/gemini <instruction>` on the pull request, see run 7 (https://github.com/o/r/actions/runs/7).',
    );
  });

  it('aligns tables (a key-value table without its empty header), keeps lists, code and quotes readable', () => {
    const md = [
      '| | |',
      '|---|---|',
      '| Status | `finished` |',
      '| Total tokens | 65,596 |',
      '',
      '| Model | Total |',
      '|---|---:|',
      '| `a` | 1 |',
      '| `bbb` | 1,000 |',
      '',
      '<details><summary>Files changed (2)</summary>',
      '',
      '- `src/greet.js`',
      '- `test/greet.test.js`',
      '',
      '</details>',
      '',
      '> [!WARNING]',
      '> moved',
      '',
      '```sh',
      'gemini --resume 1',
      '```',
    ].join('\n');
    expect(markdownForTerminal(md).split('\n')).toEqual([
      'Status        `finished`',
      'Total tokens  65,596',
      '',
      'Model  Total',
      '-----  -----',
      '`a`        1',
      '`bbb`  1,000',
      '',
      'Files changed (2):',
      '',
      '- `src/greet.js`',
      '- `test/greet.test.js`',
      '',
      '> [!WARNING]',
      '> moved',
      '',
      '    gemini --resume 1',
    ]);
  });
});
