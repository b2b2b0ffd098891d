/**
 * Which part failed when something threw where no status of the run's own says it: GitHub's API, the runner's
 * disk, the network, the Gemini CLI, or gemini-run itself. Read from what was thrown (Octokit's request errors
 * carry the request; node's and git's carry the errno or its words), never guessed from the phase alone: the
 * permission check fails on GitHub, a fetch into a read-only checkout on the disk.
 */
import type { FailedPart } from '../domain/status.js';
import { getErrorMessage, isUnreachable, oneLine } from '../util/errors.js';

/** The errno codes, and git's and coreutils' words for them, of a write the disk refused. */
const WRITE_REFUSED = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM']);
const WRITE_REFUSED_WORDS =
  /Read-only file system|No space left on device|Disk quota exceeded|Permission denied|Operation not permitted/i;

/** The error and its causes, outermost first (bounded: a cause may point back at itself). */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && out.length < 6;) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/** An Octokit RequestError: the request it made, and the status GitHub (or the retry plugin) gave. */
function isGitHubRequest(e: unknown): boolean {
  const request = (e as { request?: { url?: unknown; method?: unknown } } | null)?.request;
  return typeof request?.url === 'string' && typeof request.method === 'string';
}

/** Pure. `fallback`: the part that was running when it threw (the engine's throw is gemini's run). */
export function failedPartOf(error: unknown, fallback: FailedPart): FailedPart {
  const all = chain(error);
  if (all.some(isGitHubRequest)) return 'github';
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  if (all.some((e) => WRITE_REFUSED.has(String(code(e))))) return 'workspace';
  const words = all.map(getErrorMessage).join(' | ');
  if (WRITE_REFUSED_WORDS.test(words)) return 'workspace';
  if (isUnreachable(words)) return 'network';
  return fallback;
}

/**
 * The one line a failure is told in: its message, and for a request to GitHub which one it was ("bad port" alone
 * says nothing). The URL is the API's, with no credential in it (the token travels in a header).
 */
export function failureLine(error: unknown): string {
  const message = oneLine(getErrorMessage(error));
  const request = chain(error).find(isGitHubRequest) as
    { request: { method: string; url: string } } | undefined;
  if (!request) return message;
  const url = request.request.url.split('?')[0] ?? '';
  return message.includes(url) ? message : `${message} (${request.request.method} ${url})`;
}
