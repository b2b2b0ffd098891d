import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coreLogger } from '../../src/action/core-logger.js';
import { describeEvent } from '../../src/run/progress.js';
import { createStreamLogger, stopCommandsToken } from '../../src/util/log.js';
import { guardLines, neutralize, stopCommandsBlock } from '../../src/util/untrusted-text.js';
import { runnerCommands } from '../harness/runner-commands.js';

/** What an issue title, a tool command or a model's answer can hold to become a workflow command. */
const HOSTILE = [
  'Fix it\r::error title=pwned::X',
  'Fix it\n::add-mask::visible-word',
  'a\r\n::warning::pwned-crlf',
  'b\u2028::error::pwned-ls\u2029c',
  'c\u0085::error::pwned-nel',
  '  \t::set-output name=x::pwned',
  '##[add-mask]pwned-legacy and ##[error]pwned-legacy',
  'x ###[error]pwned',
  '::stop-commands::abc',
  '\x1b[2K\x1b[1A::error::pwned-ansi',
];

describe('neutralize (a field spliced into our line)', () => {
  it('shows each control character as a visible escape, and keeps the rest', () => {
    expect(neutralize('a\rb\nc\r\nd\te')).toBe('a\\rb\\nc\\r\\nd\\te');
    expect(neutralize('\x00\x07\x1b[31mred\x1b[0m\x7f')).toBe('\\x00\\x07\\x1b[31mred\\x1b[0m\\x7f');
    expect(neutralize('nel\u0085csi\u009b')).toBe('nel\\x85csi\\x9b');
    expect(neutralize('ls\u2028ps\u2029')).toBe('ls\\u2028ps\\u2029');
    expect(neutralize('rlo\u202eabc\u200b\ufeff')).toBe('rlo\\u202eabc\\u200b\\ufeff');
    expect(neutralize('plain café — ünïcode ✓ 🙂 ::x:: C:\\path')).toBe(
      'plain café — ünïcode ✓ 🙂 ::x:: C:\\path',
    );
  });

  it('breaks the legacy ##[ command syntax wherever it is', () => {
    expect(neutralize('x ##[error]y ###[z]')).toBe('x ##\\[error]y ###\\[z]');
  });

  it('is one line the runner obeys nothing in, whatever it was given', () => {
    for (const text of HOSTILE) {
      const line = `Task: ${neutralize(text)} (0 comment(s))`;
      expect(line.split(/\r\n|\r|\n|\u2028|\u2029|\u0085/)).toHaveLength(1);
      expect(runnerCommands(line)).toEqual([]);
      // Still readable: the attacker's words are there as text.
      for (const word of text.match(/[a-z][a-z-]{3,}/g) ?? []) expect(line).toContain(word);
    }
  });

  it('caps a very long field and says how much was cut', () => {
    const out = neutralize('x'.repeat(5000), 100);
    expect(out).toBe(`${'x'.repeat(100)} … (4900 more characters)`);
    // Never half a surrogate pair.
    expect(neutralize(`${'x'.repeat(99)}🙂🙂`, 100)).toBe(`${'x'.repeat(99)} … (4 more characters)`);
    expect(neutralize('short', 100)).toBe('short');
  });
});

describe('guardLines (every message a logger prints)', () => {
  it('keeps our own line breaks and escapes a lone CR', () => {
    expect(guardLines('one\ntwo\r\nthree\rfour')).toBe('one\ntwo\nthree\\rfour');
  });

  it('prefixes a line that would read as a command, after leading whitespace too', () => {
    expect(guardLines('ok\n::error::x\n   ::add-mask::y\n\u3000::warning::z')).toBe(
      'ok\n\\::error::x\n\\   ::add-mask::y\n\\\u3000::warning::z',
    );
    // A command made by the escaping itself is impossible: escapes start with a backslash.
    expect(guardLines('\t::error::x')).toBe('\\t::error::x');
  });

  it('leaves nothing a runner obeys, and the text visible', () => {
    for (const text of HOSTILE) {
      const out = guardLines(text);
      expect(runnerCommands(out)).toEqual([]);
      expect(out).toMatch(/pwned|visible-word|stop-commands/);
    }
  });

  it('caps a very long line with a note', () => {
    expect(guardLines(`${'y'.repeat(50)}\nshort`, 10)).toBe(
      `${'y'.repeat(10)} … (40 more characters)\nshort`,
    );
  });
});

describe('stopCommandsBlock', () => {
  const tokens = (...ts: string[]) => {
    let i = 0;
    return () => ts[i++] ?? stopCommandsToken();
  };

  it('wraps the lines between ::stop-commands::<token> and ::<token>::', () => {
    const t = 'a'.repeat(32);
    expect(stopCommandsBlock('one\r\n::error::two\n', tokens(t))).toEqual([
      `::stop-commands::${t}`,
      'one',
      '::error::two',
      `::${t}::`,
    ]);
  });

  it('never uses a token the text holds, so the text cannot end its own block', () => {
    const guessed = 'b'.repeat(32);
    const fresh = 'c'.repeat(32);
    const text = `::${guessed}::\n::error::pwned\n::stop-commands::${guessed}`;
    const block = stopCommandsBlock(text, tokens(guessed, fresh));
    expect(block[0]).toBe(`::stop-commands::${fresh}`);
    expect(block.at(-1)).toBe(`::${fresh}::`);
    expect(block.slice(1, -1).some((l) => l.includes(fresh))).toBe(false);
    expect(runnerCommands(block.join('\n'))).toEqual([]);
  });

  it('escapes control characters in the block, a lone CR included', () => {
    const block = stopCommandsBlock('x\r::error::y\x1b[31m', stopCommandsToken);
    expect(block.slice(1, -1)).toEqual(['x\\r::error::y\\x1b[31m']);
  });

  it('caps the number of lines', () => {
    const block = stopCommandsBlock(
      Array.from({ length: 500 }, (_, i) => `l${i}`).join('\n'),
      stopCommandsToken,
    );
    expect(block).toHaveLength(400 + 3);
    expect(block.at(-2)).toBe('… (100 more lines)');
  });

  it('gets a fresh 32-hex-digit token per block', () => {
    const a = stopCommandsToken();
    const b = stopCommandsToken();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});

describe('the loggers', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Everything coreLogger writes to stdout while fn runs. */
  async function coreOutput(fn: () => Promise<void> | void): Promise<string> {
    const chunks: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    await fn();
    vi.restoreAllMocks();
    return chunks.join('');
  }

  it('core: no message, group title or block obeys a command, and the text stays visible', async () => {
    const out = await coreOutput(async () => {
      for (const text of HOSTILE) {
        coreLogger.info(`Task: ${text}`);
        coreLogger.info(text);
        coreLogger.warning(text);
        coreLogger.error(text);
        coreLogger.debug(text);
        await coreLogger.group(text, () => Promise.resolve());
        coreLogger.untrusted('The answer:', `${text}\n::warning::pwned-answer\n::stop-commands::x\n::x::`);
      }
    });
    const obeyed = runnerCommands(out);
    // Only our own commands: the annotations, debug lines and groups we asked for, with data core escaped.
    expect(new Set(obeyed.map((c) => c.name))).toEqual(
      new Set(['warning', 'error', 'debug', 'group', 'endgroup']),
    );
    for (const c of obeyed) expect(c.line).toMatch(/^::(warning|error|debug|group|endgroup)::/);
    expect(obeyed.filter((c) => /^(warning|error)$/.test(c.name)).length).toBe(2 * HOSTILE.length);
    // The attacker's lines are in the output, as text inside the blocks.
    expect(out).toContain('\n::warning::pwned-answer\n');
    expect(out).toContain('::add-mask::visible-word');
  });

  it('core: each block has its own token, which appears nowhere else', async () => {
    const out = await coreOutput(() => {
      coreLogger.untrusted('one', '::error::a');
      coreLogger.untrusted('two', '::error::b');
    });
    const starts = [...out.matchAll(/^::stop-commands::([0-9a-f]{32})$/gm)].map((m) => m[1] ?? '');
    expect(starts).toHaveLength(2);
    expect(starts[0]).not.toBe(starts[1]);
    for (const t of starts) expect(out.split(t)).toHaveLength(3);
    expect(out).toMatch(/^one\n::stop-commands::\w+\n::error::a\n::\w+::\ntwo\n/);
  });

  it('stream (CLI, demo): every line is guarded, blocks are quoted with | ', () => {
    const out = new PassThrough();
    const err = new PassThrough();
    const log = createStreamLogger({ out, err, prefix: '[x] ' });
    for (const text of HOSTILE) {
      log.info(text);
      log.warning(text);
      log.untrusted('Screen:', `${text}\n::error::pwned-screen`);
    }
    const written = `${String(out.read())}${String(err.read())}`;
    expect(runnerCommands(written)).toEqual([]);
    expect(written).toContain('[x]   | ::error::pwned-screen\n');
  });

  it('progress lines keep a tool target, a model name and an error on their own line', () => {
    const lines = [
      describeEvent({
        type: 'tool-started',
        name: 'run_shell_command',
        kind: 'shell',
        detail: 'ls\r::error::t',
      }),
      describeEvent({ type: 'started', sessionId: 's\n::add-mask::m', model: 'gemini\r::warning::m' }),
      describeEvent({
        type: 'model-response',
        model: 'm\r\n::error::x',
        inputTokens: 1,
        outputTokens: 1,
        totalTokens: 2,
      }),
      describeEvent({ type: 'api-error', message: 'quota\r::error::q', terminalQuota: false }),
      describeEvent({ type: 'completed', ok: false, error: 'e\r::error::e' }),
    ];
    for (const line of lines) {
      expect(line?.split(/\r|\n/)).toHaveLength(1);
      expect(runnerCommands(line ?? '')).toEqual([]);
    }
    expect(lines[0]).toBe('tool run_shell_command [shell]: ls\\r::error::t');
  });
});
