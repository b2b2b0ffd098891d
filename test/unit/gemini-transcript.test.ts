import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FoldedTranscript } from '../../src/domain/types.js';
import { foldTranscript, foldTranscriptFile } from '../../src/gemini/transcript-fold.js';
import { locateTranscript, restoreTranscript, slugify } from '../../src/gemini/transcript-locate.js';
import { stripToolOutput } from '../../src/gemini/transcript-parse.js';
import { transcriptHeader, transcriptTurn } from '../bench/lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const probe = path.join(root, 'fixtures/synthetic/headless-probe/transcript.jsonl');

const msg = (id: string, type: string, content: unknown, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ id, timestamp: '2026-12-02T12:00:00.000Z', type, content, ...extra });

describe('foldTranscript', () => {
  it('folds the real headless capture (tool call re-append, $set)', async () => {
    const t = await foldTranscriptFile(probe);
    expect(t.sessionId).toBe('11111111-2222-3333-4444-555555555555');
    expect(t.lastUpdated).toBe('2026-12-02T12:05:50.191Z');
    expect(t.messages.map((m) => m.type)).toEqual(['user', 'gemini', 'gemini']);
    expect(t.messages[0]!.text).toBe('the task\n\n\nRead it');
    expect(t.toolCalls).toEqual([
      {
        id: 'list_directory_1796213150074_0',
        name: 'list_directory',
        kind: 'ls',
        status: 'success',
        args: { dir_path: '.' },
        description: '.',
      },
    ]);
    expect(t.finalAnswer).toBe('Done: the dir has a file. ünï 😀');
    expect(t.models).toEqual(['gemini-2.5-flash']);
    expect(t.tokensByModel['gemini-2.5-flash']).toEqual({
      input: 200,
      output: 14,
      cached: 0,
      total: 214,
      messages: 2,
    });
    expect(foldTranscript(await readFile(probe, 'utf8'))).toEqual(t);
  });

  it('last writer wins by id in first-seen order', () => {
    const t = foldTranscript(
      [
        transcriptHeader('s-1'),
        msg('u1', 'user', [{ text: 'hi' }]),
        msg('g1', 'gemini', '', { model: 'm1' }),
        msg('u2', 'user', [{ text: 'more' }]),
        msg('g1', 'gemini', 'first answer', {
          model: 'm1',
          toolCalls: [{ id: 't1', name: 'run_shell_command', status: 'success' }],
        }),
        JSON.stringify({ $set: { lastUpdated: 'later', summary: 'x' } }),
      ].join('\n'),
    );
    expect(t.messages.map((m) => [m.id, m.text])).toEqual([
      ['u1', 'hi'],
      ['g1', 'first answer'],
      ['u2', 'more'],
    ]);
    expect(t.toolCalls.map((c) => [c.name, c.kind, c.status])).toEqual([
      ['run_shell_command', 'shell', 'success'],
    ]);
    expect(t.lastUpdated).toBe('later');
    expect(t.sessionId).toBe('s-1');
  });

  it('$rewindTo drops the id and everything after; an unknown id clears all', () => {
    const lines = [
      transcriptHeader('s-2'),
      msg('a', 'user', [{ text: 'a' }]),
      msg('b', 'gemini', 'B', { model: 'm' }),
      msg('c', 'user', [{ text: 'c' }]),
      msg('d', 'gemini', 'D', { model: 'm2' }),
    ];
    const found = foldTranscript(
      [...lines, JSON.stringify({ $rewindTo: 'c' }), msg('e', 'gemini', 'E', { model: 'm3' })].join('\n'),
    );
    expect(found.messages.map((m) => m.id)).toEqual(['a', 'b', 'e']);
    expect(found.models).toEqual(['m', 'm3']);
    expect(found.finalAnswer).toBe('E');
    const notFound = foldTranscript([...lines, JSON.stringify({ $rewindTo: 'zzz' })].join('\n'));
    expect(notFound.messages).toEqual([]);
    expect(notFound.finalAnswer).toBe('');
    // A rewound id that comes back is placed at the end, like the CLI's Map.
    const back = foldTranscript(
      [...lines, JSON.stringify({ $rewindTo: 'b' }), msg('b', 'gemini', 'B2', { model: 'm' })].join('\n'),
    );
    expect(back.messages.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('tolerates a torn last line and bad lines; a torn re-append keeps the previous copy', () => {
    const good = msg('g', 'gemini', 'kept', {
      model: 'm',
      tokens: { input: 1, output: 2, cached: 0, thoughts: 0, tool: 0, total: 3 },
    });
    const newer = msg('g', 'gemini', 'newer text', { model: 'm' });
    const t = foldTranscript(
      [
        transcriptHeader('s-3'),
        'not json',
        '[1,2]',
        msg('u', 'user', [{ text: 'q' }]),
        good,
        newer.slice(0, newer.length - 12),
      ].join('\n'),
    );
    expect(t.messages.map((m) => m.text)).toEqual(['q', 'kept']);
    expect(t.tokensByModel).toEqual({ m: { input: 1, output: 2, cached: 0, total: 3, messages: 1 } });
    const torn = foldTranscript(
      [transcriptHeader('s-3'), msg('u', 'user', [{ text: 'q' }]), '{"id":"x","type":"gem'].join('\n'),
    );
    expect(torn.messages.map((m) => m.id)).toEqual(['u']);
  });

  it('finalAnswer is the last gemini message with text; models in first-seen order', () => {
    const t = foldTranscript(
      [
        msg('1', 'gemini', 'one', { model: 'pro' }),
        msg('2', 'gemini', 'two', { model: 'flash' }),
        msg('3', 'gemini', '', { model: 'pro', toolCalls: [{ id: 'x', name: 'replace', status: 'error' }] }),
        msg('4', 'info', 'Request cancelled.'),
      ].join('\n'),
    );
    expect(t.finalAnswer).toBe('two');
    expect(t.models).toEqual(['pro', 'flash']);
    expect(t.toolCalls[0]).toMatchObject({ kind: 'edit', status: 'error' });
    expect(t.messages.at(-1)).toMatchObject({ type: 'info', text: 'Request cancelled.' });
  });

  it('the streaming file fold equals the in-memory fold on a multi-chunk file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gr-fold-'));
    try {
      const lines = [transcriptHeader('s-big')];
      for (let i = 0; i < 400; i++) lines.push(...transcriptTurn(i, Date.UTC(2026, 0, 1) + i * 1000, 6000));
      // A 1.5 MB line (longer than one read) with multi-byte text, then a torn re-append of it.
      const huge = msg('huge', 'gemini', 'ü😀'.repeat(250_000) + ' end', { model: 'big-model' });
      lines.push(huge, huge.slice(0, 1000));
      const text = lines.join('\n');
      const file = path.join(dir, 'session.jsonl');
      await writeFile(file, text);
      expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 1024 * 1024);
      const streamed = await foldTranscriptFile(file);
      expect(streamed).toEqual(foldTranscript(text));
      expect(streamed.messages).toHaveLength(1201);
      expect(streamed.toolCalls).toHaveLength(400);
      expect(streamed.finalAnswer.endsWith('😀 end')).toBe(true);
      expect(streamed.models).toEqual(['gemini-2.5-flash', 'big-model']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('stripToolOutput', () => {
  it('cuts result and resultDisplay values (escapes, braces, nesting) and keeps everything else', () => {
    const tricky = 'a "quoted" {brace} ] [ \\ \\" \\\\ end\\';
    const rec = {
      id: 'g',
      type: 'gemini',
      content: 'text with "result":[{"functionResponse": inside',
      toolCalls: [
        {
          id: 't1',
          name: 'run_shell_command',
          args: { command: tricky },
          result: [
            {
              functionResponse: {
                id: 't1',
                name: 'run_shell_command',
                response: { output: tricky, n: [1, { x: '}' }] },
              },
            },
          ],
          status: 'success',
          resultDisplay: tricky,
          description: 'd',
        },
        {
          id: 't2',
          name: 'replace',
          args: {},
          result: [{ functionResponse: { id: 't2', name: 'replace', response: {} } }],
          status: 'error',
          resultDisplay: { fileDiff: tricky, isNewFile: false },
        },
      ],
    };
    const stripped = JSON.parse(
      stripToolOutput(Buffer.from(JSON.stringify(rec))).toString('utf8'),
    ) as typeof rec;
    const expected = structuredClone(rec) as Record<string, unknown> & typeof rec;
    for (const c of expected.toolCalls) {
      delete (c as Partial<typeof c>).result;
      delete (c as Partial<typeof c>).resultDisplay;
    }
    expect(stripped).toEqual(expected);
    const plain = Buffer.from(JSON.stringify({ id: 'u', type: 'user', content: [{ text: 'hi' }] }));
    expect(stripToolOutput(plain)).toBe(plain);
  });

  it('the file fold (which strips) equals the string fold (which does not) on the live captures', async () => {
    for (const name of ['tool-heavy-interactive', 'tool-heavy-headless', 'two-turn-interactive']) {
      const file = path.join(root, 'fixtures/gemini-0.42.0', name, 'transcript.jsonl');
      expect(await foldTranscriptFile(file), name).toEqual(foldTranscript(await readFile(file, 'utf8')));
    }
  });
});

describe('locateTranscript and restoreTranscript', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'gr-home-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('slugifies like the CLI', () => {
    expect(slugify('/a/b/My_Repo.v2')).toBe('my-repo-v2');
    expect(slugify('/a/b/--X--')).toBe('x');
    expect(slugify('/a/b/___')).toBe('project');
  });

  async function chats(slug: string, worktree: string): Promise<string> {
    const gem = path.join(home, '.gemini');
    await mkdir(path.join(gem, 'tmp', slug, 'chats'), { recursive: true });
    await writeFile(path.join(gem, 'projects.json'), JSON.stringify({ projects: { [worktree]: slug } }));
    return path.join(gem, 'tmp', slug, 'chats');
  }

  it("finds the file named for the session in the worktree's slug dirs, else the newest there", async () => {
    const wt = '/work/runs/Repo';
    const dir = await chats('repo-1', wt);
    const sid = 'abcdef12-0000-4000-8000-000000000000';
    const mine = path.join(dir, 'session-2026-12-02T10-00-abcdef12.jsonl');
    const other = path.join(dir, 'session-2026-12-02T10-05-99999999.jsonl');
    await writeFile(mine, transcriptHeader(sid) + '\n');
    await writeFile(other, transcriptHeader('99999999-x') + '\n');
    await utimes(mine, new Date(1000), new Date(1000));
    expect(await locateTranscript(home, wt, sid)).toBe(mine);
    // After /clear the id no longer names a file: the newest file is the current epoch.
    expect(await locateTranscript(home, wt, 'ffffffff-gone')).toBe(other);
    // Same 8-char prefix, different full id: not ours.
    expect(await locateTranscript(home, wt, 'abcdef12-1111-4000-8000-000000000000')).toBe(other);
    expect(await locateTranscript(home, '/elsewhere/none', sid)).toBeUndefined();
  });

  it('never reads projects.json: a registry the agent pointed elsewhere, or a linked chats dir, leads nowhere', async () => {
    const wt = '/work/runs/Repo';
    const sid = 'abcdef12-0000-4000-8000-000000000000';
    // The agent's own dir, named in projects.json for our worktree: not a dir the CLI names for it.
    const planted = await chats('planted', wt);
    await writeFile(
      path.join(planted, 'session-2026-12-02T10-00-abcdef12.jsonl'),
      transcriptHeader(sid) + '\n',
    );
    expect(await locateTranscript(home, wt, sid)).toBeUndefined();
    // The slug's dir as a link to it: not a real directory.
    await symlink(path.dirname(planted), path.join(home, '.gemini', 'tmp', 'repo'));
    expect(await locateTranscript(home, wt, sid)).toBeUndefined();
  });

  it('restores a session for a new worktree at the path the CLI expects', async () => {
    const src = path.join(home, 'saved.jsonl');
    await writeFile(
      src,
      transcriptHeader('12345678-aaaa') + '\n' + msg('u', 'user', [{ text: 'hi' }]) + '\n',
    );
    const gem = path.join(home, '.gemini');
    await mkdir(gem, { recursive: true });
    // Whatever a registry says, the restore writes its own (the home is new; nothing in it is read).
    await writeFile(
      path.join(gem, 'projects.json'),
      JSON.stringify({
        projects: { '/old/place/repo': 'repo', [path.join(home, 'new', 'Repo')]: '../../x' },
      }),
    );
    const wt = path.join(home, 'new', 'Repo');
    const dest = await restoreTranscript(home, wt, src);
    expect(dest).toBe(path.join(gem, 'tmp', 'repo', 'chats', path.basename(dest)));
    // Named for the session's own start, as the CLI named it: not for the minute the resumed CLI starts in,
    // whose own new file would then be this one.
    expect(path.basename(dest)).toBe('session-2026-12-02T12-00-12345678.jsonl');
    expect(JSON.parse(await readFile(path.join(gem, 'projects.json'), 'utf8')).projects).toEqual({
      [wt]: 'repo',
    });
    expect(await readFile(path.join(gem, 'tmp', 'repo', '.project_root'), 'utf8')).toBe(wt);
    expect(await readFile(path.join(gem, 'history', 'repo', '.project_root'), 'utf8')).toBe(wt);
    expect(await locateTranscript(home, wt, '12345678-aaaa')).toBe(dest);
    expect((await foldTranscriptFile(dest)).messages).toHaveLength(1);
  });

  it('never takes the name of the minute the resumed CLI starts in, whatever the header says', async () => {
    const headers = [
      JSON.stringify({ sessionId: '../../../x-evil', projectHash: 'a', startTime: 'not a date' }),
      JSON.stringify({ sessionId: 'abcd/../', projectHash: 'a', startTime: 12 }),
      JSON.stringify({ sessionId: 'fine-id-1', projectHash: 'a', startTime: '+275760-09-13T00:00:00.000Z' }),
      JSON.stringify({ sessionId: 'plain-id', projectHash: 'a' }),
      'not json at all',
    ];
    for (const [i, header] of headers.entries()) {
      const src = path.join(home, `t${i}.jsonl`);
      await writeFile(src, header + '\n');
      const wt = path.join(home, `wt${i}`);
      const before = new Date();
      const dest = await restoreTranscript(home, wt, src);
      const now = new Date().toISOString().slice(0, 16).replace(/:/g, '-');
      const name = path.basename(dest);
      expect(name, header).toMatch(/^session-\d{4}-\d\d-\d\dT\d\d-\d\d-[A-Za-z0-9_-]{1,8}\.jsonl$/);
      expect(name, header).not.toContain(now);
      expect(name, header).not.toContain(before.toISOString().slice(0, 16).replace(/:/g, '-'));
      expect(path.dirname(dest), header).toBe(path.join(home, '.gemini', 'tmp', `wt${i}`, 'chats'));
      if (header.includes('"sessionId"')) expect(name, header).not.toMatch(/-restored\.jsonl$/);
    }
  });
});

describe('live captures (fixtures/gemini-0.42.0)', () => {
  const live = (name: string): Promise<FoldedTranscript> =>
    foldTranscriptFile(path.join(root, 'fixtures/gemini-0.42.0', name, 'transcript.jsonl'));

  it('tool-heavy: the re-appended records carry the tool calls with status and kind', async () => {
    for (const name of ['tool-heavy-interactive', 'tool-heavy-headless']) {
      const t = await live(name);
      expect(
        t.toolCalls.map((c) => `${c.kind}:${c.status}`),
        name,
      ).toEqual([
        'ls:success',
        'read:success',
        'glob:success',
        'grep:success',
        'edit:success',
        'shell:success',
      ]);
      expect(t.messages.map((m) => m.type)).toEqual(['user', ...Array(7).fill('gemini')]);
      expect(t.finalAnswer).toBe('Changed the greeting to Hi and committed it.');
      expect(t.models).toEqual(['gemini-3-flash-preview']);
      expect(t.tokensByModel['gemini-3-flash-preview']?.messages).toBe(7);
      expect(t.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('two turns, an info record after Escape, and a quota wall with no answer', async () => {
    const two = await live('two-turn-interactive');
    expect(two.messages.map((m) => m.type)).toEqual(['user', 'gemini', 'user', 'gemini']);
    expect(two.finalAnswer).toBe('Second answer: greet() lives in src/greet.js.');
    const hang = await live('hang-escape-interactive');
    expect(hang.messages.map((m) => [m.type, m.text])).toEqual([
      ['user', 'Read GEMINI.local.md and do the task.'],
      ['info', 'Request cancelled.'],
    ]);
    const quota = await live('quota-daily-interactive');
    expect(quota.messages.map((m) => m.type)).toEqual(['user']);
    expect(quota.finalAnswer).toBe('');
  });
});
