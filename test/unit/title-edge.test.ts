import { describe, expect, it } from 'vitest';
import { TitleEdges, titleHookCommand } from '../../src/run/title-edge.js';
import { decideWall } from '../../src/run/walls.js';

/** What the hook writes for a sequence of titles (the shell has undone tmux's `q:` escaping). */
function feed(titles: string[]): TitleEdges {
  const edges = new TitleEdges();
  for (const t of titles) edges.line(`t:${t}`);
  return edges;
}

describe('TitleEdges', () => {
  it('the start-up Ready is not an edge; Ready after work is', () => {
    expect(feed(['◇  Ready (repo)']).idle).toBe(false);
    expect(feed(['◇  Ready (repo)', '✦  Working… (repo)']).idle).toBe(false);
    expect(feed(['◇  Ready (repo)', '✦  Working… (repo)', '◇  Ready (repo)']).idle).toBe(true);
  });
  it('an approval wait or a thought keeps it working; repeated titles change nothing', () => {
    const e = feed(['◇  Ready (repo)', '✦  Working… (repo)', '✋  Action Required (repo)']);
    expect(e.idle).toBe(false);
    e.line('t:◇  Ready (repo)');
    e.line('t:◇  Ready (repo)');
    expect(e.idle).toBe(true);
  });
  it('ignores lines the hook did not write and empty titles', () => {
    const e = feed(['◇  Ready (repo)', '✦  Working… (repo)']);
    e.line('◇  Ready (repo)');
    e.line('t:');
    expect(e.idle).toBe(false);
  });
});

describe('titleHookCommand', () => {
  it('escapes the title for the shell and refuses a path it cannot quote', () => {
    const [, , hook, cmd] = titleHookCommand('/run/dir/titles-0');
    expect(hook).toBe('pane-title-changed');
    expect(cmd).toContain('#{q:pane_title}');
    expect(cmd).not.toContain('-b');
    expect(() => titleHookCommand("/run/it's")).toThrow();
  });
});

describe('decideWall with the title edge', () => {
  const base = {
    events: [{ kind: 'turn-started' as const, at: 1 }],
    pane: { dead: false, exitCode: null },
    screen: [],
    elapsedMs: 1000,
    timeoutMs: 60_000,
    sessionRetries: 0,
  };
  it('quits on the title edge before telemetry shows the idle', () => {
    expect(decideWall(base)).toEqual({ action: 'wait' });
    expect(decideWall({ ...base, titleIdle: true })).toEqual({ action: 'quit', status: 'finished' });
  });
  it('after the Escape, the title edge ends the timeout with a quit', () => {
    const escaped = { ...base, escapeSentAtMs: 60_000, elapsedMs: 61_000 };
    expect(decideWall(escaped)).toEqual({ action: 'wait' });
    expect(decideWall({ ...escaped, titleIdle: true })).toMatchObject({
      action: 'quit',
      status: 'timed-out',
    });
  });
});
