import { mkdir, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AGENT_FILE_LIMITS, copyAgentFile, ownFile } from '../util/agent-file.js';
import type { RepoRef } from '../github/client.js';
import type { SessionRecord } from './pr-text.js';

/** What the store needs of a session record to find its transcript. */
type StoredRun = Pick<SessionRecord, 'runId' | 'artifact'>;
import { pathExists } from '../util/fs.js';
import { getErrorMessage, oneLine } from '../util/errors.js';

/**
 * Where runs keep their transcript (plus the run summary) so a later `/gemini` comment can continue the
 * session. On GitHub-hosted runners that is a workflow artifact; a self-hosted runner can keep them in a local
 * directory instead (GEMINI_RUN_TRANSCRIPT_STORE), which also needs no `actions: read` permission.
 */
export interface TranscriptStore {
  /** Saves the files under `name`; returns a description, or undefined when no store is available. */
  save(name: string, files: string[], rootDir: string): Promise<string | undefined>;
  /**
   * Fetches the transcript a record points at into destDir; undefined when it cannot be found. Throws
   * TranscriptUnavailableError when the store answered why it cannot have it (permission, expiry).
   */
  load(record: StoredRun, destDir: string): Promise<string | undefined>;
}

const TRANSCRIPT_FILE = 'transcript.jsonl';

/** How long a run's transcript artifact is kept (GitHub caps it at the repository's own retention setting). */
const TRANSCRIPT_RETENTION_DAYS = 30;

/** The previous transcript exists somewhere but cannot be had; the message says why and what to do, in one line. */
class TranscriptUnavailableError extends Error {
  override readonly name = 'TranscriptUnavailableError';
}

/**
 * Why fetching the artifact of `record` failed, for the follow-up's comment: the REST status GitHub answered
 * (403 without `actions: read`, 404 once the run is gone, 410 once the artifact expired) or the client's error.
 * Exported for tests.
 */
export function describeArtifactFailure(error: unknown, record: StoredRun): string {
  const status = (error as { status?: unknown } | null)?.status;
  const artifact = `the transcript artifact '${record.artifact}' of run ${record.runId}`;
  if (status === 403 || status === 401) {
    return `GitHub refused to list the artifacts of run ${record.runId} (${status}): give the workflow 'permissions: actions: read' so that a follow-up can continue the session.`;
  }
  if (status === 404) return `run ${record.runId} and its artifacts no longer exist on GitHub (404).`;
  if (status === 410) {
    return `${artifact} has expired (410); transcripts are kept ${TRANSCRIPT_RETENTION_DAYS} days.`;
  }
  if (error instanceof Error && error.name === 'ArtifactNotFoundError') {
    return `${artifact} was not found: it expired, was deleted or was never uploaded.`;
  }
  // Signed blob URLs carry their signature in the query: never repeat one.
  const message = oneLine(getErrorMessage(error)).replace(/(https?:\/\/[^\s?]+)\?\S*/g, '$1');
  return `${artifact} could not be fetched: ${message}`;
}

/**
 * Transcripts in a directory of the runner host, one subdirectory per repository (`<dir>/<owner>/<repo>/<name>`):
 * a runner serving several repositories never hands one repository's transcript to another's run.
 */
export function localTranscriptStore(root: string, repo: RepoRef): TranscriptStore {
  const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  const dir = join(root, safe(repo.owner.toLowerCase()), safe(repo.repo.toLowerCase()));
  return {
    async save(name, files) {
      const target = join(dir, safe(name));
      await mkdir(target, { recursive: true });
      // Each file is the run's own copy; read as data all the same (no link is followed, none is stored).
      for (const f of files)
        await copyAgentFile(f, join(target, basename(f)), ownFile(f, AGENT_FILE_LIMITS.transcript));
      return `${target}`;
    },
    async load(record, destDir) {
      const file = join(dir, safe(record.artifact), TRANSCRIPT_FILE);
      if (!(await pathExists(file))) return undefined;
      await mkdir(destDir, { recursive: true });
      const out = join(destDir, TRANSCRIPT_FILE);
      await copyAgentFile(file, out, ownFile(file, AGENT_FILE_LIMITS.transcript));
      return out;
    },
  };
}

/** The artifact client, loaded on use: it and the Azure SDK behind it are evaluated only by a run that saves or loads. */
async function artifactClient() {
  const { DefaultArtifactClient } = await import('@actions/artifact');
  return new DefaultArtifactClient();
}

export function artifactTranscriptStore(o: {
  token: string;
  repo: RepoRef;
  env: NodeJS.ProcessEnv;
}): TranscriptStore {
  const available = () => Boolean(o.env.ACTIONS_RUNTIME_TOKEN && o.env.ACTIONS_RESULTS_URL);
  return {
    async save(name, files, rootDir) {
      if (!available()) return undefined;
      const { id } = await (
        await artifactClient()
      ).uploadArtifact(name, files, rootDir, {
        retentionDays: TRANSCRIPT_RETENTION_DAYS,
      });
      return `artifact ${name}${id ? ` (id ${id})` : ''}`;
    },
    async load(record, destDir) {
      if (!available()) return undefined;
      const findBy = {
        token: o.token,
        workflowRunId: Number(record.runId),
        repositoryOwner: o.repo.owner,
        repositoryName: o.repo.repo,
      };
      const client = await artifactClient();
      try {
        const { artifact } = await client.getArtifact(record.artifact, { findBy });
        await client.downloadArtifact(artifact.id, { path: destDir, findBy });
      } catch (error) {
        throw new TranscriptUnavailableError(describeArtifactFailure(error, record));
      }
      const hit = (await readdir(destDir)).find((f) => f === TRANSCRIPT_FILE);
      return hit ? join(destDir, hit) : undefined;
    },
  };
}
