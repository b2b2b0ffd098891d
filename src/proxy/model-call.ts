/**
 * One call to the model proxy, step by step: the agent's placeholder checked, the call matched to a model route
 * (model-routes.ts) and its model to the run's, the fence and the token limit asked, the credential swapped in,
 * and the call sent upstream with its answer relayed back (relay.ts), counted (usage-report.ts) and judged for the
 * model's health (upstream-health.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { quotaFacts } from '../domain/quota.js';
import { getErrorMessage, oneLine } from '../util/errors.js';
import { carriesPlaceholder, presentedCredentials, upstreamHeaders, type SecretSet } from './credential.js';
import { METADATA_PREFIX, loopbackPeerUid, metadataAnswer } from './metadata.js';
import type { ModelProxyOptions } from './proxy-options.js';
import {
  modelRoute,
  modelsInBody,
  shownRefusal,
  tallyRefusal,
  type ModelNamed,
  type Refusals,
} from './model-routes.js';
import { relayAnswer, reply } from './relay.js';
import type { Upstream } from './upstream.js';
import type { CallOutcome, UpstreamHealth } from './upstream-health.js';
import type { UsageReport } from './usage-report.js';
import { decodableEncodings, type TokenLedger } from './usage-meter.js';

/** What every call of one proxy shares: its options, its secrets and log, the upstream, and the run's counts. */
export interface ProxyCore {
  readonly o: ModelProxyOptions;
  readonly base: URL;
  /** The upstream's path prefix, kept before every target. */
  readonly prefix: string;
  readonly secrets: SecretSet;
  log: (line: string) => void;
  readonly upstream: Upstream;
  readonly health: UpstreamHealth;
  tell: (outcome: CallOutcome) => void;
  readonly ledger: TokenLedger;
  readonly usage: UsageReport;
  readonly refused: Refusals;
  readonly allowedModels: ReadonlySet<string> | undefined;
  /** `fenced` once RunningProxy.fence was called; `calls`: the calls sent upstream so far. */
  readonly state: { fenced: boolean; calls: number };
}

/** What a fenced proxy answers; not retried by the CLI (a 4xx other than 429). */
const FENCED_MESSAGE = "the run's time or token budget is spent: gemini-run stopped the agent";

/** What a call for a model the run may not use gets (403, not retried). */
const OTHER_MODEL_MESSAGE =
  "this run's credential serves only the run's model and the Gemini CLI's own helper models";

/** What a non-model call gets: a 403 the CLI does not retry, saying why. */
const REFUSED_MESSAGE =
  "only the model calls of a run (generate, stream, count tokens) are served with this run's credential";

/** A Code Assist request body is read whole to see its model: a conversation of a few MB, bounded here. */
const MAX_MODEL_REQUEST_BODY = 64 * 1024 * 1024;

/** What a model call gets once the run's tokens are spent: like the fence, not retried. */
function spentMessage(ledger: TokenLedger): string {
  return `the run's token budget is spent (${ledger.served.tokens} tokens served, the limit is ${ledger.limit ?? 0}): gemini-run serves no further model call`;
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

/** One call as it arrived: its target's parts, and how it ends (one log line, never the placeholder). */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  rawUrl: string;
  pathname: string;
  search: string;
  finish: (note: string) => void;
  refuse: (code: number, status: string, message: string) => void;
  /**
   * Runs `fn` when the agent's side of the call closes. One listener on the response serves them all: with the
   * pipe's and http's own, one 'close' listener each passed Node's leak warning (11 on one response), printed into
   * the job log for every model call.
   */
  onClose: (fn: () => void) => void;
}

function callOf(core: ProxyCore, req: IncomingMessage, res: ServerResponse): Call {
  const started = performance.now();
  const rawUrl = req.url ?? '';
  const q = rawUrl.indexOf('?');
  const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const method = req.method ?? 'GET';
  const finish = (note: string): void => {
    const ms = (performance.now() - started).toFixed(0);
    const shown = pathname.includes(core.o.placeholder) ? '<path withheld>' : pathname.slice(0, 200);
    core.log(`${method} ${shown} -> ${res.statusCode} in ${ms} ms${note}`);
  };
  const closers: (() => void)[] = [];
  res.once('close', () => {
    for (const fn of closers) fn();
  });
  return {
    req,
    res,
    method,
    rawUrl,
    pathname,
    search: q === -1 ? '' : rawUrl.slice(q),
    finish,
    refuse: (code, status, message) => {
      reply(res, code, status, message);
      finish('');
    },
    onClose: (fn) => void closers.push(fn),
  };
}

/** Answers one call to the proxy: the metadata stand-in's, or a model call's (forwarded or refused). */
export async function handleCall(core: ProxyCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const call = callOf(core, req, res);
  if (core.o.metadata && call.pathname.startsWith(METADATA_PREFIX)) {
    await serveMetadata(core, req, res, call.pathname);
    call.finish('');
    return;
  }
  if (!carriesPlaceholder(presentedCredentials(req.headers, call.search), core.o.placeholder)) {
    req.resume();
    call.refuse(401, 'UNAUTHENTICATED', "the request does not carry this run's model credential");
    return;
  }
  // Only the model calls, on origin-form targets in normal form: anything else (an absolute URL included,
  // which would make this an open proxy carrying our credential) is answered here and counted.
  const route = modelRoute(core.o.api, call.method, call.rawUrl);
  if (!route.ok) {
    req.resume();
    tally(core, call);
    call.refuse(403, 'PERMISSION_DENIED', REFUSED_MESSAGE);
    return;
  }
  const admitted = await admitModel(core, call, route.model);
  if (!admitted) return;
  const isModelCall = route.model !== undefined;
  if (stopped(core, call, isModelCall)) return;
  const path = core.prefix + route.target;
  if (path.includes(core.o.placeholder)) {
    call.refuse(
      400,
      'INVALID_ARGUMENT',
      'the credential may only travel in x-goog-api-key, key= or Authorization',
    );
    return;
  }
  const auth = await credentialHeader(core, call);
  // The token fetch may have waited while another answer reached the limit (or the run was fenced).
  if (!auth || res.destroyed || stopped(core, call, isModelCall)) return;
  send(core, call, { path, auth, isModelCall, ...(admitted.body ? { body: admitted.body } : {}) });
}

/** A refused call counted, and told (never forwarded). */
function tally(core: ProxyCore, call: Call, model?: string): void {
  const shown = shownRefusal(call.method, call.rawUrl, core.o.placeholder, model);
  tallyRefusal(core.refused, shown);
  try {
    core.o.onRefused?.(shown);
  } catch {
    // Reporting must not take the answer down with it.
  }
}

/**
 * The call's model is one the run may use; undefined when it was refused here. A Code Assist model call names its
 * model in its body: read whole, checked, and sent on as re-serialised (one `model` key, whatever duplicates the
 * agent wrote).
 */
async function admitModel(
  core: ProxyCore,
  call: Call,
  model: ModelNamed | undefined,
): Promise<{ body?: Buffer } | undefined> {
  const allowed = core.allowedModels;
  if (model?.in === 'body') {
    const read = await readBody(call.req, MAX_MODEL_REQUEST_BODY).catch(() => undefined);
    let parsed: unknown;
    try {
      parsed = read && !call.req.headers['content-encoding'] ? JSON.parse(read.toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined) {
      call.refuse(400, 'INVALID_ARGUMENT', 'a model call needs a JSON body (uncompressed, at most 64 MB)');
      return undefined;
    }
    const named = modelsInBody(parsed);
    if (allowed && (!named || !named.every((m) => allowed.has(m)))) {
      tally(core, call, named?.find((m) => !allowed.has(m)) ?? 'none');
      call.refuse(403, 'PERMISSION_DENIED', OTHER_MODEL_MESSAGE);
      return undefined;
    }
    return { body: Buffer.from(JSON.stringify(parsed)) };
  }
  if (model && allowed && !allowed.has(model.id)) {
    call.req.resume();
    tally(core, call);
    call.refuse(403, 'PERMISSION_DENIED', OTHER_MODEL_MESSAGE);
    return undefined;
  }
  return {};
}

/** The fence, or the token limit, stops this call: answered here. Asked again after every wait. */
function stopped(core: ProxyCore, call: Call, isModelCall: boolean): boolean {
  if (!core.state.fenced && !(isModelCall && core.ledger.spent)) return false;
  call.req.resume();
  if (core.state.fenced) call.refuse(400, 'FAILED_PRECONDITION', FENCED_MESSAGE);
  else {
    core.ledger.served.refusedAtLimit++;
    core.usage.now();
    call.refuse(400, 'FAILED_PRECONDITION', spentMessage(core.ledger));
  }
  return true;
}

/** The real credential's header; undefined (the call refused) when the token source fails. */
async function credentialHeader(core: ProxyCore, call: Call): Promise<[string, string] | undefined> {
  const credential = core.o.credential;
  if (credential.kind === 'api-key') return ['x-goog-api-key', credential.apiKey];
  try {
    const token = await credential.token();
    if (!token) throw new Error('the token source returned an empty token');
    core.secrets.add(token);
    return ['authorization', `Bearer ${token}`];
  } catch (e) {
    // The token source's message may say more than the agent should see; it goes to our log only.
    core.log(`access token unavailable: ${oneLine(getErrorMessage(e))}`);
    call.refuse(
      401,
      'UNAUTHENTICATED',
      "could not get an access token for the model API (see the action's log)",
    );
    return undefined;
  }
}

/** The call upstream with the real credential, the agent's hang-up passed on, and the answer relayed back. */
function send(
  core: ProxyCore,
  call: Call,
  s: { path: string; auth: [string, string]; isModelCall: boolean; body?: Buffer },
): void {
  const { req, res } = call;
  const headers = upstreamHeaders(req.headers, {
    host: core.base.host,
    placeholder: core.o.placeholder,
    credential: s.auth,
  });
  if (s.isModelCall) headers['accept-encoding'] = decodableEncodings(req.headers['accept-encoding']);
  if (s.body) headers['content-length'] = String(s.body.length);
  const upReq = core.upstream.request(call.method, s.path, headers);
  if (s.isModelCall) {
    core.usage.inFlight.add(res);
    call.onClose(() => core.usage.inFlight.delete(res));
  }
  const id = ++core.state.calls;
  core.health.heard(id, Date.now());
  // The agent hung up (or reset mid-upload): stop the model call too, so no tokens are spent on nobody.
  call.onClose(() => {
    core.health.ended(id);
    if (!res.writableFinished) upReq.destroy();
  });
  req.on('error', () => upReq.destroy());
  upReq.on('error', (e) => {
    if (res.writableFinished || res.destroyed) return;
    req.unpipe(upReq);
    const error = core.secrets.redact(oneLine(getErrorMessage(e)));
    core.tell({ kind: 'no-answer', error });
    reply(res, 502, 'UNAVAILABLE', `upstream unreachable: ${error}`);
    call.finish('');
  });
  upReq.once('response', (up) => answered(core, call, up, { id, isModelCall: s.isModelCall }));
  if (s.body) upReq.end(s.body);
  else req.pipe(upReq);
}

/** The upstream answered: judged for the model's health, relayed, and (a model call's success) counted. */
function answered(
  core: ProxyCore,
  call: Call,
  up: IncomingMessage,
  c: { id: number; isModelCall: boolean },
): void {
  const { res } = call;
  core.health.heard(c.id, Date.now());
  up.on('data', () => core.health.heard(c.id, Date.now()));
  const status = up.statusCode ?? 502;
  // A 5xx is judged with the reason Google gives in its body ("The model is overloaded."), and a 429 with its
  // quota's window and retry delay, once read.
  const judged = status >= 500 || status === 429;
  if (!judged) core.tell({ kind: 'answer', status });
  let told = !judged;
  const tellError = (body: string): void => {
    if (told) return;
    told = true;
    const detail = status === 429 ? quotaDetail(body) : errorReason(body);
    core.tell({ kind: 'answer', status, ...(detail ? { detail } : {}) });
  };
  call.onClose(() => tellError(''));
  relayAnswer({ up, res, secrets: core.secrets, finish: call.finish, onErrorBody: tellError });
  // After the relay: its pipe is the first reader, so each chunk is forwarded before it is counted.
  if (c.isModelCall && status < 300) core.usage.meter(up, res, call.onClose);
}

/** The GCE metadata stand-in (Vertex AI auth): the placeholder as the access token, for the agent's uid only. */
async function serveMetadata(
  core: ProxyCore,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<void> {
  req.resume();
  const allowed = core.o.metadata?.uids;
  if (allowed) {
    const uid = await loopbackPeerUid(req.socket);
    if (uid === undefined || !allowed.includes(uid)) {
      core.log(
        `metadata: refused a connection of uid ${uid ?? 'unknown'} (only the agent's uid is answered)`,
      );
      const body = 'Only the agent may ask\n';
      res.writeHead(403, { 'metadata-flavor': 'Google', 'content-type': 'application/text' });
      res.end(body);
      return;
    }
  }
  const a = metadataAnswer(
    { method: req.method ?? 'GET', pathname, headers: req.headers },
    {
      placeholder: core.o.placeholder,
      ...(core.o.metadata?.projectId ? { projectId: core.o.metadata.projectId } : {}),
    },
  );
  res.writeHead(a.status, { ...a.headers, 'content-length': String(Buffer.byteLength(a.body)) });
  res.end(a.body);
}
