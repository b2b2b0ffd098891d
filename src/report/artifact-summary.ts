/**
 * One artifact's run-summary.json, read by ranges: GitHub answers the download with a redirect to a signed blob
 * URL (which takes no token and serves byte ranges); the archive's central directory comes from its last bytes and
 * the entry from its local header on, so a run whose transcript is megabytes costs a few kilobytes. A host that
 * ignores ranges sends the whole archive, read up to a bound.
 */
import { HttpClient } from '@actions/http-client';
import type { GitHubClient, RepoRef } from '../github/client.js';
import { getErrorMessage, oneLine } from '../util/errors.js';
import { entryContents, entrySpan, zipDirectory, ZIP_TAIL_BYTES, type ZipEntry } from '../util/zip.js';

export const SUMMARY_FILE = 'run-summary.json';
/** A run summary is a few kilobytes; anything this large is not one. */
const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;
/** Archives up to this size are fetched whole (one request); larger ones by ranges. */
const WHOLE_BELOW = 256 * 1024;
/** The most of an archive read when its host ignores ranges. */
const MAX_WHOLE_ARCHIVE = 64 * 1024 * 1024;
/** The first read of a large archive's end: its directory of a few entries is far smaller. */
const FIRST_TAIL = 16 * 1024;

export type ArtifactRead =
  | { kind: 'summary'; text: string }
  /** The archive has no run-summary.json. */
  | { kind: 'none' }
  /** GitHub says it expired or is gone (410, 404). */
  | { kind: 'gone'; why: string };

/** Why an archive could not be read (a transient failure or a corrupt archive): not cached, said. */
export class ArtifactUnreadable extends Error {
  override readonly name = 'ArtifactUnreadable';
}

interface Bytes {
  data: Buffer;
  /** Where `data` starts in the archive. */
  at: number;
  /** The archive's size, as the host says it. */
  total: number;
}

/** A signed blob URL's bytes: all of them, or a range; no token goes with it. */
class Blob {
  private readonly http = new HttpClient('gemini-run-report', [], {
    socketTimeout: 60_000,
    allowRetries: true,
    maxRetries: 2,
  });

  constructor(private readonly url: string) {}

  async read(range?: { from: number; to: number }): Promise<Bytes> {
    const res = await this.http.get(this.url, range ? { range: `bytes=${range.from}-${range.to}` } : {});
    const status = res.message.statusCode ?? 0;
    if (status !== 200 && status !== 206) {
      res.message.resume();
      throw new ArtifactUnreadable(`the artifact's storage answered ${status}`);
    }
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of res.message as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > MAX_WHOLE_ARCHIVE) {
        res.message.destroy();
        throw new ArtifactUnreadable(
          `the archive is larger than ${MAX_WHOLE_ARCHIVE} bytes and its host sends it whole`,
        );
      }
      chunks.push(chunk);
    }
    const data = Buffer.concat(chunks);
    if (status === 200) return { data, at: 0, total: data.length };
    const m = /^bytes (\d+)-\d+\/(\d+)$/.exec(String(res.message.headers['content-range'] ?? ''));
    if (!m)
      throw new ArtifactUnreadable(
        "the artifact's storage answered a range without its place in the archive",
      );
    return { data, at: Number(m[1]), total: Number(m[2]) };
  }

  dispose(): void {
    this.http.dispose();
  }
}

/** The bytes from `from` to the archive's end, or to `to`, reusing what is already read. */
async function span(blob: Blob, have: Bytes, from: number, to: number): Promise<Bytes> {
  const end = Math.min(to, have.total - 1);
  if (from >= have.at && end < have.at + have.data.length) return have;
  return blob.read({ from, to: end });
}

/** The archive's entries: from its end, read again further back when the directory starts earlier. */
async function directory(blob: Blob, size: number): Promise<{ entries: ZipEntry[]; bytes: Bytes }> {
  let bytes =
    size <= WHOLE_BELOW
      ? await blob.read()
      : await blob.read({ from: Math.max(0, size - FIRST_TAIL), to: size - 1 });
  for (let tries = 0; tries < 3; tries++) {
    let dir: ReturnType<typeof zipDirectory> | undefined;
    try {
      dir = zipDirectory(bytes.data, bytes.at);
    } catch (e) {
      // The end record may lie further back (a long archive comment), or the size GitHub listed was not the blob's.
      if (bytes.at === 0) throw e;
    }
    if (dir && 'entries' in dir) return { entries: dir.entries, bytes };
    const from = dir ? dir.readFrom : Math.max(0, bytes.total - ZIP_TAIL_BYTES);
    bytes = await blob.read({ from, to: bytes.total - 1 });
  }
  throw new ArtifactUnreadable("the archive's directory could not be found");
}

async function readAt(url: string, size: number): Promise<ArtifactRead> {
  const blob = new Blob(url);
  try {
    const { entries, bytes } = await directory(blob, size);
    const entry = entries.find((e) => e.name === SUMMARY_FILE);
    if (!entry) return { kind: 'none' };
    let local = await span(
      blob,
      bytes,
      entry.localOffset,
      entry.localOffset + 30 + entry.name.length + 1024 + entry.compressedSize,
    );
    let contents = entryContents(local.data.subarray(entry.localOffset - local.at), entry, MAX_SUMMARY_BYTES);
    if (!contents) {
      local = await span(blob, local, entry.localOffset, entry.localOffset + entrySpan(entry));
      contents = entryContents(local.data.subarray(entry.localOffset - local.at), entry, MAX_SUMMARY_BYTES);
    }
    if (!contents) throw new ArtifactUnreadable(`${SUMMARY_FILE} runs past the end of the archive`);
    return { kind: 'summary', text: contents.toString('utf8') };
  } finally {
    blob.dispose();
  }
}

/**
 * The run-summary.json of artifact `id` (`size` bytes as listed). Throws ArtifactUnreadable when it cannot be read
 * now (the storage failed, the archive is corrupt).
 */
export async function readArtifactSummary(
  client: GitHubClient,
  repo: RepoRef,
  artifact: { id: number; size: number },
): Promise<ArtifactRead> {
  let location: string | undefined;
  try {
    const r = await client.rest.actions.downloadArtifact({
      ...repo,
      artifact_id: artifact.id,
      archive_format: 'zip',
      request: { redirect: 'manual' },
    });
    location = (r.headers as Record<string, string | undefined>).location;
  } catch (e) {
    const status = (e as { status?: unknown }).status;
    if (status === 410) return { kind: 'gone', why: 'expired' };
    if (status === 404) return { kind: 'gone', why: 'deleted' };
    throw new ArtifactUnreadable(`GitHub refused the download: ${oneLine(getErrorMessage(e))}`);
  }
  if (!location) throw new ArtifactUnreadable('GitHub answered the download without a location');
  try {
    return await readAt(location, artifact.size);
  } catch (e) {
    if (e instanceof ArtifactUnreadable) throw e;
    throw new ArtifactUnreadable(`the archive could not be read: ${(e as Error).message}`);
  }
}
