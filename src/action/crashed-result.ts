import { emptyTranscript } from '../gemini/transcript-fold.js';
import { summarizeUsage } from '../gemini/telemetry.js';
import { filesChanged, listCommits } from '../git/commits.js';
import { Git } from '../git/git.js';
import type { RunMode } from '../domain/types.js';
import type { FailedPart } from '../domain/status.js';
import type { RunResult } from '../run/types.js';

/**
 * The result of a run whose engine threw after the agent may have worked: `crashed`, with whatever the agent
 * committed, so the publish and report phases still push it and tell the issue.
 */
export async function crashedResult(o: {
  /** The action's own repository (the vault): whatever the engine took of the agent's commits. */
  repo: string;
  baseSha: string;
  mode: RunMode;
  message: string;
  failedPart: FailedPart;
  startedAt: Date;
}): Promise<RunResult> {
  const git = Git.forUntrusted(o.repo);
  const head = (await git.tryRevParse('HEAD')) ?? o.baseSha;
  const commits = await listCommits(o.repo, o.baseSha, head).catch(() => []);
  return {
    status: 'crashed',
    message: o.message,
    failedPart: o.failedPart,
    mode: o.mode,
    sessionId: '',
    transcript: emptyTranscript(),
    usage: summarizeUsage([]),
    exitCode: null,
    startedAt: o.startedAt.toISOString(),
    durationMs: Date.now() - o.startedAt.getTime(),
    geminiLifetimeMs: 0,
    baseSha: o.baseSha,
    headSha: head,
    commits: commits.map((c) => ({ sha: c.sha, subject: c.subject })),
    filesChanged: await filesChanged(o.repo, o.baseSha, head).catch(() => []),
    leftoverCommitted: false,
  };
}
