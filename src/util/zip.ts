/**
 * Reading a zip archive through its central directory, from the whole archive or from pieces of it: the directory
 * from the archive's last bytes, then one entry from its local header on (a workflow artifact is read by ranges, so
 * one small file of it costs kilobytes, not the archive). Stored and deflated entries; no zip64 (GitHub's artifact
 * zips of a run's few files never need it). Every size is bounded: an archive is someone else's bytes.
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  /** Where the entry's local header starts in the archive. */
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end record's size without its comment, and the longest comment it can have. */
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** How many of an archive's last bytes always hold its end record. */
export const ZIP_TAIL_BYTES = EOCD_SIZE + MAX_COMMENT;

/** Not a zip this reader reads (truncated, corrupt, zip64, another method). */
export class ZipError extends Error {
  override readonly name = 'ZipError';
}

/**
 * The entries of an archive from a buffer holding its bytes from offset `at` to its end. When the central directory
 * starts before `at`, the answer is where it starts: read from there and ask again.
 */
export function zipDirectory(tail: Buffer, at = 0): { entries: ZipEntry[] } | { readFrom: number } {
  let eocd = -1;
  for (let i = tail.length - EOCD_SIZE; i >= Math.max(0, tail.length - ZIP_TAIL_BYTES); i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a zip archive: no end of central directory');
  const count = tail.readUInt16LE(eocd + 10);
  const size = tail.readUInt32LE(eocd + 12);
  const offset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff)
    throw new ZipError('a zip64 archive: not read');
  if (offset < at) return { readFrom: offset };
  const entries: ZipEntry[] = [];
  let p = offset - at;
  for (let n = 0; n < count; n++) {
    if (p + 46 > tail.length || tail.readUInt32LE(p) !== CENTRAL)
      throw new ZipError('corrupt zip: a central directory entry is not where the directory says');
    const nameLen = tail.readUInt16LE(p + 28);
    const extraLen = tail.readUInt16LE(p + 30);
    const commentLen = tail.readUInt16LE(p + 32);
    entries.push({
      method: tail.readUInt16LE(p + 10),
      compressedSize: tail.readUInt32LE(p + 20),
      size: tail.readUInt32LE(p + 24),
      localOffset: tail.readUInt32LE(p + 42),
      name: tail.subarray(p + 46, p + 46 + nameLen).toString('utf8'),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return { entries };
}

/**
 * The bytes from an entry's local header on that hold the whole entry, at most: the header, a name and an extra
 * field of up to 64 KiB each, and the data. To read before `entryBytes` says exactly how many.
 */
export function entrySpan(entry: ZipEntry): number {
  return 30 + 2 * 0xffff + entry.compressedSize;
}

/**
 * The entry's contents from a buffer that starts at its local header; undefined when the buffer ends before the
 * entry does. Throws past `maxBytes` uncompressed.
 */
export function entryContents(local: Buffer, entry: ZipEntry, maxBytes: number): Buffer | undefined {
  if (local.length < 30) return undefined;
  if (local.readUInt32LE(0) !== LOCAL) throw new ZipError(`corrupt zip: no local header for ${entry.name}`);
  const start = 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (local.length < start + entry.compressedSize) return undefined;
  if (entry.size > maxBytes)
    throw new ZipError(`${entry.name} is ${entry.size} bytes, more than ${maxBytes}`);
  const data = local.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method !== 8) throw new ZipError(`${entry.name}: compression method ${entry.method} is not read`);
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch (e) {
    throw new ZipError(`${entry.name} does not inflate: ${(e as Error).message}`);
  }
}
