import { describe, expect, it } from 'vitest';
import { formatDuration, redactSecrets, renderSummary, toolRows } from '../../src/run/report.js';
import type { Task } from '../../src/domain/types.js';
import type { RunResult } from '../../src/run/types.js';

function result(o: Partial<RunResult> = {}): RunResult {
  return {
    status: 'finished',
    mode: 'interactive',
    sessionId: 'sess-1234',
    transcript: {
      messages: [],
      toolCalls: [
        { id: '1', name: 'run_shell_command', kind: 'shell', status: 'success' },
        { id: '2', name: 'run_shell_command', kind: 'shell', status: 'error' },
        { id: '3', name: 'replace', kind: 'edit', status: 'success' },
      ],
      tokensByModel: {},
      finalAnswer: 'Done: fixed the | bug.',
      models: ['gemini-2.5-flash'],
    },
    usage: {
      models: [
        {
          model: 'gemini-2.5-pro',
          requests: 2,
          inputTokens: 1200,
          outputTokens: 30,
          cachedTokens: 0,
          totalTokens: 1230,
          fallback: false,
        },
        {
          model: 'gemini-2.5-flash',
          requests: 1,
          inputTokens: 900,
          outputTokens: 10,
          cachedTokens: 100,
          totalTokens: 910,
          fallback: true,
        },
      ],
      totalTokens: 2140,
      toolCalls: 3,
      turns: 4,
      durationMs: 125_000,
    },
    exitCode: 0,
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 125_000,
    geminiLifetimeMs: 120_000,
    baseSha: 'a'.repeat(40),
    headSha: 'b'.repeat(40),
    commits: [
      { sha: 'c'.repeat(40), subject: 'Fix the bug' },
      { sha: 'd'.repeat(40), subject: 'gemini-run: uncommitted changes' },
    ],
    filesChanged: ['src/a.ts', 'README.md'],
    leftoverCommitted: true,
    ...o,
  };
}

const task: Task = {
  title: 'Fix the bug',
  instruction: 'SECRET-INSTRUCTION-TEXT please',
  comments: [{ author: 'x', body: 'COMMENT-TEXT' }],
  source: { kind: 'issue', number: 3 },
};

describe('renderSummary', () => {
  it('counts the calls the model proxy refused, only when there were any', () => {
    expect(renderSummary(result())).not.toContain('refused by the model proxy');
    const md = renderSummary(
      result({ refusedCalls: { count: 7, first: ['GET /v1beta/files', 'DELETE /v1beta/files/a|b'] } }),
    );
    expect(md).toContain(
      "**7 call(s) refused by the model proxy** (the agent's credential serves only this run's model calls: its model and the CLI's helper models): `GET /v1beta/files`, `DELETE /v1beta/files/a|b`, …",
    );
  });

  it("shows the model proxy's own count next to the telemetry's, and what it refused at the budget", () => {
    expect(renderSummary(result())).not.toContain('Served by the model proxy');
    const served = { tokens: 12345, answers: 9, refusedAtLimit: 0 };
    expect(renderSummary(result({ served }))).toContain(
      '| Served by the model proxy | 12,345 tokens in 9 answer(s) |',
    );
    expect(renderSummary(result({ served: { ...served, refusedAtLimit: 51 }, maxTokens: 10000 }))).toContain(
      '| Served by the model proxy | 12,345 tokens in 9 answer(s); 51 model call(s) refused at the budget |',
    );
  });

  it('renders status, duration, turns, tools, models, changes, answer and resume line', () => {
    const md = renderSummary(result(), { task });
    expect(md).toMatch(/^## Gemini run: ✅ finished/);
    expect(md).toContain('| Duration | 2 min 5 s |');
    expect(md).toContain('| Turns | 4 |');
    expect(md).toContain('| shell | `run_shell_command` | 2 | 1 |');
    expect(md).toContain('| edit | `replace` | 1 | 0 |');
    expect(md).toContain('| `gemini-2.5-flash` (fallback) | 1 | 900 | 10 | 100 | 910 |');
    expect(md).toContain('| `gemini-2.5-pro` | 2 | 1,200 | 30 | 0 | 1,230 |');
    expect(md).toContain('- `ccccccc` Fix the bug');
    expect(md).toContain('the last one made by gemini-run');
    expect(md).toContain('- `src/a.ts`');
    expect(md).toContain('Done: fixed the | bug.');
    expect(md).toContain('gemini --resume sess-1234');
  });
  it('shows the task title but never the instruction or comments', () => {
    const md = renderSummary(result(), task);
    expect(md).toContain('**Task:** Fix the bug');
    expect(md).not.toContain('SECRET-INSTRUCTION-TEXT');
    expect(md).not.toContain('COMMENT-TEXT');
  });
  it('explains a failing end state with its message', () => {
    const md = renderSummary(
      result({
        status: 'quota-exhausted',
        message: 'Usage limit reached for gemini-2.5-pro.',
        commits: [],
        filesChanged: [],
        usage: { ...result().usage, models: [] },
      }),
    );
    expect(md).toMatch(/^## Gemini run: 🚫 quota exhausted/);
    expect(md).toContain('> Usage limit reached for gemini-2.5-pro.');
    expect(md).toContain('No commits.');
    expect(md).not.toContain('### Models');
  });
  it('redacts token shapes from the answer and the message', () => {
    const key = `AIza${'x'.repeat(35)}`;
    const md = renderSummary(
      result({
        status: 'auth-failed',
        message: `refused ${key}`,
        transcript: { ...result().transcript, finalAnswer: `token ghp_${'a'.repeat(36)}` },
      }),
    );
    expect(md).not.toContain(key);
    expect(md).not.toContain('ghp_aaaa');
    expect(md.match(/\\?\*\\?\*\\?\*/g)?.length).toBeGreaterThanOrEqual(2);
  });
  it('truncates a huge answer and omits empty sections', () => {
    const md = renderSummary(
      result({ transcript: { ...result().transcript, toolCalls: [], finalAnswer: 'y'.repeat(50) } }),
      { maxAnswerChars: 10 },
    );
    expect(md).toContain('yyyyyyyyyy\n\n…(truncated)');
    expect(md).not.toContain('### Tool calls');
  });
});

describe('helpers', () => {
  it('formats durations', () => {
    expect(formatDuration(4_400)).toBe('4 s');
    expect(formatDuration(3_725_000)).toBe('1 h 2 min');
  });
  it('groups tool rows by count', () => {
    expect(toolRows(result()).map((r) => r.name)).toEqual(['run_shell_command', 'replace']);
  });
  it('redacts an OAuth access token', () => {
    expect(redactSecrets(`Bearer ya29.${'A'.repeat(40)}`)).toBe('Bearer ***');
  });
});

describe('renderSummary: what network refused', () => {
  it('lists refused hosts with port, count and first time, and the dropped packets', () => {
    const md = renderSummary(
      result({
        egress: {
          mode: 'restricted',
          blocked: [
            {
              host: 'evil.example',
              port: 443,
              count: 3,
              first: '2026-12-04T14:00:00.000Z',
              why: 'not allowed',
            },
            {
              host: 'metadata.allowed.example',
              port: 80,
              count: 1,
              first: '2026-12-04T14:00:01.000Z',
              why: 'inward address',
            },
          ],
          droppedPackets: 5,
          droppedTo: [
            { address: '169.254.169.254', port: 80, count: 3 },
            { address: '::1', port: 8080, count: 1 },
          ],
        },
      }),
    );
    expect(md).toContain('| Dropped direct destination | Port | Attempts |');
    expect(md).toContain('| `169.254.169.254` | 80 | 3 |');
    expect(md).toContain('| `::1` | 8080 | 1 |');
    expect(md).toContain(
      '**Network `restricted`: 4 request(s) to 2 host(s) refused, 5 direct packet(s) dropped**',
    );
    expect(md).toContain('| `evil.example` | 443 | 3 | 2026-12-04T14:00:00.000Z | not allowed |');
    expect(md).toContain(
      '| `metadata.allowed.example` | 80 | 1 | 2026-12-04T14:00:01.000Z | resolves inside the runner |',
    );
  });

  it('says so in one line when nothing was refused, and nothing at all under open', () => {
    const quiet = renderSummary(
      result({ egress: { mode: 'none', blocked: [], droppedPackets: 0, droppedTo: [] } }),
    );
    expect(quiet).toContain('**Network `none`:** nothing the agent tried was refused.');
    expect(renderSummary(result())).not.toContain('Network');
  });
});
