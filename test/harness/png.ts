/**
 * Decodes the PNGs a headless browser's screenshot gives (8-bit RGB or RGBA, not interlaced) into pixels, to tell
 * a drawn chart from a blank area. Only what Chromium writes; anything else is refused.
 */
import { inflateSync } from 'node:zlib';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  rgba: Buffer;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Buffer): Pixels {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let p = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (p < png.length) {
    const length = png.readUInt32BE(p);
    const type = png.toString('latin1', p + 4, p + 8);
    const data = png.subarray(p + 8, p + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
        throw new Error(`a PNG of depth ${depth}, colour type ${colour}, interlace ${interlace} is not read`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    p += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(width * height * 4);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? line[x - channels]! : 0;
      const up = prev[x]!;
      const upLeft = x >= channels ? prev[x - channels]! : 0;
      const add = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      if (add === undefined) throw new Error(`unknown PNG filter ${filter}`);
      line[x] = (line[x]! + add) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) out[(y * width + x) * 4 + c] = line[x * channels + c]!;
      out[(y * width + x) * 4 + 3] = channels === 4 ? line[x * channels + 3]! : 255;
    }
    prev = line;
  }
  return { width, height, rgba: out };
}

/** How much of an image is drawn on: the share of pixels not (near) white, and how many colours it has. */
export function ink(px: Pixels): { share: number; colours: number } {
  let drawn = 0;
  const colours = new Set<number>();
  for (let i = 0; i < px.width * px.height; i++) {
    const [r, g, b] = [px.rgba[i * 4]!, px.rgba[i * 4 + 1]!, px.rgba[i * 4 + 2]!];
    if (r < 235 || g < 235 || b < 235) drawn++;
    colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
  }
  return { share: drawn / (px.width * px.height), colours: colours.size };
}
