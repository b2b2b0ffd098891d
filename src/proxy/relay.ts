/**
 * How the model proxy answers: its own refusals in Google's error shape, and the upstream's answer relayed back —
 * streamed as it comes, or, for an error, read whole first so a credential the upstream echoed can be taken out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { getErrorMessage, oneLine } from '../util/errors.js';
import { downstreamHeaders, googleError, type SecretSet } from './credential.js';

/** Google's error bodies are a few KB; anything bigger is relayed as it comes, without the secret check. */
const MAX_INSPECTED_ERROR_BODY = 1 << 20;

const JSON_TYPE = 'application/json; charset=UTF-8';

/** The proxy's own answer, in Google's error shape; mid-stream, an abrupt end instead. */
export function reply(res: ServerResponse, code: number, status: string, message: string): void {
  if (res.destroyed) return;
  if (res.headersSent) {
    // Mid-stream failure: an abrupt end tells the client the answer is incomplete; a JSON tail would not.
    res.destroy();
    return;
  }
  const body = googleError(code, status, `gemini-run model proxy: ${message}`);
  res.writeHead(code, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The decoded body, or undefined when it is not encoded (or cannot be decoded). */
function decodeBody(raw: Buffer, encoding: string | undefined): Buffer | undefined {
  const opts = { maxOutputLength: 8 * MAX_INSPECTED_ERROR_BODY };
  try {
    switch (encoding?.trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return zlib.gunzipSync(raw, opts);
      case 'deflate':
        try {
          return zlib.inflateSync(raw, opts);
        } catch {
          return zlib.inflateRawSync(raw, opts);
        }
      case 'br':
        return zlib.brotliDecompressSync(raw, opts);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

function withoutHeaders(raw: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!names.includes(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** One answer on its way back: where from, where to, and how its end is logged. */
interface Relayed {
  up: IncomingMessage;
  res: ServerResponse;
  secrets: SecretSet;
  finish: (note: string) => void;
  /** Given the error body's text once it was read whole (a non-streamed answer of 400 and over). */
  onErrorBody: (text: string) => void;
}

/** The upstream's answer back to the agent: streamed, or (an error) read whole and checked for our secrets. */
export function relayAnswer(r: Relayed): void {
  const { up, res } = r;
  const status = up.statusCode ?? 502;
  const headers = downstreamHeaders(up.rawHeaders, r.secrets);
  const streamed = /text\/event-stream/i.test(up.headers['content-type'] ?? '');
  if (status < 400 || streamed) {
    res.writeHead(status, up.statusMessage || undefined, headers);
    // SSE: the client must see the headers (and then every event) the moment upstream sends them.
    res.flushHeaders();
    pipeRest(r);
    return;
  }
  relayErrorBody(r, headers);
}

function pipeRest(r: Relayed): void {
  pipeline(r.up, r.res, (err) => {
    if (err) r.res.destroy();
    r.finish(err ? ` (stream ended early: ${oneLine(getErrorMessage(err))})` : '');
  });
}

/**
 * Error bodies are read whole, so a credential the upstream might echo can be taken out. Without one the original
 * bytes go back unchanged: the CLI's quota and overload detection parses them.
 */
function relayErrorBody(r: Relayed, headers: string[]): void {
  const { up, res, secrets } = r;
  const status = up.statusCode ?? 502;
  const reason = up.statusMessage || undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk);
    size += chunk.length;
    if (size <= MAX_INSPECTED_ERROR_BODY) return;
    settled = true;
    up.off('data', onData);
    up.pause();
    res.writeHead(status, reason, headers);
    for (const c of chunks) res.write(c);
    pipeRest(r);
  };
  up.on('data', onData);
  // An aborted body surfaces as 'close' without 'end' below; the error itself adds nothing.
  up.on('error', () => undefined);
  up.once('end', () => {
    if (settled) return;
    settled = true;
    const raw = Buffer.concat(chunks);
    const decoded = decodeBody(raw, up.headers['content-encoding']);
    r.onErrorBody(secrets.redact((decoded ?? raw).toString('utf8')));
    if (!secrets.foundIn(raw) && !(decoded && secrets.foundIn(decoded))) {
      res.writeHead(status, reason, headers);
      res.end(raw);
      r.finish('');
      return;
    }
    const body = Buffer.from(secrets.redact((decoded ?? raw).toString('utf8')));
    const cleaned = withoutHeaders(headers, ['content-encoding', 'content-length']);
    res.writeHead(status, reason, [...cleaned, 'content-length', String(body.length)]);
    res.end(body);
    r.finish(' (credential redacted from the error body)');
  });
  up.once('close', () => {
    if (settled) return;
    settled = true;
    reply(res, 502, 'UNAVAILABLE', 'upstream closed the connection in the middle of an error response');
    r.finish(' (upstream closed mid-body)');
  });
}
