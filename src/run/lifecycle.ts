/**
 * What both mode runners do around one spawn, whatever drives gemini (a pipe or a tmux pane): follow its
 * telemetry file, fence the model before stopping the agent at a wall of ours (timeout, budget), and log a crash
 * with the last lines gemini showed.
 */
import { followTelemetry, type TelemetryEvent } from '../gemini/telemetry.js';
import { AGENT_FILE_LIMITS } from '../util/agent-file.js';
import { getErrorMessage } from '../util/errors.js';
import { neutralize } from '../util/untrusted-text.js';
import type { SpawnContext } from './attempt.js';

export class SpawnLifecycle {
  /** Every telemetry event of this spawn so far, in order. */
  readonly events: TelemetryEvent[] = [];
  /** Set by the first fenceThenStop: the runner is stopping the agent. */
  stopping = false;
  private readonly following = new AbortController();
  private telemetry: Promise<void> | undefined;

  constructor(private readonly ctx: SpawnContext) {}

  /** Ends every follower of this spawn (the telemetry one, and any other given it). */
  get signal(): AbortSignal {
    return this.following.signal;
  }

  /** Follows the spawn's telemetry file into `events`; onBatch runs after each batch is added. */
  followTelemetry(file: string, onBatch: (batch: TelemetryEvent[]) => void): void {
    const log = this.ctx.opts.log;
    this.telemetry = followTelemetry(
      file,
      (batch) => {
        this.events.push(...batch);
        onBatch(batch);
      },
      { signal: this.following.signal, policy: this.ctx.agentFile(AGENT_FILE_LIMITS.telemetry) },
    ).catch((e: unknown) => log.warning(`telemetry follower stopped: ${getErrorMessage(e)}`));
  }

  /** Stops the followers (at once) and waits for the telemetry one to read the last records. */
  async stopFollowing(): Promise<void> {
    this.following.abort();
    await this.telemetry;
  }

  /**
   * The first stop of the agent by a wall of ours: the model is fenced before the agent is told, so nothing it
   * still sends reaches the model; returns what `stop` does. Later calls do nothing (the agent is being stopped).
   */
  fenceThenStop<T>(warning: string, stop: () => T): T | undefined {
    if (this.stopping) return undefined;
    this.stopping = true;
    this.ctx.opts.log.warning(warning);
    this.ctx.opts.fenceModel?.();
    return stop();
  }

  /** gemini crashed: its words on one line, then what it last showed (`label`) as a block no command is read in. */
  logCrash(message: string, label: string, lastLines: string[] | undefined): void {
    const log = this.ctx.opts.log;
    log.error(`gemini crashed: ${neutralize(message)}`);
    // The agent's and the model's words: a block the runner reads no command in.
    if (lastLines) log.untrusted(label, lastLines.join('\n'));
  }
}
