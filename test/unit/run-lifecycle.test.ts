import { describe, expect, it } from 'vitest';
import type { SpawnContext } from '../../src/run/attempt.js';
import { SpawnLifecycle } from '../../src/run/lifecycle.js';
import { WatchState } from '../../src/run/watch-state.js';
import { createMemoryLogger } from '../../src/util/log.js';

/** The lifecycle reads only the log and the fence of the run's options. */
function lifecycle(): { life: SpawnLifecycle; order: string[]; log: ReturnType<typeof createMemoryLogger> } {
  const log = createMemoryLogger();
  const order: string[] = [];
  const ctx = { opts: { log, fenceModel: () => order.push('fence') } } as unknown as SpawnContext;
  return { life: new SpawnLifecycle(ctx), order, log };
}

describe('SpawnLifecycle', () => {
  it('fences the model before it stops the agent, and only the first time', () => {
    const { life, order, log } = lifecycle();
    expect(life.stopping).toBe(false);
    expect(life.fenceThenStop('timeout after 5 s: stopping', () => (order.push('stop'), 'stopped'))).toBe(
      'stopped',
    );
    expect(life.stopping).toBe(true);
    expect(life.fenceThenStop('token budget of 10 reached', () => order.push('again'))).toBeUndefined();
    expect(order).toEqual(['fence', 'stop']);
    expect(log.lines).toEqual(['warning: timeout after 5 s: stopping']);
  });

  it("logs a crash on one line and gemini's last lines as a block, when there are any", () => {
    const { life, log } = lifecycle();
    life.logCrash('exit 1\n::warning::x', 'The last lines:', ['a', 'b']);
    life.logCrash('again', 'The last lines:', undefined);
    expect(log.lines[0]).toMatch(/^error: gemini crashed: exit 1/);
    expect(log.lines[0]).not.toContain('\n');
    expect(log.lines.slice(1)).toEqual(['The last lines:', '  | a', '  | b', 'error: gemini crashed: again']);
  });

  it('stops following before any follower started', async () => {
    const { life } = lifecycle();
    await life.stopFollowing();
    expect(life.signal.aborted).toBe(true);
  });
});

describe('WatchState', () => {
  it('gives decideWall no Escape fields until the first Escape, then the first, the latest and the count', () => {
    const s = new WatchState();
    expect(s.escapeInput()).toEqual({});
    s.escaped(1000);
    expect(s.escapeInput()).toEqual({ escapeSentAtMs: 1000, lastEscapeAtMs: 1000, escapesSent: 1 });
    s.escaped(2500);
    expect(s.escapeInput()).toEqual({ escapeSentAtMs: 1000, lastEscapeAtMs: 2500, escapesSent: 2 });
  });

  it("sees the pane's death and a screen-only wall once each", () => {
    const s = new WatchState();
    expect(s.paneDied(10)).toBe(true);
    expect(s.paneDied(20)).toBe(false);
    expect(s.deadAt).toBe(10);
    expect(s.screenWallFirstSeen()).toBe(true);
    expect(s.screenWallFirstSeen()).toBe(false);
  });
});
