import { crc32, deflateRawSync } from 'node:zlib';
import { entryContents, zipDirectory, ZipError } from '../../src/util/zip.js';

/** Every entry of a whole archive (read as the report reads an artifact's, through its central directory). */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const dir = zipDirectory(zip);
  if (!('entries' in dir)) throw new ZipError('corrupt zip: the directory starts before the archive');
  const out = new Map<string, Buffer>();
  for (const e of dir.entries) {
    const contents = entryContents(zip.subarray(e.localOffset), e, 512 * 1024 * 1024);
    if (!contents) throw new ZipError(`corrupt zip: ${e.name} runs past the end of the archive`);
    out.set(e.name, contents);
  }
  return out;
}

/**
 * A zip archive of `files`, deflated as an artifact upload's are (each entry's sizes in its local header and in the
 * central directory, no data descriptor), so tests can make artifacts without the artifact client.
 */
export function writeZip(files: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, contents] of Object.entries(files)) {
    const data = Buffer.isBuffer(contents) ? contents : Buffer.from(contents, 'utf8');
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
