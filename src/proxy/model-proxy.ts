/**
 * The loopback model-credential proxy. The agent is given a per-run placeholder instead of the model
 * credential and talks to this server; the server checks the placeholder, swaps in the real credential and
 * streams the call to the model API and the answer back, byte for byte. The real credential stays in the
 * action's own process, which the agent's uid cannot read. Only the model calls of a run are forwarded
 * (model-routes.ts), for the run's models only; anything else the credential could do is refused here and counted.
 * Every answer's `usageMetadata` is read as it goes by (usage-meter.ts): the proxy keeps the run's served tokens
 * and, once they reach the run's limit, refuses every further model call and cuts the answers still streaming, so
 * a budget holds whoever calls the model, the CLI or the agent behind its back.
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
  modelsInBody,
  shownRefusal,
  tallyRefusal,
  type ModelApi,
  type RefusedCall,
  type Refusals,
} from './model-routes.js';
import { AnswerUsage, TokenLedger, decodableEncodings, type ServedTokens } from './usage-meter.js';
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
  /** Told of every refused call (already shortened and neutralised for printing). */
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
  /**
   * The model ids forwarded (src/gemini/models.ts modelsForRun); a model call for any other is refused (403) and
   * counted with the refused calls. Absent: any model.
   */
  models?: readonly string[];
  /**
   * The tokens the run may be served (usage-meter.ts TokenLedger): once the answers forwarded reach it, every
   * further model call is refused (400) and the answers still streaming are cut. Absent: no limit.
   */
  tokenLimit?: number;
  /** Told of the served tokens after each answer, at the limit, and at each call refused there. */
  onUsage?: (served: ServedTokens) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`, for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /**
   * From now on every model call is refused (400 FAILED_PRECONDITION): the run's time or token budget is spent,
   * and no answer may reach the agent after that, whatever the CLI sends by itself (0.61.0's auto-nudge).
   */
  fence(): void;
  /** The non-model calls and calls for other models refused so far (403 PERMISSION_DENIED, never forwarded). */
  refusals(): Refusals;
  /** The tokens served so far. */
  usage(): ServedTokens;
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

/** What a model call gets once the run's tokens are spent: like the fence, not retried. */
function spentMessage(ledger: TokenLedger): string {
  return `the run's token budget is spent (${ledger.served.tokens} tokens served, the limit is ${ledger.limit ?? 0}): gemini-run serves no further model call`;
}

/** What a call for a model the run may not use gets (403, not retried). */
const OTHER_MODEL_MESSAGE =
  "this run's credential serves only the run's model and the Gemini CLI's own helper models";

/** How often at most the served count is told while answers flow (see reportUsageSoon). */
const USAGE_REPORT_MS = 250;

/** A Code Assist request body is read whole to see its model: a conversation of a few MB, bounded here. */
const MAX_MODEL_REQUEST_BODY = 64 * 1024 * 1024;

/** A stream that decodes an answer's content-encoding for the usage reader; null: none; undefined: unknown. */
function usageDecoder(
  encoding: string | undefined,
): zlib.Gunzip | zlib.BrotliDecompress | zlib.Unzip | null | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
    case 'deflate':
      return zlib.createUnzip();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** Reads a request body whole, up to `max` bytes; undefined when it is longer (the rest is drained). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
      else chunks.length = 0;
    });
    req.once('end', () => resolve(size <= max ? Buffer.concat(chunks) : undefined));
    req.once('error', reject);
  });
}

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
  const allowedModels = o.models ? new Set(o.models) : undefined;
  const ledger = new TokenLedger(o.tokenLimit);
  /** Model calls in flight (sent upstream, answer not yet over): cut when the limit is reached. */
  const inFlight = new Set<ServerResponse>();
  let usageTimer: NodeJS.Timeout | undefined;
  /** Tells the count now (at the limit, at a refusal there, at the end). */
  const reportUsage = (): void => {
    clearTimeout(usageTimer);
    usageTimer = undefined;
    try {
      o.onUsage?.({ ...ledger.served });
    } catch {
      // Reporting must not take the answer down with it.
    }
  };
  /**
   * Tells the count after an answer, at most every USAGE_REPORT_MS: the proxy holds the limit itself, so the action
   * needs the count for its summary and its stop, not per chunk; fewer lines are less work on both sides.
   */
  const reportUsageSoon = (): void => {
    usageTimer ??= setTimeout(reportUsage, USAGE_REPORT_MS);
  };
  /** The answer to `crossing` reached the limit: every other model call still in flight ends here. */
  const limitReached = (crossing: ServerResponse): void => {
    log(
      `token limit reached: ${ledger.served.tokens} tokens served of ${ledger.limit ?? 0}; refusing further model calls`,
    );
    for (const other of inFlight) if (other !== crossing) other.destroy();
    reportUsage();
  };
  /**
   * Counts the answer `up` to a model call as its bytes go by. Each chunk is read once the loop turn that forwarded
   * it is over: the response flushes its writes on the next tick, so reading at once would delay the first byte.
   */
  const meter = (up: IncomingMessage, res: ServerResponse): void => {
    ledger.served.answers++;
    const usage = new AnswerUsage();
    let counted = 0;
    const feed = (chunk: Buffer): void => {
      usage.write(chunk);
      if (usage.tokens <= counted) return;
      const delta = usage.tokens - counted;
      counted = usage.tokens;
      if (ledger.add(delta)) limitReached(res);
    };
    const pending: Buffer[] = [];
    const drain = (): void => {
      for (const chunk of pending.splice(0)) feed(chunk);
    };
    const later = (chunk: Buffer): void => {
      if (pending.push(chunk) === 1) setImmediate(drain);
    };
    const decoder = usageDecoder(up.headers['content-encoding']);
    if (decoder === null) up.on('data', later);
    else if (decoder === undefined) {
      log(
        `an answer in content-encoding ${oneLine(String(up.headers['content-encoding'])).slice(0, 40)} is not counted`,
      );
    } else {
      // zlib works off the loop already.
      up.on('data', (c: Buffer) => decoder.write(c));
      up.once('end', () => decoder.end());
      up.once('close', () => decoder.end());
      decoder.on('data', feed);
      decoder.on('error', () => log('an encoded answer could not be decoded for counting'));
      decoder.once('end', reportUsageSoon);
    }
    // After the last chunk was read (setImmediate callbacks run in order).
    res.once('close', () => setImmediate(reportUsageSoon));
  };

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
    const tallied = (model?: string): void => {
      const call = shownRefusal(method, rawUrl, o.placeholder, model);
      tallyRefusal(refused, call);
      try {
        o.onRefused?.(call);
      } catch {
        // Reporting must not take the answer down with it.
      }
    };
    if (!route.ok) {
      req.resume();
      tallied();
      refuse(403, 'PERMISSION_DENIED', REFUSED_MESSAGE);
      return;
    }
    // A Code Assist model call names its model in its body: read whole, checked, and sent on as re-serialised
    // (one `model` key, whatever duplicates the agent wrote).
    let body: Buffer | undefined;
    if (route.model?.in === 'body') {
      const read = await readBody(req, MAX_MODEL_REQUEST_BODY).catch(() => undefined);
      let parsed: unknown;
      try {
        parsed = read && !req.headers['content-encoding'] ? JSON.parse(read.toString('utf8')) : undefined;
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined) {
        refuse(400, 'INVALID_ARGUMENT', 'a model call needs a JSON body (uncompressed, at most 64 MB)');
        return;
      }
      body = Buffer.from(JSON.stringify(parsed));
      const named = modelsInBody(parsed);
      if (allowedModels && (!named || !named.every((m) => allowedModels.has(m)))) {
        tallied(named?.find((m) => !allowedModels.has(m)) ?? 'none');
        refuse(403, 'PERMISSION_DENIED', OTHER_MODEL_MESSAGE);
        return;
      }
    } else if (route.model && allowedModels && !allowedModels.has(route.model.id)) {
      req.resume();
      tallied();
      refuse(403, 'PERMISSION_DENIED', OTHER_MODEL_MESSAGE);
      return;
    }
    /** The fence, or the token limit, stops this call: answered here. Asked again after every wait. */
    const stopped = (): boolean => {
      if (!fenced && !(route.model && ledger.spent)) return false;
      req.resume();
      if (fenced) refuse(400, 'FAILED_PRECONDITION', FENCED_MESSAGE);
      else {
        ledger.served.refusedAtLimit++;
        reportUsage();
        refuse(400, 'FAILED_PRECONDITION', spentMessage(ledger));
      }
      return true;
    };
    if (stopped()) return;
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
    // The token fetch may have waited while another answer reached the limit (or the run was fenced).
    if (res.destroyed || stopped()) return;
    const headers = upstreamHeaders(req.headers, {
      host: base.host,
      placeholder: o.placeholder,
      credential: auth,
    });
    if (route.model) headers['accept-encoding'] = decodableEncodings(req.headers['accept-encoding']);
    if (body) headers['content-length'] = String(body.length);
    const upReq = upstream.request(method, path, headers);
    if (route.model) {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
    }
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
      // After relay: its pipe is the first reader, so each chunk is forwarded before it is counted.
      if (route.model && status < 300) meter(up, res);
    });
    if (body) upReq.end(body);
    else req.pipe(upReq);
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
    usage: () => ({ ...ledger.served }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        clearInterval(silenceTimer);
        // The final count, if one is still to be told.
        if (usageTimer) reportUsage();
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.close();
      })),
  };
}
