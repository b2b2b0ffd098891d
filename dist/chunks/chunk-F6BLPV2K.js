import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  external_exports,
  getErrorMessage,
  oneLine,
  quotaFacts
} from "./chunk-UTG5WWAN.js";

// src/proxy/model-proxy.ts
import http2 from "node:http";

// src/proxy/credential.ts
import { createHash, timingSafeEqual } from "node:crypto";
var HOP_BY_HOP = /* @__PURE__ */ new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade"
]);
function sameSecret(a, b) {
  const d = (s) => createHash("sha256").update(s).digest();
  return timingSafeEqual(d(a), d(b));
}
function presentedCredentials(headers, search) {
  const out = [];
  const apiKey = headers["x-goog-api-key"];
  if (typeof apiKey === "string") out.push(apiKey.trim());
  out.push(...new URLSearchParams(search).getAll("key"));
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? "");
  if (bearer?.[1]) out.push(bearer[1]);
  return out;
}
function carriesPlaceholder(presented, placeholder) {
  let ok = false;
  for (const value of presented) ok = sameSecret(value, placeholder) || ok;
  return ok;
}
function connectionTokens(value) {
  const joined = Array.isArray(value) ? value.join(",") : value ?? "";
  return new Set(
    joined.split(",").map((t) => t.trim().toLowerCase()).filter(Boolean)
  );
}
function isHopByHop(name, named) {
  return HOP_BY_HOP.has(name) || name.startsWith("proxy-") || named.has(name);
}
function upstreamHeaders(incoming, o) {
  const named = connectionTokens(incoming.connection);
  const out = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === void 0 || isHopByHop(name, named)) continue;
    if (name === "host" || name === "x-goog-api-key" || name === "authorization" || name === "expect")
      continue;
    if ([value].flat().some((v) => v.includes(o.placeholder))) continue;
    out[name] = value;
  }
  out.host = o.host;
  out[o.credential[0]] = o.credential[1];
  return out;
}
function downstreamHeaders(raw, secrets) {
  const named = /* @__PURE__ */ new Set();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].toLowerCase() === "connection") for (const t of connectionTokens(raw[i + 1])) named.add(t);
  }
  const out = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    if (isHopByHop(name.toLowerCase(), named) || secrets.foundIn(value)) continue;
    out.push(name, value);
  }
  return out;
}
var SecretSet = class {
  values = [];
  add(secret) {
    if (secret.length < 8 || this.values.includes(secret)) return;
    this.values.push(secret);
    if (this.values.length > 8) this.values.shift();
  }
  foundIn(text) {
    return this.values.some((s) => text.includes(s));
  }
  redact(text) {
    return this.values.reduce((t, s) => t.split(s).join("***"), text);
  }
};
function googleError(code, status, message) {
  return JSON.stringify({ error: { code, message, status } });
}

// src/proxy/metadata.ts
import { readFile } from "node:fs/promises";
import { endianness } from "node:os";
var METADATA_PREFIX = "/computeMetadata/";
var V1 = "/computeMetadata/v1";
var METADATA_TOKEN_TTL_S = 3599;
function answer(status, body, type = "application/text") {
  return {
    status,
    // The client rejects any answer without this header, errors included.
    headers: { "metadata-flavor": "Google", "content-type": type, "cache-control": "no-store" },
    body
  };
}
function metadataAnswer(req, o) {
  if (req.headers["metadata-flavor"] !== "Google") {
    return answer(403, "Missing required header: Metadata-Flavor: Google\n");
  }
  if (req.headers["x-forwarded-for"] !== void 0) return answer(403, "Forwarded requests are refused\n");
  if (req.method !== "GET") return answer(405, "Only GET is served\n");
  const path = req.pathname.replace(/\/+$/, "");
  switch (path) {
    case `${V1}/instance`:
      return answer(200, "service-accounts/\n");
    case `${V1}/instance/service-accounts`:
      return answer(200, "default/\n");
    case `${V1}/instance/service-accounts/default/token`:
      return answer(
        200,
        JSON.stringify({
          access_token: o.placeholder,
          expires_in: METADATA_TOKEN_TTL_S,
          token_type: "Bearer"
        }),
        "application/json"
      );
    case `${V1}/project/project-id`:
      return o.projectId ? answer(200, o.projectId) : answer(404, "Not found\n");
    case `${V1}/universe/universe-domain`:
      return answer(200, "googleapis.com");
    default:
      return answer(404, "Not found\n");
  }
}
function hexPort(port) {
  return port.toString(16).toUpperCase().padStart(4, "0");
}
async function loopbackPeerUid(conn, table = "/proc/net/tcp") {
  if (!conn.remotePort || !conn.localPort) return void 0;
  let text;
  try {
    text = await readFile(table, "utf8");
  } catch {
    return void 0;
  }
  return peerUidIn(text, conn.remotePort, conn.localPort);
}
function peerUidIn(table, clientPort, serverPort) {
  const local = `:${hexPort(clientPort)}`;
  const remote = `:${hexPort(serverPort)}`;
  for (const line of table.split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    if (!f[1].endsWith(local) || !f[2].endsWith(remote)) continue;
    if (!isLoopbackHex(f[1]) || !isLoopbackHex(f[2])) continue;
    const uid = Number(f[7]);
    if (Number.isInteger(uid) && uid >= 0) return uid;
  }
  return void 0;
}
function isLoopbackHex(address) {
  const ip = address.split(":")[0] ?? "";
  if (ip.length !== 8) return false;
  return endianness() === "LE" ? ip.endsWith("7F") : ip.startsWith("7F");
}

// src/proxy/model-routes.ts
var MODEL_METHODS = "generateContent|streamGenerateContent|countTokens";
var NAME = "[A-Za-z0-9][A-Za-z0-9._-]*";
var MODEL_ID = new RegExp(`^${NAME}$`);
var ROUTES = {
  "gemini-api": [
    {
      method: "POST",
      path: new RegExp(`^/v1(?:beta|alpha)?/models/(${NAME}):(?:${MODEL_METHODS})$`),
      model: "path"
    }
  ],
  vertex: [
    {
      method: "POST",
      path: new RegExp(
        `^/v1(?:beta1)?(?:/projects/[A-Za-z0-9][A-Za-z0-9.:_-]*/locations/[a-z0-9][a-z0-9-]*)?/publishers/google/models/(${NAME}):(?:${MODEL_METHODS})$`
      ),
      model: "path"
    }
  ],
  "code-assist": [
    { method: "POST", path: new RegExp(`^/v1internal:(?:${MODEL_METHODS})$`), model: "body" },
    {
      method: "POST",
      path: /^\/v1internal:(?:loadCodeAssist|onboardUser|listExperiments|retrieveUserQuota|fetchAdminControls|recordCodeAssistMetrics)$/
    },
    { method: "GET", path: new RegExp(`^/v1internal/operations/${NAME}$`) }
  ]
};
function modelRoute(api, method, rawTarget) {
  const q = rawTarget.indexOf("?");
  const pathname = q === -1 ? rawTarget : rawTarget.slice(0, q);
  const search = q === -1 ? "" : rawTarget.slice(q + 1);
  if (!pathname.startsWith("/") || pathname.startsWith("//") || pathname.includes("%")) return { ok: false };
  let parsed;
  try {
    parsed = new URL(rawTarget, "http://model-proxy.invalid");
  } catch {
    return { ok: false };
  }
  if (parsed.host !== "model-proxy.invalid" || parsed.pathname !== pathname || rawTarget.includes("#")) {
    return { ok: false };
  }
  let match = null;
  const route = ROUTES[api].find((r) => r.method === method && (match = r.path.exec(pathname)) !== null);
  if (!route || !match) return { ok: false };
  const model = route.model === "path" ? { in: "path", id: match[1] ?? "" } : route.model === "body" ? { in: "body" } : void 0;
  let alt;
  for (const part of search.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? "" : part.slice(eq + 1);
    if (name === "key") continue;
    if (name === "alt" && value === "sse" && alt === void 0 && pathname.endsWith(":streamGenerateContent")) {
      alt = value;
      continue;
    }
    return { ok: false };
  }
  return { ok: true, target: alt ? `${pathname}?alt=sse` : pathname, ...model ? { model } : {} };
}
function modelsInBody(body) {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return void 0;
  const out = [];
  const top = body["model"];
  const request = body["request"];
  const inner = typeof request === "object" && request !== null ? request["model"] : void 0;
  for (const [value, prefixed] of [
    [top, false],
    [inner, true]
  ]) {
    if (value === void 0) continue;
    if (typeof value !== "string") return void 0;
    const id = prefixed && value.startsWith("models/") ? value.slice("models/".length) : value;
    if (!MODEL_ID.test(id)) return void 0;
    out.push(id);
  }
  return out.length > 0 ? out : void 0;
}
var SHOWN_PATH_CHARS = 80;
function shownRefusal(method, rawTarget, placeholder, model) {
  const q = rawTarget.indexOf("?");
  const pathname = q === -1 ? rawTarget : rawTarget.slice(0, q);
  const plain = (s, max) => s.slice(0, max).replace(/[^A-Za-z0-9._~:/%+@=,-]/g, "_") + (s.length > max ? "…" : "");
  return {
    method: plain(method, 16),
    path: pathname.includes(placeholder) ? "<path withheld>" : plain(pathname, SHOWN_PATH_CHARS),
    ...model !== void 0 ? { model: plain(model, 64) } : {}
  };
}
function refusalLine(c) {
  return `${c.method} ${c.path}${c.model !== void 0 ? ` (model ${c.model})` : ""}`;
}
var KEPT_REFUSALS = 5;
function tallyRefusal(tally2, call) {
  tally2.count++;
  if (tally2.first.length < KEPT_REFUSALS) tally2.first.push(call);
}

// src/proxy/relay.ts
import { pipeline } from "node:stream";
import zlib from "node:zlib";
var MAX_INSPECTED_ERROR_BODY = 1 << 20;
var JSON_TYPE = "application/json; charset=UTF-8";
function reply(res, code, status, message) {
  if (res.destroyed) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = googleError(code, status, `gemini-run model proxy: ${message}`);
  res.writeHead(code, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
  res.end(body);
}
function decodeBody(raw, encoding) {
  const opts = { maxOutputLength: 8 * MAX_INSPECTED_ERROR_BODY };
  try {
    switch (encoding?.trim().toLowerCase()) {
      case "gzip":
      case "x-gzip":
        return zlib.gunzipSync(raw, opts);
      case "deflate":
        try {
          return zlib.inflateSync(raw, opts);
        } catch {
          return zlib.inflateRawSync(raw, opts);
        }
      case "br":
        return zlib.brotliDecompressSync(raw, opts);
      default:
        return void 0;
    }
  } catch {
    return void 0;
  }
}
function withoutHeaders(raw, names) {
  const out = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!names.includes(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  }
  return out;
}
function relayAnswer(r) {
  const { up, res } = r;
  const status = up.statusCode ?? 502;
  const headers = downstreamHeaders(up.rawHeaders, r.secrets);
  const streamed = /text\/event-stream/i.test(up.headers["content-type"] ?? "");
  if (status < 400 || streamed) {
    res.writeHead(status, up.statusMessage || void 0, headers);
    res.flushHeaders();
    pipeRest(r);
    return;
  }
  relayErrorBody(r, headers);
}
function pipeRest(r) {
  pipeline(r.up, r.res, (err) => {
    if (err) r.res.destroy();
    r.finish(err ? ` (stream ended early: ${oneLine(getErrorMessage(err))})` : "");
  });
}
function relayErrorBody(r, headers) {
  const { up, res, secrets } = r;
  const status = up.statusCode ?? 502;
  const reason = up.statusMessage || void 0;
  const chunks = [];
  let size = 0;
  let settled = false;
  const onData = (chunk) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size <= MAX_INSPECTED_ERROR_BODY) return;
    settled = true;
    up.off("data", onData);
    up.pause();
    res.writeHead(status, reason, headers);
    for (const c of chunks) res.write(c);
    pipeRest(r);
  };
  up.on("data", onData);
  up.on("error", () => void 0);
  up.once("end", () => {
    if (settled) return;
    settled = true;
    const raw = Buffer.concat(chunks);
    const decoded = decodeBody(raw, up.headers["content-encoding"]);
    r.onErrorBody(secrets.redact((decoded ?? raw).toString("utf8")));
    if (!secrets.foundIn(raw) && !(decoded && secrets.foundIn(decoded))) {
      res.writeHead(status, reason, headers);
      res.end(raw);
      r.finish("");
      return;
    }
    const body = Buffer.from(secrets.redact((decoded ?? raw).toString("utf8")));
    const cleaned = withoutHeaders(headers, ["content-encoding", "content-length"]);
    res.writeHead(status, reason, [...cleaned, "content-length", String(body.length)]);
    res.end(body);
    r.finish(" (credential redacted from the error body)");
  });
  up.once("close", () => {
    if (settled) return;
    settled = true;
    reply(res, 502, "UNAVAILABLE", "upstream closed the connection in the middle of an error response");
    r.finish(" (upstream closed mid-body)");
  });
}

// src/proxy/usage-meter.ts
var usageSchema = external_exports.object({
  totalTokenCount: external_exports.number().nonnegative().optional(),
  promptTokenCount: external_exports.number().nonnegative().optional(),
  candidatesTokenCount: external_exports.number().nonnegative().optional(),
  thoughtsTokenCount: external_exports.number().nonnegative().optional(),
  toolUsePromptTokenCount: external_exports.number().nonnegative().optional()
});
function usageTokens(value) {
  const u = usageSchema.safeParse(value);
  if (!u.success) return void 0;
  const d = u.data;
  const parts = (d.promptTokenCount ?? 0) + (d.candidatesTokenCount ?? 0) + (d.thoughtsTokenCount ?? 0) + (d.toolUsePromptTokenCount ?? 0);
  return Math.max(d.totalTokenCount ?? 0, parts);
}
var QUOTE = 34;
var BACKSLASH = 92;
var OPEN_OBJECT = 123;
var CLOSE_OBJECT = 125;
var OPEN_ARRAY = 91;
var CLOSE_ARRAY = 93;
var COLON = 58;
var COMMA = 44;
var MAX_KEY = 16;
var MAX_USAGE_BYTES = 64 * 1024;
var USAGE_KEY = "usageMetadata";
var WRAPPER_KEY = "response";
function indexOrEnd(chunk, byte, from) {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}
var AnswerUsage = class {
  /** The largest usage total seen in this answer so far. */
  tokens = 0;
  /** Containers open in the current document: true for an object, false for an array. */
  open = [];
  /** The key whose value each open container is (index = depth - 1), where it matters (depth ≤ 2). */
  keyOf = [];
  /** A top-level array holds the documents (a stream without `alt=sse`). */
  inTopArray = false;
  inString = false;
  escaped = false;
  /** The string being read is a key at depth ≤ 2: its bytes so far (undefined once too long to matter). */
  key;
  readingKey = false;
  /** The last key read in the innermost open object (at depth ≤ 2). */
  lastKey;
  expectKey = false;
  /** While a usage object is open: its bytes so far and the depth it opened at. */
  capture;
  write(chunk) {
    let captureFrom = this.capture ? 0 : -1;
    const n = chunk.length;
    let nextQuote = -1;
    let nextBackslash = -1;
    for (let i = 0; i < n; i++) {
      if (this.inString && !this.escaped && !this.readingKey) {
        if (nextQuote < i) nextQuote = indexOrEnd(chunk, QUOTE, i);
        if (nextBackslash < i) nextBackslash = indexOrEnd(chunk, BACKSLASH, i);
        i = Math.min(nextQuote, nextBackslash);
        if (i >= n) break;
      }
      const c = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.endString();
        else if (this.readingKey && this.key) {
          if (this.key.length < MAX_KEY) this.key.push(c);
          else this.key = void 0;
        }
        continue;
      }
      const depth = this.open.length;
      if (depth === 0) {
        if (c === OPEN_OBJECT) this.openContainer(true);
        else if (c === OPEN_ARRAY && !this.inTopArray) this.inTopArray = true;
        else if (c === CLOSE_ARRAY) this.inTopArray = false;
        continue;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          this.readingKey = this.expectKey && depth <= 2;
          this.key = this.readingKey ? [] : void 0;
          break;
        case COLON:
          this.expectKey = false;
          break;
        case COMMA:
          this.expectKey = this.open[depth - 1] === true;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY: {
          const isObject = c === OPEN_OBJECT;
          if (isObject && !this.capture && this.isUsagePosition()) {
            this.capture = { parts: [], size: 0, depth: depth + 1 };
            captureFrom = i;
          }
          this.openContainer(isObject);
          break;
        }
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.open.pop();
          this.keyOf.length = Math.min(this.keyOf.length, this.open.length);
          this.expectKey = false;
          this.lastKey = void 0;
          if (this.capture && this.open.length === this.capture.depth - 1) {
            this.endCapture(chunk.subarray(captureFrom, i + 1));
            captureFrom = -1;
          }
          break;
        default:
          break;
      }
    }
    if (this.capture && captureFrom >= 0) this.keep(chunk.subarray(captureFrom));
  }
  openContainer(isObject) {
    const depth = this.open.length;
    if (depth < 3) this.keyOf[depth] = depth > 0 && this.open[depth - 1] ? this.lastKey : void 0;
    this.open.push(isObject);
    this.expectKey = isObject;
    this.lastKey = void 0;
  }
  /** An object opening now is the value of `usageMetadata` in a document or in its `response`. */
  isUsagePosition() {
    const depth = this.open.length;
    if (this.lastKey !== USAGE_KEY || !this.open[depth - 1]) return false;
    return depth === 1 || depth === 2 && this.keyOf[1] === WRAPPER_KEY;
  }
  endString() {
    this.inString = false;
    if (this.readingKey) {
      this.lastKey = this.key ? String.fromCharCode(...this.key) : void 0;
      this.readingKey = false;
      this.key = void 0;
    }
  }
  keep(part) {
    const cap = this.capture;
    if (!cap) return;
    cap.size += part.length;
    if (cap.size > MAX_USAGE_BYTES) {
      cap.parts.length = 0;
      return;
    }
    cap.parts.push(Buffer.from(part));
  }
  endCapture(last) {
    this.keep(last);
    const cap = this.capture;
    this.capture = void 0;
    if (!cap || cap.size > MAX_USAGE_BYTES) return;
    let value;
    try {
      value = JSON.parse(Buffer.concat(cap.parts).toString("utf8"));
    } catch {
      return;
    }
    const tokens = usageTokens(value);
    if (tokens !== void 0 && tokens > this.tokens) this.tokens = tokens;
  }
};
function decodableEncodings(accepted) {
  const kept = [accepted ?? ""].flat().join(",").split(",").map((t) => t.trim()).filter((t) => {
    const [name = "", ...params] = t.toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== void 0);
    return ["gzip", "x-gzip", "deflate", "br", "identity"].includes(name.trim()) && Number(q ?? 1) > 0;
  });
  return kept.length > 0 ? kept.join(", ") : "identity";
}
var TokenLedger = class {
  constructor(limit) {
    this.limit = limit;
  }
  limit;
  served = { tokens: 0, answers: 0, refusedAtLimit: 0 };
  /** The answers forwarded reached the limit: no further model call is served. */
  get spent() {
    return this.limit !== void 0 && this.served.tokens >= this.limit;
  }
  /** Counts `tokens` more; true exactly when they reached the limit (the first time). */
  add(tokens) {
    const before = this.spent;
    this.served.tokens += tokens;
    return !before && this.spent;
  }
};

// src/proxy/model-call.ts
var FENCED_MESSAGE = "the run's time or token budget is spent: gemini-run stopped the agent";
var OTHER_MODEL_MESSAGE = "this run's credential serves only the run's model and the Gemini CLI's own helper models";
var REFUSED_MESSAGE = "only the model calls of a run (generate, stream, count tokens) are served with this run's credential";
var MAX_MODEL_REQUEST_BODY = 64 * 1024 * 1024;
function spentMessage(ledger) {
  return `the run's token budget is spent (${ledger.served.tokens} tokens served, the limit is ${ledger.limit ?? 0}): gemini-run serves no further model call`;
}
function errorReason(body) {
  try {
    const parsed = external_exports.object({ error: external_exports.object({ message: external_exports.string() }) }).safeParse(JSON.parse(body));
    if (!parsed.success) return void 0;
    const plain = parsed.data.error.message.replace(/[^\w .,:;'()/-]+/g, " ").replace(/\s+/g, " ").trim();
    return plain.slice(0, 160) || void 0;
  } catch {
    return void 0;
  }
}
function quotaDetail(body) {
  const { scope, delayS } = quotaFacts(body);
  return [scope ? `${scope} quota` : "quota", ...delayS !== void 0 ? [`retry in ${delayS}s`] : []].join(
    ", "
  );
}
function readBody(req, max) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size <= max) chunks.push(c);
      else chunks.length = 0;
    });
    req.once("end", () => resolve(size <= max ? Buffer.concat(chunks) : void 0));
    req.once("error", reject);
  });
}
function callOf(core, req, res) {
  const started = performance.now();
  const rawUrl = req.url ?? "";
  const q = rawUrl.indexOf("?");
  const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const method = req.method ?? "GET";
  const finish = (note) => {
    const ms = (performance.now() - started).toFixed(0);
    const shown = pathname.includes(core.o.placeholder) ? "<path withheld>" : pathname.slice(0, 200);
    core.log(`${method} ${shown} -> ${res.statusCode} in ${ms} ms${note}`);
  };
  const closers = [];
  res.once("close", () => {
    for (const fn of closers) fn();
  });
  return {
    req,
    res,
    method,
    rawUrl,
    pathname,
    search: q === -1 ? "" : rawUrl.slice(q),
    finish,
    refuse: (code, status, message) => {
      reply(res, code, status, message);
      finish("");
    },
    onClose: (fn) => void closers.push(fn)
  };
}
async function handleCall(core, req, res) {
  const call = callOf(core, req, res);
  if (core.o.metadata && call.pathname.startsWith(METADATA_PREFIX)) {
    await serveMetadata(core, req, res, call.pathname);
    call.finish("");
    return;
  }
  if (!carriesPlaceholder(presentedCredentials(req.headers, call.search), core.o.placeholder)) {
    req.resume();
    call.refuse(401, "UNAUTHENTICATED", "the request does not carry this run's model credential");
    return;
  }
  const route = modelRoute(core.o.api, call.method, call.rawUrl);
  if (!route.ok) {
    req.resume();
    tally(core, call);
    call.refuse(403, "PERMISSION_DENIED", REFUSED_MESSAGE);
    return;
  }
  const admitted = await admitModel(core, call, route.model);
  if (!admitted) return;
  const isModelCall = route.model !== void 0;
  if (stopped(core, call, isModelCall)) return;
  const path = core.prefix + route.target;
  if (path.includes(core.o.placeholder)) {
    call.refuse(
      400,
      "INVALID_ARGUMENT",
      "the credential may only travel in x-goog-api-key, key= or Authorization"
    );
    return;
  }
  const auth = await credentialHeader(core, call);
  if (!auth || res.destroyed || stopped(core, call, isModelCall)) return;
  send(core, call, { path, auth, isModelCall, ...admitted.body ? { body: admitted.body } : {} });
}
function tally(core, call, model) {
  const shown = shownRefusal(call.method, call.rawUrl, core.o.placeholder, model);
  tallyRefusal(core.refused, shown);
  try {
    core.o.onRefused?.(shown);
  } catch {
  }
}
async function admitModel(core, call, model) {
  const allowed = core.allowedModels;
  if (model?.in === "body") {
    const read = await readBody(call.req, MAX_MODEL_REQUEST_BODY).catch(() => void 0);
    let parsed;
    try {
      parsed = read && !call.req.headers["content-encoding"] ? JSON.parse(read.toString("utf8")) : void 0;
    } catch {
      parsed = void 0;
    }
    if (parsed === void 0) {
      call.refuse(400, "INVALID_ARGUMENT", "a model call needs a JSON body (uncompressed, at most 64 MB)");
      return void 0;
    }
    const named = modelsInBody(parsed);
    if (allowed && (!named || !named.every((m) => allowed.has(m)))) {
      tally(core, call, named?.find((m) => !allowed.has(m)) ?? "none");
      call.refuse(403, "PERMISSION_DENIED", OTHER_MODEL_MESSAGE);
      return void 0;
    }
    return { body: Buffer.from(JSON.stringify(parsed)) };
  }
  if (model && allowed && !allowed.has(model.id)) {
    call.req.resume();
    tally(core, call);
    call.refuse(403, "PERMISSION_DENIED", OTHER_MODEL_MESSAGE);
    return void 0;
  }
  return {};
}
function stopped(core, call, isModelCall) {
  if (!core.state.fenced && !(isModelCall && core.ledger.spent)) return false;
  call.req.resume();
  if (core.state.fenced) call.refuse(400, "FAILED_PRECONDITION", FENCED_MESSAGE);
  else {
    core.ledger.served.refusedAtLimit++;
    core.usage.now();
    call.refuse(400, "FAILED_PRECONDITION", spentMessage(core.ledger));
  }
  return true;
}
async function credentialHeader(core, call) {
  const credential = core.o.credential;
  if (credential.kind === "api-key") return ["x-goog-api-key", credential.apiKey];
  try {
    const token = await credential.token();
    if (!token) throw new Error("the token source returned an empty token");
    core.secrets.add(token);
    return ["authorization", `Bearer ${token}`];
  } catch (e) {
    core.log(`access token unavailable: ${oneLine(getErrorMessage(e))}`);
    call.refuse(
      401,
      "UNAUTHENTICATED",
      "could not get an access token for the model API (see the action's log)"
    );
    return void 0;
  }
}
function send(core, call, s) {
  const { req, res } = call;
  const headers = upstreamHeaders(req.headers, {
    host: core.base.host,
    placeholder: core.o.placeholder,
    credential: s.auth
  });
  if (s.isModelCall) headers["accept-encoding"] = decodableEncodings(req.headers["accept-encoding"]);
  if (s.body) headers["content-length"] = String(s.body.length);
  const upReq = core.upstream.request(call.method, s.path, headers);
  if (s.isModelCall) {
    core.usage.inFlight.add(res);
    call.onClose(() => core.usage.inFlight.delete(res));
  }
  const id = ++core.state.calls;
  core.health.heard(id, Date.now());
  call.onClose(() => {
    core.health.ended(id);
    if (!res.writableFinished) upReq.destroy();
  });
  req.on("error", () => upReq.destroy());
  upReq.on("error", (e) => {
    if (res.writableFinished || res.destroyed) return;
    req.unpipe(upReq);
    const error = core.secrets.redact(oneLine(getErrorMessage(e)));
    core.tell({ kind: "no-answer", error });
    reply(res, 502, "UNAVAILABLE", `upstream unreachable: ${error}`);
    call.finish("");
  });
  upReq.once("response", (up) => answered(core, call, up, { id, isModelCall: s.isModelCall }));
  if (s.body) upReq.end(s.body);
  else req.pipe(upReq);
}
function answered(core, call, up, c) {
  const { res } = call;
  core.health.heard(c.id, Date.now());
  up.on("data", () => core.health.heard(c.id, Date.now()));
  const status = up.statusCode ?? 502;
  const judged = status >= 500 || status === 429;
  if (!judged) core.tell({ kind: "answer", status });
  let told = !judged;
  const tellError = (body) => {
    if (told) return;
    told = true;
    const detail = status === 429 ? quotaDetail(body) : errorReason(body);
    core.tell({ kind: "answer", status, ...detail ? { detail } : {} });
  };
  call.onClose(() => tellError(""));
  relayAnswer({ up, res, secrets: core.secrets, finish: call.finish, onErrorBody: tellError });
  if (c.isModelCall && status < 300) core.usage.meter(up, res, call.onClose);
}
async function serveMetadata(core, req, res, pathname) {
  req.resume();
  const allowed = core.o.metadata?.uids;
  if (allowed) {
    const uid = await loopbackPeerUid(req.socket);
    if (uid === void 0 || !allowed.includes(uid)) {
      core.log(
        `metadata: refused a connection of uid ${uid ?? "unknown"} (only the agent's uid is answered)`
      );
      const body = "Only the agent may ask\n";
      res.writeHead(403, { "metadata-flavor": "Google", "content-type": "application/text" });
      res.end(body);
      return;
    }
  }
  const a = metadataAnswer(
    { method: req.method ?? "GET", pathname, headers: req.headers },
    {
      placeholder: core.o.placeholder,
      ...core.o.metadata?.projectId ? { projectId: core.o.metadata.projectId } : {}
    }
  );
  res.writeHead(a.status, { ...a.headers, "content-length": String(Buffer.byteLength(a.body)) });
  res.end(a.body);
}

// src/proxy/upstream.ts
import http from "node:http";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
var CONNECT_TIMEOUT_MS = 15e3;
var POOL = { keepAlive: true, scheduling: "lifo", timeout: 4e3 };
function proxyFor(target, env) {
  const raw = target.protocol === "https:" ? env.https_proxy || env.HTTPS_PROXY : target.protocol === "http:" ? env.http_proxy || env.HTTP_PROXY : void 0;
  if (!raw || bypassesProxy(target, env.no_proxy || env.NO_PROXY || "")) return void 0;
  try {
    const url = new URL(raw.includes("://") ? raw : `http://${raw}`);
    return url.protocol === "http:" || url.protocol === "https:" ? url : void 0;
  } catch {
    throw new Error("the proxy variable of this environment (HTTPS_PROXY or HTTP_PROXY) is not a URL");
  }
}
function bareHost(url) {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}
function portOf(url) {
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}
function bypassesProxy(target, noProxy) {
  const host = bareHost(target);
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\./.test(host))
    return true;
  for (const raw of noProxy.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[(.*)\](:\d+)?$/, "$1$2"));
    const name = (m?.[1] ?? "").replace(/^\*?\./, "");
    if (m?.[2] && Number(m[2]) !== portOf(target)) continue;
    if (name && (host === name || host.endsWith(`.${name}`))) return true;
  }
  return false;
}
function proxyAuthorization(proxy) {
  if (!proxy.username && !proxy.password) return {};
  const userinfo = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { "proxy-authorization": `Basic ${Buffer.from(userinfo).toString("base64")}` };
}
var TunnelingAgent = class extends https.Agent {
  constructor(proxy) {
    super(POOL);
    this.proxy = proxy;
  }
  proxy;
  createConnection(options, callback) {
    const done = callback ?? (() => void 0);
    const fail = (e) => done(e);
    const authority = `${options.host}:${options.port}`;
    const connect = (this.proxy.protocol === "https:" ? https : http).request({
      host: bareHost(this.proxy),
      port: portOf(this.proxy),
      method: "CONNECT",
      path: authority,
      headers: { host: authority, ...proxyAuthorization(this.proxy) },
      agent: false,
      servername: this.proxy.protocol === "https:" ? bareHost(this.proxy) : void 0
    });
    connect.setTimeout(
      CONNECT_TIMEOUT_MS,
      () => connect.destroy(new Error(`the proxy did not open a tunnel to ${authority} in time`))
    );
    connect.once("connect", (res, socket) => {
      connect.setTimeout(0);
      if (res.statusCode !== 200) {
        socket.destroy();
        fail(new Error(`the proxy refused a tunnel to ${authority} (HTTP ${res.statusCode})`));
        return;
      }
      socket.setNoDelay(true);
      const secure = tls.connect({
        ...options,
        socket,
        servername: options.servername ?? String(options.host)
      });
      done(null, secure);
    });
    connect.once("error", fail);
    connect.end();
    return void 0;
  }
};
function createUpstream(origin, env) {
  const secure = origin.protocol === "https:";
  const proxy = proxyFor(origin, env);
  const host = bareHost(origin);
  const port = portOf(origin);
  let agent;
  let start;
  if (!proxy || secure) {
    agent = proxy ? new TunnelingAgent(proxy) : new (secure ? https : http).Agent(POOL);
    const lib = secure ? https : http;
    start = (method, path, headers) => lib.request({ host, port, method, path, headers, agent, servername: secure ? host : void 0 });
  } else {
    const viaTls = proxy.protocol === "https:";
    agent = new (viaTls ? https : http).Agent(POOL);
    const auth = proxyAuthorization(proxy);
    start = (method, path, headers) => (viaTls ? https : http).request({
      host: bareHost(proxy),
      port: portOf(proxy),
      method,
      path: `${origin.origin}${path}`,
      headers: { ...headers, ...auth },
      agent
    });
  }
  return {
    request(method, path, headers) {
      const req = start(method, path, headers);
      req.on("socket", (socket) => {
        socket.setNoDelay?.(true);
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => req.destroy(new Error(`no connection to ${origin.host} in ${CONNECT_TIMEOUT_MS / 1e3} s`)),
          CONNECT_TIMEOUT_MS
        );
        socket.once("connect", () => clearTimeout(timer));
        socket.once("close", () => clearTimeout(timer));
      });
      return req;
    },
    close: () => agent.destroy()
  };
}
var UNREACHABLE = /* @__PURE__ */ new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_NONAME",
  "EAI_FAIL",
  "EHOSTUNREACH",
  "ENETUNREACH"
]);
var PROBE_TIMEOUT_MS = 5e3;
function probeUpstream(origin, env) {
  let proxy;
  try {
    proxy = proxyFor(origin, env);
  } catch (e) {
    return Promise.resolve({ ok: false, fatal: true, error: e.message });
  }
  const target = proxy ?? origin;
  const via = proxy ? ` through the proxy ${bareHost(proxy)}:${portOf(proxy)}` : "";
  return new Promise((resolve) => {
    let done = false;
    const settle = (r) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const failed = (e) => settle({
      ok: false,
      fatal: UNREACHABLE.has(e.code ?? ""),
      error: `${e.code ?? e.message.slice(0, 200)}${via}`
    });
    let stopTrying = () => void 0;
    const timer = setTimeout(() => {
      stopTrying();
      settle({ ok: false, fatal: false, error: `no connection in ${PROBE_TIMEOUT_MS / 1e3} s${via}` });
    }, PROBE_TIMEOUT_MS);
    if (proxy && origin.protocol === "https:") {
      const authority = `${bareHost(origin)}:${portOf(origin)}`;
      const tunnel = (proxy.protocol === "https:" ? https : http).request({
        host: bareHost(proxy),
        port: portOf(proxy),
        method: "CONNECT",
        path: authority,
        headers: { host: authority, ...proxyAuthorization(proxy) },
        agent: false
      });
      tunnel.once("connect", (res, s) => {
        s.destroy();
        if (res.statusCode === 200) settle({ ok: true });
        else
          settle({
            ok: false,
            fatal: true,
            error: `the proxy refused a tunnel (HTTP ${res.statusCode})${via}`
          });
      });
      tunnel.once("error", failed);
      tunnel.end();
      stopTrying = () => tunnel.destroy();
      return;
    }
    const socket = net.connect({ host: bareHost(target), port: portOf(target) });
    stopTrying = () => socket.destroy();
    socket.once("connect", () => {
      socket.destroy();
      settle({ ok: true });
    });
    socket.once("error", failed);
  });
}

// src/proxy/upstream-health.ts
function checkUpstreamUrl(raw, variable) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    return `${variable} is not a URL (a port must be 1-65535); set it to the model API's base URL, e.g. https://host:443`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `${variable} must be an http(s) URL, not ${url.protocol.slice(0, 20)}`;
  }
  if (!url.hostname) return `${variable} has no host name`;
  if (url.port === "0") {
    return `${variable} names port 0 (${url.hostname}:0): a port must be 1-65535; set the port the model API listens on`;
  }
  if (url.username || url.password || url.search || url.hash) {
    return `${variable} must not carry credentials, a query or a fragment`;
  }
  return void 0;
}
var GIVE_UP = {
  noAnswer: { calls: 3, overMs: 1e4 },
  serverError: { calls: 4, overMs: 3e4 }
};
var DEFAULT_SILENCE_MS = 5 * 6e4;
function silenceFor(timeoutMs) {
  return Math.min(DEFAULT_SILENCE_MS, Math.max(2e4, Math.round(timeoutMs / 4)));
}
var UpstreamHealth = class {
  constructor(upstream, limits = GIVE_UP, silenceMs = DEFAULT_SILENCE_MS) {
    this.upstream = upstream;
    this.limits = limits;
    this.silenceMs = silenceMs;
  }
  upstream;
  limits;
  silenceMs;
  streak;
  gaveUp = false;
  /** The calls in flight, by id: when each last heard from the upstream (its start, its headers, a body chunk). */
  open = /* @__PURE__ */ new Map();
  /** A call was sent upstream, or heard from it (headers, a body chunk): its silence starts again. */
  heard(call, now) {
    this.open.set(call, now);
  }
  /** A call ended (answered whole, failed, or dropped by the agent): it cannot be silent any more. */
  ended(call) {
    this.open.delete(call);
  }
  /**
   * Checked on a timer: a call that heard nothing for `silenceMs` gives the upstream up (once). The CLI waits on
   * such a call for ever (probe escape-after-tool-call: a hung request is only ended by an Escape), so without
   * this a model that stops answering mid-turn is only known at the run's timeout.
   */
  silence(now) {
    if (this.gaveUp) return void 0;
    let quietest = 0;
    for (const last of this.open.values()) quietest = Math.max(quietest, now - last);
    if (quietest < this.silenceMs) return void 0;
    this.gaveUp = true;
    return {
      kind: "down",
      message: `the model API at ${this.upstream} stopped answering: a call has heard nothing for ${Math.round(quietest / 1e3)} s`
    };
  }
  record(outcome, now) {
    if (outcome.kind === "answer" && outcome.status < 500) {
      this.streak = void 0;
      if (outcome.status !== 429) return void 0;
      return {
        kind: "quota-wait",
        message: `the model API asked to wait: HTTP 429 (${outcome.detail ?? "quota"})`
      };
    }
    const what = outcome.kind === "answer" ? `HTTP ${outcome.status}${outcome.detail ? ` (${outcome.detail})` : ""}` : `no answer (${outcome.error.slice(0, 200)})`;
    const first = this.streak === void 0;
    const s = this.streak ??= { since: now, calls: 0, noAnswer: 0, last: what };
    s.calls++;
    if (outcome.kind === "no-answer") s.noAnswer++;
    s.last = what;
    if (first) {
      return { kind: "first-failure", message: `the model API at ${this.upstream} failed a call: ${what}` };
    }
    const span = now - s.since;
    const { noAnswer, serverError } = this.limits;
    const down = s.noAnswer >= noAnswer.calls && span >= noAnswer.overMs || s.calls >= serverError.calls && span >= serverError.overMs;
    if (!down || this.gaveUp) return void 0;
    this.gaveUp = true;
    return {
      kind: "down",
      message: `the model API at ${this.upstream} is unavailable: ${s.calls} call(s) in ${Math.round(span / 1e3)} s failed and none was answered; the last: ${what}`
    };
  }
};

// src/proxy/usage-report.ts
import zlib2 from "node:zlib";
var USAGE_REPORT_MS = 250;
function usageDecoder(encoding) {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "":
    case "identity":
      return null;
    case "gzip":
    case "x-gzip":
    case "deflate":
      return zlib2.createUnzip();
    case "br":
      return zlib2.createBrotliDecompress();
    default:
      return void 0;
  }
}
var UsageReport = class {
  constructor(ledger, onUsage, log) {
    this.ledger = ledger;
    this.onUsage = onUsage;
    this.log = log;
  }
  ledger;
  onUsage;
  log;
  /** Model calls in flight (sent upstream, answer not yet over): cut when the limit is reached. */
  inFlight = /* @__PURE__ */ new Set();
  timer;
  /** Tells the count now (at the limit, at a refusal there, at the end). */
  now() {
    clearTimeout(this.timer);
    this.timer = void 0;
    try {
      this.onUsage?.({ ...this.ledger.served });
    } catch {
    }
  }
  /**
   * Tells the count after an answer, at most every USAGE_REPORT_MS: the proxy holds the limit itself, so the action
   * needs the count for its summary and its stop, not per chunk; fewer lines are less work on both sides.
   */
  soon() {
    this.timer ??= setTimeout(() => this.now(), USAGE_REPORT_MS);
  }
  /** The final count, if one is still to be told. */
  flush() {
    if (this.timer) this.now();
  }
  /** The answer to `crossing` reached the limit: every other model call still in flight ends here. */
  limitReached(crossing) {
    this.log(
      `token limit reached: ${this.ledger.served.tokens} tokens served of ${this.ledger.limit ?? 0}; refusing further model calls`
    );
    for (const other of this.inFlight) if (other !== crossing) other.destroy();
    this.now();
  }
  /**
   * Counts the answer `up` to a model call as its bytes go by. Each chunk is read once the loop turn that forwarded
   * it is over: the response flushes its writes on the next tick, so reading at once would delay the first byte.
   */
  meter(up, res, onClose) {
    this.ledger.served.answers++;
    const usage = new AnswerUsage();
    let counted = 0;
    const feed = (chunk) => {
      usage.write(chunk);
      if (usage.tokens <= counted) return;
      const delta = usage.tokens - counted;
      counted = usage.tokens;
      if (this.ledger.add(delta)) this.limitReached(res);
    };
    const pending = [];
    const drain = () => {
      for (const chunk of pending.splice(0)) feed(chunk);
    };
    const later = (chunk) => {
      if (pending.push(chunk) === 1) setImmediate(drain);
    };
    const decoder = usageDecoder(up.headers["content-encoding"]);
    if (decoder === null) up.on("data", later);
    else if (decoder === void 0) {
      this.log(
        `an answer in content-encoding ${oneLine(String(up.headers["content-encoding"])).slice(0, 40)} is not counted`
      );
    } else {
      up.on("data", (c) => decoder.write(c));
      up.once("end", () => decoder.end());
      up.once("close", () => decoder.end());
      decoder.on("data", feed);
      decoder.on("error", () => this.log("an encoded answer could not be decoded for counting"));
      decoder.once("end", () => this.soon());
    }
    onClose(() => setImmediate(() => this.soon()));
  }
};

// src/proxy/model-proxy.ts
var MIN_PLACEHOLDER_LENGTH = 16;
function parseUpstream(raw) {
  const problem = checkUpstreamUrl(raw, "the upstream");
  if (problem) throw new Error(`model proxy: ${problem}`);
  return new URL(raw);
}
function secretsOf(o) {
  if (o.placeholder.length < MIN_PLACEHOLDER_LENGTH) {
    throw new Error(`model proxy: the placeholder must be at least ${MIN_PLACEHOLDER_LENGTH} characters`);
  }
  const secrets = new SecretSet();
  const credential = o.credential;
  if (credential.kind === "api-key") {
    if (!credential.apiKey) throw new Error("model proxy: the API key is empty");
    if (sameSecret(credential.apiKey, o.placeholder)) {
      throw new Error("model proxy: the placeholder must differ from the API key");
    }
    secrets.add(credential.apiKey);
  }
  return secrets;
}
function coreOf(o) {
  const base = parseUpstream(o.upstream);
  const secrets = secretsOf(o);
  const log = (line) => {
    try {
      o.log?.(secrets.redact(line));
    } catch {
    }
  };
  const upstream = createUpstream(base, process.env);
  const health = new UpstreamHealth(base.host, GIVE_UP, o.silenceMs);
  const note = (n) => {
    if (!n) return;
    log(`${n.kind === "down" ? "giving up" : "warning"}: ${n.message}`);
    try {
      o.onHealth?.({ ...n, message: secrets.redact(n.message) });
    } catch {
    }
  };
  const silenceTimer = setInterval(() => note(health.silence(Date.now())), 1e3);
  silenceTimer.unref();
  const ledger = new TokenLedger(o.tokenLimit);
  const core = {
    o,
    base,
    prefix: base.pathname.replace(/\/+$/, ""),
    secrets,
    log,
    upstream,
    health,
    tell: (outcome) => note(health.record(outcome, Date.now())),
    ledger,
    usage: new UsageReport(ledger, o.onUsage, log),
    refused: { count: 0, first: [] },
    allowedModels: o.models ? new Set(o.models) : void 0,
    state: { fenced: false, calls: 0 }
  };
  return { core, silenceTimer };
}
async function startModelProxy(o) {
  const { core, silenceTimer } = coreOf(o);
  const server = http2.createServer({ noDelay: true }, (req, res) => {
    handleCall(core, req, res).catch((e) => {
      reply(res, 502, "UNAVAILABLE", `internal error: ${core.secrets.redact(oneLine(getErrorMessage(e)))}`);
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address();
  let closing;
  return {
    url: `http://127.0.0.1:${port}`,
    fence: () => {
      if (!core.state.fenced) core.log("fenced: every further model call is refused");
      core.state.fenced = true;
    },
    refusals: () => ({ count: core.refused.count, first: [...core.refused.first] }),
    usage: () => ({ ...core.ledger.served }),
    close: () => closing ??= new Promise((resolve) => {
      clearInterval(silenceTimer);
      core.usage.flush();
      server.close(() => resolve());
      server.closeAllConnections();
      core.upstream.close();
    })
  };
}

// src/proxy/config.ts
var proxyConfigSchema = external_exports.strictObject({
  upstream: external_exports.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  placeholder: external_exports.string().min(MIN_PLACEHOLDER_LENGTH, `must be at least ${MIN_PLACEHOLDER_LENGTH} characters`),
  credential: external_exports.discriminatedUnion("kind", [
    external_exports.strictObject({ kind: external_exports.literal("api-key"), apiKey: external_exports.string().min(1, "is empty") }),
    /** The token's value at launch; later values arrive as update lines. */
    external_exports.strictObject({ kind: external_exports.literal("bearer"), token: external_exports.string().min(1, "is empty") })
  ]),
  /** Which API the upstream is; only its model calls are forwarded (model-routes.ts). */
  api: external_exports.enum(["gemini-api", "vertex", "code-assist"]),
  /** How long a model call may hear nothing before the model counts as down (upstream-health.ts silenceFor). */
  silenceMs: external_exports.number().int().positive().optional(),
  /** The model ids forwarded (model-proxy.ts `models`); absent: any. */
  models: external_exports.array(external_exports.string().min(1).max(100)).max(200).optional(),
  /** The tokens the run may be served (model-proxy.ts `tokenLimit`); absent: no limit. */
  tokenLimit: external_exports.number().int().positive().optional(),
  /** The metadata server stand-in (Vertex AI), see metadata.ts. */
  metadata: external_exports.strictObject({
    projectId: external_exports.string().min(1).optional(),
    uids: external_exports.array(external_exports.number().int().nonnegative()).optional()
  }).optional()
});
var controlLineSchema = external_exports.union([
  external_exports.strictObject({ token: external_exports.string().min(1) }),
  external_exports.strictObject({ fence: external_exports.literal(true) })
]);
var readyLineSchema = external_exports.strictObject({ url: external_exports.url({ protocol: /^http$/ }) });
var refusedLineSchema = external_exports.strictObject({
  refused: external_exports.strictObject({
    method: external_exports.string().max(32),
    path: external_exports.string().max(200),
    model: external_exports.string().max(100).optional()
  })
});
var usageLineSchema = external_exports.strictObject({
  usage: external_exports.strictObject({
    tokens: external_exports.number().nonnegative(),
    answers: external_exports.number().int().nonnegative(),
    refusedAtLimit: external_exports.number().int().nonnegative()
  })
});
var healthLineSchema = external_exports.strictObject({
  health: external_exports.strictObject({
    kind: external_exports.enum(["first-failure", "quota-wait", "down"]),
    message: external_exports.string().max(1e3)
  })
});
function parseLine(schema, line, what) {
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${what} is not one line of JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => (i.path.length ? `${i.path.join(".")}: ` : "") + i.message
    );
    throw new Error(`${what} is invalid: ${problems.join("; ")}`);
  }
  return parsed.data;
}

export {
  checkUpstreamUrl,
  silenceFor,
  refusalLine,
  tallyRefusal,
  proxyFor,
  proxyAuthorization,
  createUpstream,
  probeUpstream,
  SecretSet,
  startModelProxy,
  proxyConfigSchema,
  controlLineSchema,
  readyLineSchema,
  refusedLineSchema,
  usageLineSchema,
  healthLineSchema,
  parseLine
};
