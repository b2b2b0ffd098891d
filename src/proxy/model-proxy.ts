/**
 * The loopback model-credential proxy. The agent is given a per-run placeholder instead of the model
 * credential and talks to this server; the server checks the placeholder, swaps in the real credential and
 * streams the call to the model API and the answer back, byte for byte. The real credential stays in the
 * action's own process, which the agent's uid cannot read. Only the model calls of a run are forwarded
 * (model-routes.ts); anything else the credential could do is refused here and counted.
 */
import { quotaFacts } from '../domain/quota.js';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { z } from 'zod';
import { getErrorMessage, oneLine } from '../util/errors.js';
import {
  SecretSet,
  carriesPlaceholder,
  downstreamHeaders,
  googleError,
  presentedCredentials,
  sameSecret,
  upstreamHeaders,
} from './credential.js';
import { METADATA_PREFIX, loopbackPeerUid, metadataAnswer, type MetadataConfig } from './metadata.js';
import {
  modelRoute,
  shownRefusal,
  tallyRefusal,
  type ModelApi,
  type RefusedCall,
  type Refusals,
} from './model-routes.js';
import { createUpstream } from './upstream.js';
import {
  GIVE_UP,
  UpstreamHealth,
  checkUpstreamUrl,
  type CallOutcome,
  type HealthNote,
} from './upstream-health.js';

export type ModelCredential =
  | { kind: 'api-key'; apiKey: string }
  /** Called for every model call; cache inside if fetching a token is expensive. */
  | { kind: 'bearer'; token(): Promise<string> };

export interface ModelProxyOptions {
  /** Base URL of the model API, e.g. `https://generativelanguage.googleapis.com`; a path prefix is kept. */
  upstream: string;
  /** The random per-run token the agent holds instead of the credential (at least 16 characters). */
  placeholder: string;
  credential: ModelCredential;
  /** Which API the upstream is: only its model calls are forwarded (model-routes.ts); the rest is refused. */
  api: ModelApi;
  /** Told of every refused non-model call (already shortened and neutralised for printing). */
  onRefused?: (call: RefusedCall) => void;
  /** One line per call (method, path, status, time); never given a credential, placeholder or query. */
  log?: (line: string) => void;
  /**
   * Also serve a GCE metadata server stand-in under /computeMetadata/ that hands out the placeholder as the
   * access token (Vertex AI auth, see metadata.ts). Those paths never reach the upstream.
   */
  metadata?: MetadataConfig;
  /**
   * Told of the first failed call since the last good answer, and once when the upstream is given up for
   * unavailable (upstream-health.ts): the engine stops the run on the latter.
   */
  onHealth?: (note: HealthNote) => void;
  /** How long a model call may hear nothing from the upstream before the model counts as down (default 5 min). */
  silenceMs?: number;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`, for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /**
   * From now on every model call is refused (400 FAILED_PRECONDITION): the run's time or token budget is spent,
   * and no answer may reach the agent after that, whatever the CLI sends by itself (0.61.0's auto-nudge).
   */
  fence(): void;
  /** The non-model calls refused so far (403 PERMISSION_DENIED, never forwarded). */
  refusals(): Refusals;
  close(): Promise<void>;
}

/**
 * The `error.message` of a Google error body, reduced to plain words (it reaches the log and the issue comment),
 * or undefined.
 */
function errorReason(body: string): string | undefined {
  try {
    const parsed = z.object({ error: z.object({ message: z.string() }) }).safeParse(JSON.parse(body));
    if (!parsed.success) return undefined;
    const plain = parsed.data.error.message
      .replace(/[^\w .,:;'()/-]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return plain.slice(0, 160) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A 429's quota in a few words from its details: the window its QuotaFailure names and the RetryInfo delay
 * ("per-minute quota, retry in 2s"), read as src/domain/quota.ts reads them, which reads this back. Never the
 * message: it is long.
 */
function quotaDetail(body: string): string {
  const { scope, delayS } = quotaFacts(body);
  return [scope ? `${scope} quota` : 'quota', ...(delayS !== undefined ? [`retry in ${delayS}s`] : [])].join(
    ', ',
  );
}

/** What a fenced proxy answers; not retried by the CLI (a 4xx other than 429). */
const FENCED_MESSAGE = "the run's time or token budget is spent: gemini-run stopped the agent";

/** What a non-model call gets: a 403 the CLI does not retry, saying why. */
const REFUSED_MESSAGE =
  "only the model calls of a run (generate, stream, count tokens) are served with this run's credential";

export const MIN_PLACEHOLDER_LENGTH = 16;

/** Google's error bodies are a few KB; anything bigger is relayed as it comes, without the secret check. */
const MAX_INSPECTED_ERROR_BODY = 1 << 20;

const JSON_TYPE = 'application/json; charset=UTF-8';

function parseUpstream(raw: string): URL {
  const problem = checkUpstreamUrl(raw, 'the upstream');
  if (problem) throw new Error(`model proxy: ${problem}`);
  return new URL(raw);
}

function reply(res: ServerResponse, code: number, status: string, message: string): void {
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

export async function startModelProxy(o: ModelProxyOptions): Promise<RunningProxy> {
  const base = parseUpstream(o.upstream);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (o.placeholder.length < MIN_PLACEHOLDER_LENGTH) {
    throw new Error(`model proxy: the placeholder must be at least ${MIN_PLACEHOLDER_LENGTH} characters`);
  }
  const secrets = new SecretSet();
  const credential = o.credential;
  if (credential.kind === 'api-key') {
    if (!credential.apiKey) throw new Error('model proxy: the API key is empty');
    if (sameSecret(credential.apiKey, o.placeholder)) {
      throw new Error('model proxy: the placeholder must differ from the API key');
    }
    secrets.add(credential.apiKey);
  }
  const log = (line: string): void => {
    try {
      o.log?.(secrets.redact(line));
    } catch {
      // A failing logger must not take a model call down with it.
    }
  };
  const upstream = createUpstream(base, process.env);
  const health = new UpstreamHealth(base.host, GIVE_UP, o.silenceMs);
  const note = (n: HealthNote | undefined): void => {
    if (!n) return;
    log(`${n.kind === 'down' ? 'giving up' : 'warning'}: ${n.message}`);
    try {
      o.onHealth?.({ ...n, message: secrets.redact(n.message) });
    } catch {
      // Reporting must not take the answer down with it.
    }
  };
  const tell = (outcome: CallOutcome): void => note(health.record(outcome, Date.now()));
  const silenceTimer = setInterval(() => note(health.silence(Date.now())), 1000);
  silenceTimer.unref();
  let calls = 0;
  let fenced = false;
  const refused: Refusals = { count: 0, first: [] };

  const credentialHeader = async (): Promise<[string, string]> => {
    if (credential.kind === 'api-key') return ['x-goog-api-key', credential.apiKey];
    const token = await credential.token();
    if (!token) throw new Error('the token source returned an empty token');
    secrets.add(token);
    return ['authorization', `Bearer ${token}`];
  };

  const relay = (
    up: IncomingMessage,
    res: ServerResponse,
    finish: (note: string) => void,
    /** Given the error body's text once it was read whole (a non-streamed answer of 400 and over). */
    onErrorBody: (text: string) => void = () => undefined,
  ): void => {
    const status = up.statusCode ?? 502;
    const reason = up.statusMessage || undefined;
    const headers = downstreamHeaders(up.rawHeaders, secrets);
    const streamed = /text\/event-stream/i.test(up.headers['content-type'] ?? '');
    const pipeRest = (): void => {
      pipeline(up, res, (err) => {
        if (err) res.destroy();
        finish(err ? ` (stream ended early: ${oneLine(getErrorMessage(err))})` : '');
      });
    };
    if (status < 400 || streamed) {
      res.writeHead(status, reason, headers);
      // SSE: the client must see the headers (and then every event) the moment upstream sends them.
      res.flushHeaders();
      pipeRest();
      return;
    }
    // Error bodies are read whole, so a credential the upstream might echo can be taken out. Without one the
    // original bytes go back unchanged: the CLI's quota and overload detection parses them.
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
      pipeRest();
    };
    up.on('data', onData);
    // An aborted body surfaces as 'close' without 'end' below; the error itself adds nothing.
    up.on('error', () => undefined);
    up.once('end', () => {
      if (settled) return;
      settled = true;
      const raw = Buffer.concat(chunks);
      const decoded = decodeBody(raw, up.headers['content-encoding']);
      onErrorBody(secrets.redact((decoded ?? raw).toString('utf8')));
      if (!secrets.foundIn(raw) && !(decoded && secrets.foundIn(decoded))) {
        res.writeHead(status, reason, headers);
        res.end(raw);
        finish('');
        return;
      }
      const body = Buffer.from(secrets.redact((decoded ?? raw).toString('utf8')));
      const cleaned = withoutHeaders(headers, ['content-encoding', 'content-length']);
      res.writeHead(status, reason, [...cleaned, 'content-length', String(body.length)]);
      res.end(body);
      finish(' (credential redacted from the error body)');
    });
    up.once('close', () => {
      if (settled) return;
      settled = true;
      reply(res, 502, 'UNAVAILABLE', 'upstream closed the connection in the middle of an error response');
      finish(' (upstream closed mid-body)');
    });
  };

  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const rawUrl = req.url ?? '';
    const q = rawUrl.indexOf('?');
    const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const search = q === -1 ? '' : rawUrl.slice(q);
    const method = req.method ?? 'GET';
    const finish = (note: string): void => {
      const ms = (performance.now() - started).toFixed(0);
      const shown = pathname.includes(o.placeholder) ? '<path withheld>' : pathname.slice(0, 200);
      log(`${method} ${shown} -> ${res.statusCode} in ${ms} ms${note}`);
    };
    const refuse = (code: number, status: string, message: string): void => {
      reply(res, code, status, message);
      finish('');
    };
    if (o.metadata && pathname.startsWith(METADATA_PREFIX)) {
      await serveMetadata(req, res, pathname);
      finish('');
      return;
    }
    if (!carriesPlaceholder(presentedCredentials(req.headers, search), o.placeholder)) {
      req.resume();
      refuse(401, 'UNAUTHENTICATED', "the request does not carry this run's model credential");
      return;
    }
    // Only the model calls, on origin-form targets in normal form: anything else (an absolute URL included,
    // which would make this an open proxy carrying our credential) is answered here and counted.
    const route = modelRoute(o.api, method, rawUrl);
    if (!route.ok) {
      req.resume();
      const call = shownRefusal(method, rawUrl, o.placeholder);
      tallyRefusal(refused, call);
      try {
        o.onRefused?.(call);
      } catch {
        // Reporting must not take the answer down with it.
      }
      refuse(403, 'PERMISSION_DENIED', REFUSED_MESSAGE);
      return;
    }
    if (fenced) {
      req.resume();
      refuse(400, 'FAILED_PRECONDITION', FENCED_MESSAGE);
      return;
    }
    const path = prefix + route.target;
    if (path.includes(o.placeholder)) {
      refuse(
        400,
        'INVALID_ARGUMENT',
        'the credential may only travel in x-goog-api-key, key= or Authorization',
      );
      return;
    }
    let auth: [string, string];
    try {
      auth = await credentialHeader();
    } catch (e) {
      // The token source's message may say more than the agent should see; it goes to our log only.
      log(`access token unavailable: ${oneLine(getErrorMessage(e))}`);
      refuse(
        401,
        'UNAUTHENTICATED',
        "could not get an access token for the model API (see the action's log)",
      );
      return;
    }
    if (res.destroyed) return;
    const upReq = upstream.request(
      method,
      path,
      upstreamHeaders(req.headers, { host: base.host, placeholder: o.placeholder, credential: auth }),
    );
    const call = ++calls;
    health.heard(call, Date.now());
    // The agent hung up (or reset mid-upload): stop the model call too, so no tokens are spent on nobody.
    res.once('close', () => {
      health.ended(call);
      if (!res.writableFinished) upReq.destroy();
    });
    req.on('error', () => upReq.destroy());
    upReq.on('error', (e) => {
      if (res.writableFinished || res.destroyed) return;
      req.unpipe(upReq);
      const error = secrets.redact(oneLine(getErrorMessage(e)));
      tell({ kind: 'no-answer', error });
      reply(res, 502, 'UNAVAILABLE', `upstream unreachable: ${error}`);
      finish('');
    });
    upReq.once('response', (up) => {
      health.heard(call, Date.now());
      up.on('data', () => health.heard(call, Date.now()));
      const status = up.statusCode ?? 502;
      // A 5xx is judged with the reason Google gives in its body ("The model is overloaded."), and a 429 with its
      // quota's window and retry delay, once read.
      const judged = status >= 500 || status === 429;
      if (!judged) tell({ kind: 'answer', status });
      let told = !judged;
      const tellError = (body: string): void => {
        if (told) return;
        told = true;
        const detail = status === 429 ? quotaDetail(body) : errorReason(body);
        tell({ kind: 'answer', status, ...(detail ? { detail } : {}) });
      };
      res.once('close', () => tellError(''));
      relay(up, res, finish, tellError);
    });
    req.pipe(upReq);
  };

  const serveMetadata = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
  ): Promise<void> => {
    req.resume();
    const allowed = o.metadata?.uids;
    if (allowed) {
      const uid = await loopbackPeerUid(req.socket);
      if (uid === undefined || !allowed.includes(uid)) {
        log(`metadata: refused a connection of uid ${uid ?? 'unknown'} (only the agent's uid is answered)`);
        const body = 'Only the agent may ask\n';
        res.writeHead(403, { 'metadata-flavor': 'Google', 'content-type': 'application/text' });
        res.end(body);
        return;
      }
    }
    const a = metadataAnswer(
      { method: req.method ?? 'GET', pathname, headers: req.headers },
      { placeholder: o.placeholder, ...(o.metadata?.projectId ? { projectId: o.metadata.projectId } : {}) },
    );
    res.writeHead(a.status, { ...a.headers, 'content-length': String(Buffer.byteLength(a.body)) });
    res.end(a.body);
  };

  const server = http.createServer({ noDelay: true }, (req, res) => {
    forward(req, res).catch((e: unknown) => {
      reply(res, 502, 'UNAVAILABLE', `internal error: ${secrets.redact(oneLine(getErrorMessage(e)))}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as { port: number };
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    fence: () => {
      if (!fenced) log('fenced: every further model call is refused');
      fenced = true;
    },
    refusals: () => ({ count: refused.count, first: [...refused.first] }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        clearInterval(silenceTimer);
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.close();
      })),
  };
}
