/**
 * The engine's collect phase: the session file is copied into the run dir as data (util/agent-file.ts) and
 * folded; what the mode runner heard itself (a headless stream's answer, tool calls and totals) fills what the
 * transcript and telemetry lack.
 */
import { basename, join } from 'node:path';
import type { FoldedTranscript } from '../../domain/types.js';
import { summarizeUsage } from '../../gemini/telemetry.js';
import { emptyTranscript, foldTranscriptFile } from '../../gemini/transcript-fold.js';
import {
  AGENT_FILE_LIMITS,
  AgentFileRefused,
  copyAgentFile,
  ownFile,
  type AgentFilePolicy,
} from '../../util/agent-file.js';
import { getErrorMessage } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import type { AtCollect, Collected } from '../engine-record.js';

const TRANSCRIPT_COPY = 'transcript.jsonl';

/**
 * The run's own copy of the session file (in the run dir), read from the agent's file as
 * util/agent-file.ts checks it: everything after (the fold, the artifact, the store, a follow-up's restore)
 * reads this copy. A file that is refused (a link, a hard link, not a regular file…) is skipped with a warning
 * and never published. The kept copy (of a file the CLI deleted) is already ours, in the run dir.
 */
async function snapshotTranscript(o: {
  located: string | undefined;
  kept: string | undefined;
  agentFile: (maxBytes: number) => AgentFilePolicy;
  runDir: string;
  log: Logger;
}): Promise<string | undefined> {
  const from = o.located ?? o.kept;
  if (from === undefined) return undefined;
  const policy =
    o.located !== undefined
      ? o.agentFile(AGENT_FILE_LIMITS.transcript)
      : ownFile(o.kept ?? from, AGENT_FILE_LIMITS.transcript);
  // The copy keeps the session file's own name (a follow-up restores it under that name), when it is one.
  const own = basename(from);
  const dest = join(o.runDir, /^session-[\w-]+\.jsonl?$/.test(own) ? own : TRANSCRIPT_COPY);
  try {
    await copyAgentFile(from, dest, policy);
    return dest;
  } catch (e) {
    if (e instanceof AgentFileRefused) o.log.warning(`skipped the transcript ${e.message}`);
    else o.log.warning(`could not read the transcript ${from}: ${getErrorMessage(e)}`);
    return undefined;
  }
}

async function fold(path: string | undefined, log: Logger): Promise<FoldedTranscript> {
  if (!path) return emptyTranscript();
  try {
    const transcript = await foldTranscriptFile(path);
    if (transcript.skippedRecords) {
      log.warning(`skipped ${transcript.skippedRecords} transcript record(s) too large to read safely`);
    }
    return transcript;
  } catch (e) {
    log.warning(`could not read the transcript ${path}: ${getErrorMessage(e)}`);
    return emptyTranscript();
  }
}

export async function collect(r: AtCollect): Promise<Collected> {
  const { outcome, log } = r;
  const transcriptPath = await snapshotTranscript({
    located: await r.transcriptOf(outcome.sessionId).catch(() => undefined),
    kept: outcome.keptTranscript,
    agentFile: r.agentFile,
    runDir: r.opts.runDir,
    log,
  });
  let transcript = await fold(transcriptPath, log);
  if (!transcript.finalAnswer && outcome.answer) transcript = { ...transcript, finalAnswer: outcome.answer };
  if (transcript.toolCalls.length === 0 && outcome.toolCalls?.length) {
    transcript = { ...transcript, toolCalls: outcome.toolCalls };
  }
  const usage = summarizeUsage(outcome.events);
  return {
    transcriptPath,
    transcript,
    usage: usage.models.length === 0 && outcome.usage ? outcome.usage : usage,
  };
}
