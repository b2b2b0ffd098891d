/**
 * Agent-made data at the sizes that used to exhaust the action's heap (issue 39), and the parsers run over it once
 * in a fresh process, so that the kernel's high-water mark of that process is what the parse cost
 * (test/bench/lib.ts peakRssMb). Used by test/integration/agent-data-memory.test.ts (which holds the bound) and
 * test/bench/agent-data.bench.ts (which prints the figures).
 *
 * `node --import tsx test/harness/agent-data.ts --rss-side=<side> [args]`: `fold <file>`, `resumable <file>`,
 * `stream <line MB> <array elements>`, `telemetry <object MB>`, or `idle` (the same imports, nothing run). Each
 * prints one `result <json>` line of what the parser made of the data, then `maxrss-kb <n>`.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StreamJsonTranslator } from '../../src/gemini/headless.js';
import { TelemetryScanner } from '../../src/gemini/telemetry.js';
import { foldTranscriptFile } from '../../src/gemini/transcript-fold.js';
import { transcriptResumable } from '../../src/gemini/transcript-locate.js';
import { printPeakRss, rssSide } from '../bench/lib.js';

export const AGENT_DATA_SCRIPT = fileURLToPath(import.meta.url);

const ZEROS = Buffer.from('0,'.repeat(512 * 1024));

const message = (id: string, text: string): string =>
  `${JSON.stringify({ id, timestamp: '2026-12-02T12:00:00.000Z', type: 'gemini', content: text, model: 'm' })}\n`;

/** Writes `bytes` of `0,` (a whole number of elements, rounded up to the chunk). */
async function writeZeros(ws: NodeJS.WritableStream, bytes: number): Promise<void> {
  for (let written = 0; written < bytes; written += ZEROS.length) {
    if (!ws.write(ZEROS)) await once(ws, 'drain');
  }
}

/**
 * A session file with a message line of `lineMb` MB of tiny array elements and one of `elements` elements (each
 * in a message record, as the agent would append them; 0 leaves it out), between ordinary messages `before`,
 * `between`, `after`.
 */
export async function writeHugeTranscript(
  file: string,
  o: { lineMb: number; elements: number },
): Promise<void> {
  const ws = createWriteStream(file);
  ws.write('{"sessionId":"s","projectHash":"p","startTime":"2026-12-02T12:00:00.000Z","kind":"main"}\n');
  ws.write(message('before', 'before the long line'));
  if (o.lineMb > 0) {
    ws.write('{"id":"long","type":"gemini","content":"x","n":[');
    await writeZeros(ws, o.lineMb * 1e6);
    ws.write('0]}\n');
  }
  ws.write(message('between', 'between them'));
  if (o.elements > 0) {
    ws.write('{"id":"many","type":"gemini","content":"x","n":[');
    await writeZeros(ws, 2 * (o.elements - 1));
    ws.write('0]}\n');
  }
  ws.write(message('after', 'after them'));
  ws.end();
  await once(ws, 'finish');
}

/** stream-json as gemini's stdout would carry it, in 64 KB pieces: the same two lines between ordinary events. */
function streamSide(lineMb: number, elements: number): unknown {
  const t = new StreamJsonTranslator();
  const types: string[] = [];
  const push = (s: string) => {
    for (const e of t.push(s)) types.push(e.type);
  };
  // A fresh string per piece, as the decoder of a child's stdout makes them (one reused string would hold nothing).
  const piece = Buffer.from('0,'.repeat(32 * 1024));
  const zeros = (chars: number) => {
    for (let n = 0; n < chars; n += piece.length) push(piece.toString('latin1'));
  };
  push('{"type":"init","session_id":"s","model":"m"}\n');
  if (lineMb > 0) {
    push('{"type":"message","role":"assistant","content":"x","n":[');
    zeros(lineMb * 1e6);
    push('0]}\n');
  }
  push('{"type":"message","role":"assistant","content":"between","delta":true}\n');
  if (elements > 0) {
    push('{"type":"message","role":"assistant","content":"x","n":[');
    zeros(2 * (elements - 1));
    push('0]}\n');
  }
  push('{"type":"result","status":"success","stats":{"total_tokens":3}}\n');
  for (const e of t.end()) types.push(e.type);
  return { types, oversized: t.oversizedLines, answer: t.answer };
}

/** Telemetry as the CLI pretty-prints it: one wanted record of `mb` MB, then an ordinary one, in 1 MB pieces. */
function telemetrySide(mb: number): unknown {
  const s = new TelemetryScanner();
  const kinds: string[] = [];
  const record = (extra: string) =>
    `{\n  "attributes": {\n    "event.name": "gemini_cli.api_response",\n    "model": "m",${extra}\n    "total_token_count": 5\n  }\n}\n`;
  const [head, tail] = record('\n    "n": [@],').split('@') as [string, string];
  for (const e of s.push(Buffer.from(head))) kinds.push(e.kind);
  for (let n = 0; n < mb * 1e6; n += ZEROS.length) for (const e of s.push(ZEROS)) kinds.push(e.kind);
  for (const e of s.push(Buffer.from(`0${tail}${record('')}`))) kinds.push(e.kind);
  return { kinds, skipped: s.skipped };
}

async function main(side: string, args: string[]): Promise<void> {
  let result: unknown;
  if (side === 'fold') {
    const t = await foldTranscriptFile(args[0]!);
    result = { messages: t.messages.map((m) => m.id), skippedRecords: t.skippedRecords ?? 0 };
  } else if (side === 'resumable') {
    result = { resumable: await transcriptResumable(args[0]!) };
  } else if (side === 'stream') {
    result = streamSide(Number(args[0]), Number(args[1]));
  } else if (side === 'telemetry') {
    result = telemetrySide(Number(args[0]));
  } else if (side !== 'idle') {
    throw new Error(`unknown side ${side}`);
  }
  console.log(`result ${JSON.stringify(result ?? null)}`);
  printPeakRss();
}

const side = rssSide();
if (side !== undefined) await main(side, process.argv.slice(3));
