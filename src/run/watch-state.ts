/**
 * What the interactive runner's watch loop carries from one tick to the next, besides telemetry and the window
 * title: the last screen, the Escapes it sent, and the two edges it waits a moment after (the pane's death, a
 * wall only the screen shows). Each change is a named transition, so the loop holds no loose variables.
 */
import type { WallInput } from './walls.js';

export class WatchState {
  /** The latest capture (one per second, and on the pane's death): set through `captured`. */
  screen: string[] = [];
  /** When the pane was first seen dead: the agent's lifetime ends there. */
  deadAt: number | undefined;
  /** The first Escape (the timeout's or the budget's), the latest one, and how many: ms since the spawn. */
  private escapes: { firstAtMs: number; lastAtMs: number; count: number } | undefined;
  private screenWallSeen = false;
  /** When the screen or the telemetry count last changed (ms since the epoch), and the count then. */
  private lastChange = { at: Date.now(), events: 0 };

  /** The pane is dead: true the first time only (the caller lets the followers read the last records). */
  paneDied(now: number): boolean {
    if (this.deadAt !== undefined) return false;
    this.deadAt = now;
    return true;
  }

  /** A wall only the screen shows: true the first time only (the caller gives telemetry a moment). */
  screenWallFirstSeen(): boolean {
    if (this.screenWallSeen) return false;
    this.screenWallSeen = true;
    return true;
  }

  /** One Escape was sent `elapsedMs` after the spawn. */
  escaped(elapsedMs: number): void {
    if (this.escapes) {
      this.escapes.lastAtMs = elapsedMs;
      this.escapes.count++;
    } else {
      this.escapes = { firstAtMs: elapsedMs, lastAtMs: elapsedMs, count: 1 };
    }
  }

  /** A new capture, taken at `now`: a screen unlike the last one is a change. */
  captured(screen: string[], now: number): void {
    if (screen.length !== this.screen.length || screen.some((l, i) => l !== this.screen[i])) {
      this.lastChange.at = now;
    }
    this.screen = screen;
  }

  /** How long neither the screen nor the telemetry count (`events`, now) has changed. */
  stillFor(now: number, events: number): number {
    if (events !== this.lastChange.events) this.lastChange = { at: now, events };
    return now - this.lastChange.at;
  }

  /** The Escapes as decideWall reads them: nothing until the first one. */
  escapeInput(): Pick<WallInput, 'escapeSentAtMs' | 'lastEscapeAtMs' | 'escapesSent'> {
    if (!this.escapes) return {};
    const { firstAtMs, lastAtMs, count } = this.escapes;
    return { escapeSentAtMs: firstAtMs, lastEscapeAtMs: lastAtMs, escapesSent: count };
  }
}
