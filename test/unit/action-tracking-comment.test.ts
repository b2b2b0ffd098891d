import { describe, expect, it } from 'vitest';
import { parseBounded, walk } from '../../src/markdown/parse.js';
import { createMemoryLogger } from '../../src/util/log.js';
import {
  TRACKING_MARKER,
  TrackingComment,
  applyRunEvent,
  finishAbandoned,
  renderTracking,
  type TrackingView,
} from '../../src/action/tracking-comment.js';
import { withFakeTimers } from '../harness/fake-timers.js';
import { TEST_REPO, useFakeGitHub } from '../harness/github-fixture.js';

const fx = useFakeGitHub('ghs_tracking_token_0123456789abcdefghij');

const base: TrackingView = {
  mode: 'interactive',
  runUrl: 'https://github.com/acme/demo/actions/runs/7',
  startedAt: 0,
  turns: 0,
  tokens: 0,
  tools: [],
  toolCount: 0,
};

/** A model answer of two tokens: what clears a shown failure or wait. */
const ANSWER = {
  type: 'model-response',
  model: 'm',
  inputTokens: 1,
  outputTokens: 1,
  totalTokens: 2,
} as const;

/** The text of a rendered comment outside code and links: where GitHub would act on a mention or a URL. */
function proseOf(markdown: string): string {
  const parsed = parseBounded(markdown);
  let prose = '';
  if (parsed.kind === 'parsed')
    walk(parsed.tree, (n) => {
      if (n.type === 'link' || n.type === 'inlineCode' || n.type === 'code') return false;
      if (n.type === 'text' || n.type === 'html') prose += `${n.value}\n`;
    });
  return prose;
}

describe('the tracking view', () => {
  it("shows the model API's latest failure while working, until the model answers again; never in the final comment", () => {
    let v = applyRunEvent(base, {
      type: 'api-error',
      statusCode: 503,
      message: 'The model is `overloaded`.\n@all see https://x',
      terminalQuota: false,
    });
    const working = renderTracking(v, 5000);
    expect(working).toContain('⚠️ The model API failed a call: `HTTP 503');
    // The text is not markdown: no mention, no link, on one line (all of it inside code).
    expect(proseOf(working)).not.toMatch(/@all|https:\/\/x/);
    expect(working.split('\n').filter((l) => l.includes('⚠️'))).toHaveLength(1);
    v = applyRunEvent(v, ANSWER);
    expect(renderTracking(v, 6000)).not.toContain('⚠️');
    v = applyRunEvent(v, {
      type: 'api-error',
      message: 'the model API at h:1 failed a call: no answer',
      terminalQuota: false,
    });
    expect(renderTracking(v, 7000)).toContain('no answer');
    expect(renderTracking({ ...v, final: { status: 'model-unavailable' } }, 8000)).not.toContain('⚠️');
  });

  it('a per-minute 429 the CLI retries is a wait until the retry delay, gone when the model answers', () => {
    const at = Date.parse('2026-12-04T21:00:00Z');
    let v = applyRunEvent(
      { ...base, startedAt: at },
      {
        type: 'api-error',
        statusCode: 429,
        message:
          '{"error":{"code":429,"details":[{"violations":[{"quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"20s"}]}}',
        terminalQuota: false,
      },
      at,
    );
    const text = renderTracking(v, at + 5000);
    expect(text).toContain(
      '⏳ Waiting for quota (per-minute): the model API asked to wait; it resumes at 2026-12-04 21:00:20Z (in 15 s).',
    );
    expect(text).not.toContain('⚠️');
    v = applyRunEvent(v, ANSWER);
    expect(renderTracking(v, at + 25_000)).not.toContain('⏳');
  });

  it('folds turns, tokens and tool calls with their kind and target', () => {
    let v = applyRunEvent(base, { type: 'turn-started', at: 1 });
    v = applyRunEvent(v, { type: 'tool-started', name: 'write_file', kind: 'write', detail: 'NOTES.md' });
    v = applyRunEvent(v, { type: 'tool-completed', name: 'write_file', kind: 'write', ok: true });
    v = applyRunEvent(v, {
      type: 'model-response',
      model: 'm',
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
    });
    expect(v).toMatchObject({ turns: 1, tokens: 15, toolCount: 1 });
    const text = renderTracking(v, 65_000);
    expect(text).toContain('is working… (1 min 5 s so far)');
    expect(text).toContain('- write `write_file` `NOTES.md` ✓');
    expect(text).toContain('[Job run](https://github.com/acme/demo/actions/runs/7)');
    const done = renderTracking({ ...v, final: { status: 'finished', prUrl: 'https://x/pull/2' } }, 70_000);
    expect(done).toContain('`finished` after 1 min 10 s');
    expect(done).toContain('Pull request: https://x/pull/2');
  });
});

describe('the tracking view, when telemetry beats the transcript tail', () => {
  it("counts a call once when its completion (no call id) arrives before its start, and keeps the start's target", () => {
    // 0.42.0 flushes telemetry in 50 ms; the transcript tail polls: the completion often comes first.
    let v = applyRunEvent(base, {
      type: 'tool-completed',
      name: 'run_shell_command',
      kind: 'shell',
      ok: true,
    });
    v = applyRunEvent(v, { type: 'tool-completed', name: 'read_file', kind: 'read', ok: false });
    v = applyRunEvent(v, { type: 'tool-started', name: 'run_shell_command', kind: 'shell', detail: 'make' });
    v = applyRunEvent(v, { type: 'tool-started', name: 'read_file', kind: 'read', detail: 'a.txt' });
    // a later call of the same tool in the usual order is a second call
    v = applyRunEvent(v, { type: 'tool-started', name: 'run_shell_command', kind: 'shell', detail: 'ls' });
    v = applyRunEvent(v, { type: 'tool-completed', name: 'run_shell_command', kind: 'shell', ok: true });
    expect(v.toolCount).toBe(3);
    const lines = renderTracking(v, 1000)
      .split('\n')
      .filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      '- shell `run_shell_command` `make` ✓',
      '- read `read_file` `a.txt` ✗',
      '- shell `run_shell_command` `ls` ✓',
    ]);
  });
});

describe('the tracking view, against a hostile agent', () => {
  it("keeps a tool's target inside its code span: no mention, link or HTML of the agent's making", () => {
    const v = applyRunEvent(base, {
      type: 'tool-started',
      name: 'run_shell_command',
      kind: 'shell',
      detail: 'echo ok`\n\n@my-org/admins please merge </details><img src=x>\r\n[x](https://evil)',
    });
    const lines = renderTracking(v, 1000).split('\n');
    const line = lines.find((l) => l.includes('run_shell_command')) ?? '';
    // One list item whose text is code: the tool, then the target in one code span the target cannot close.
    expect(lines.filter((l) => l.includes('@my'))).toEqual([line]);
    const parsed = parseBounded(line);
    expect(parsed.kind).toBe('parsed');
    const item = parsed.kind === 'parsed' ? parsed.tree.children[0] : undefined;
    expect(item?.type).toBe('list');
    const kinds: string[] = [];
    if (parsed.kind === 'parsed') walk(parsed.tree, (n) => void kinds.push(n.type));
    expect(kinds).toEqual([
      'root',
      'list',
      'listItem',
      'paragraph',
      'text',
      'inlineCode',
      'text',
      'inlineCode',
    ]);
  });
});

describe('TrackingComment', () => {
  it('edits one comment, never two edits at once and at most once per interval, then finishes it', async () => {
    const issue = fx.gh.addIssue({ title: 't', user: 'alice' });
    const states: string[] = [];
    // The 40 events 25 ms apart and the edit interval run on the fake clock (test/harness/fake-timers.ts).
    const spent = await withFakeTimers(async () => {
      const t = await TrackingComment.start({
        client: fx.client,
        repo: TEST_REPO,
        number: issue,
        author: undefined,
        mode: 'headless',
        runUrl: 'https://github.com/acme/demo/actions/runs/1',
        log: createMemoryLogger(),
        intervalMs: 300,
        saveState: (v) => states.push(v),
      });
      expect(t).toBeDefined();
      const started = Date.now();
      for (let i = 0; i < 40; i++) {
        t!.onEvent({ type: 'tool-started', name: 'read_file', kind: 'read', detail: `f${i}` });
        await new Promise((r) => setTimeout(r, 25));
      }
      const spent = Date.now() - started;
      await t!.finish({ status: 'finished', prUrl: 'https://github.com/acme/demo/pull/9' });
      return spent;
    });
    const edits = fx.gh.requests.filter((r) => r.method === 'PATCH' && r.path.includes('/issues/comments/'));
    // One edit per 300 ms window at most, plus the final one.
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits.length).toBeLessThanOrEqual(Math.ceil(spent / 300) + 2);
    for (let i = 1; i < edits.length - 1; i++) {
      expect(edits[i]!.at - edits[i - 1]!.at).toBeGreaterThanOrEqual(250);
    }
    const comments = fx.gh.comments(issue);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body.startsWith(TRACKING_MARKER)).toBe(true);
    expect(comments[0]!.body).toContain('`finished`');
    expect(comments[0]!.body).toContain('Tool calls: 40');
    expect(comments[0]!.body).toContain('https://github.com/acme/demo/pull/9');
    // The post step has nothing left to finish.
    expect(states.at(-1)).toBe('');
    expect(JSON.parse(states[0]!)).toMatchObject({ commentId: comments[0]!.id });
  });

  it('a comment left working is finished by the post step as stopped', async () => {
    const issue = fx.gh.addIssue({ title: 't', user: 'alice' });
    const states: string[] = [];
    const t = await TrackingComment.start({
      client: fx.client,
      repo: TEST_REPO,
      number: issue,
      author: undefined,
      mode: 'interactive',
      runUrl: 'https://github.com/acme/demo/actions/runs/1',
      log: createMemoryLogger(),
      saveState: (v) => states.push(v),
    });
    expect(t).toBeDefined();
    expect(await finishAbandoned(fx.client, states.at(-1)!, Date.now())).toBe(true);
    expect(fx.gh.comments(issue)[0]!.body).toContain('`stopped`');
    expect(await finishAbandoned(fx.client, '', Date.now())).toBe(false);
    expect(await finishAbandoned(fx.client, '{"broken":', Date.now())).toBe(false);
  });
});

describe('renderTracking: what the network policy refused', () => {
  it('shows the live count once something was refused, nothing before', () => {
    expect(renderTracking(base, 1000)).not.toContain('Blocked');
    expect(renderTracking({ ...base, blocked: 3 }, 1000)).toMatch(/· Tokens: \d[\d,]* · Blocked: 3$/m);
  });
});
