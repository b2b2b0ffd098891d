/**
 * The turn's end from the TUI's window title (OSC 0): both checked CLIs turn it to `◇  Ready (<folder>)` in the
 * same render that logs `conversation_finished`, so it is the fast edge where telemetry is batched (0.61.0 writes
 * its logs every 5 s whatever OTEL_BLRP_SCHEDULE_DELAY says; compat.md "Fast edges on 0.61.0"). tmux's
 * `pane-title-changed` hook, on the run's own server, appends each title to a file this module follows.
 * Telemetry stays the fallback (a repository's .gemini/settings.json may turn the title off) and the source of
 * everything else (usage, tools, errors).
 */
import type { AgentFilePolicy } from '../util/agent-file.js';
import { LineFollower, followUntilAborted } from '../util/file-follower.js';

/** Every line starts with this, so a title beginning with '-' is never an option of echo. */
const LINE_PREFIX = 't:';
const READY = /^◇\s+Ready\b/u;

/**
 * The tmux command (for the server's single start-up invocation, before the pane's program runs) that records
 * every title change in `file`. `q:` escapes the title for sh: it is program output (with `ui.showStatusInTitle`
 * the model's thought subject), never shell code. No `-b`: tmux waits for the shell, so changes stay in order.
 */
export function titleHookCommand(file: string): string[] {
  if (/['\n]/.test(file)) throw new Error(`unsupported character in the title file path: ${file}`);
  return [
    'set-hook',
    '-g',
    'pane-title-changed',
    `run-shell "echo ${LINE_PREFIX}#{q:pane_title} >> '${file}'"`,
  ];
}

/**
 * The state the recorded titles show. The first `Ready` is start-up, not an edge; any other title after it
 * (`Working…`, a thought, `✋  Action Required`) is work; a `Ready` after work is the idle edge.
 */
export class TitleEdges {
  private sawWork = false;
  private ready = false;

  line(raw: string): void {
    if (!raw.startsWith(LINE_PREFIX)) return;
    const title = raw.slice(LINE_PREFIX.length);
    if (READY.test(title)) {
      this.ready = true;
    } else if (title.trim() !== '') {
      this.ready = false;
      this.sawWork = true;
    }
  }

  /** The TUI went idle after working. */
  get idle(): boolean {
    return this.sawWork && this.ready;
  }
}

/** Reads the title file as it grows until the signal aborts (one last read then), feeding `edges`. */
export async function followTitles(
  file: string,
  edges: TitleEdges,
  opts: { signal: AbortSignal; onChange: () => void; pollMs?: number; policy: AgentFilePolicy },
): Promise<void> {
  const lines = new LineFollower(file, {
    chunkBytes: 64 * 1024,
    maxLineBytes: 64 * 1024,
    policy: opts.policy,
  });
  const read = async (): Promise<void> => {
    const got = await lines.readLines();
    for (const l of got) edges.line(l);
    if (got.length > 0) opts.onChange();
  };
  try {
    await followUntilAborted(file, read, { signal: opts.signal, pollMs: opts.pollMs ?? 20 });
  } finally {
    await lines.close();
  }
}
