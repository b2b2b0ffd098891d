/**
 * A local fake of the Gemini API (generativelanguage.googleapis.com, v1beta) that the REAL gemini 0.42.0 reaches
 * through GOOGLE_GEMINI_BASE_URL with `gemini-api-key` auth. It plays a scripted conversation: one script step per
 * `:streamGenerateContent` call (the main agent loop), and answers the CLI's utility calls (`:generateContent`:
 * model router, next-speaker check, loop detection, summaries; `:countTokens`) the way the real API would, so the
 * CLI never logs schema errors or falls back because of the fake.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { EMBEDDED_SCRIPTS } from './scripts.js';
import { setTimeout as sleep } from 'node:timers/promises';

export const SCRIPTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'scripts');

const functionCallSchema = z.object({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

const errorSchema = z.union([
  z.object({
    status: z.literal(429),
    kind: z.enum(['daily-quota', 'rate-limit']),
    retryDelaySeconds: z.number().optional(),
  }),
  z.object({ status: z.union([z.literal(500), z.literal(503)]) }),
]);

/** One answer to one `:streamGenerateContent` call. */
export const stepSchema = z
  .object({
    text: z.string().optional(),
    /** Split `text` into this many SSE events (default 1); the last carries finishReason STOP and usage. */
    chunks: z.number().int().positive().optional(),
    functionCalls: z.array(functionCallSchema).optional(),
    error: errorSchema.optional(),
    /** Wait this long before answering (headers included). */
    delayMs: z.number().int().nonnegative().optional(),
    /** Never answer; the socket stays open until the client gives up or the fake is closed. */
    hang: z.literal(true).optional(),
  })
  .strict()
  .refine((s) => s.text !== undefined || s.functionCalls !== undefined || s.error !== undefined || s.hang, {
    message: 'a step needs text, functionCalls, error or hang',
  });

export const scriptSchema = z
  .object({
    description: z.string().min(1),
    steps: z.array(stepSchema),
    /** Once the steps are used up, answer every further call with the last step again (a model that stays down). */
    repeatLast: z.boolean().optional(),
  })
  .strict();

export type Step = z.infer<typeof stepSchema>;
export type Script = z.infer<typeof scriptSchema>;
export type RequestKind = 'stream' | 'generate' | 'countTokens' | 'other';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The model id from the path (`/v1beta/models/<model>:<method>`), when there is one. */
  model?: string;
  kind: RequestKind;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: unknown;
  /** What the fake answered: the script step index for stream calls, or a label for utility calls. */
  answeredWith?: string;
  status?: number;
  at: number;
}

export const EXHAUSTED_TEXT = '(fake model: script exhausted)';

export function loadScript(nameOrPath: string): Script {
  if (!nameOrPath.endsWith('.json')) {
    const embedded = EMBEDDED_SCRIPTS[nameOrPath];
    if (embedded) return scriptSchema.parse(embedded);
  }
  const file = nameOrPath.endsWith('.json') ? nameOrPath : join(SCRIPTS_DIR, `${nameOrPath}.json`);
  return scriptSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

export class FakeGemini {
  readonly requests: RecordedRequest[] = [];
  private nextStep = 0;
  private readonly sockets = new Set<Socket>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly script: Script,
    readonly url: string,
  ) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(script: Script | string): Promise<FakeGemini> {
    const parsed = typeof script === 'string' ? loadScript(script) : scriptSchema.parse(script);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('fake gemini: no TCP address');
    const fake = new FakeGemini(server, parsed, `http://127.0.0.1:${address.port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      fake.handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { code: 500, message: `fake gemini: ${String(e)}`, status: 'INTERNAL' } }),
        );
      });
    });
    return fake;
  }

  /** The main-loop calls, in order (each consumed one script step). */
  modelRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'stream');
  }

  /** Steps not yet consumed. */
  get remainingSteps(): number {
    return Math.max(0, this.script.steps.length - this.nextStep);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Hung requests (the `hang` step) and keep-alive sockets would keep close() waiting forever.
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = req.url ?? '/';
    const { model, kind } = classifyPath(path);
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const rec: RecordedRequest = { method: req.method ?? 'GET', path, kind, body, at: Date.now() };
    if (model !== undefined) rec.model = model;
    this.requests.push(rec);

    if (req.method !== 'POST' || kind === 'other') {
      rec.status = 404;
      rec.answeredWith = 'not-found';
      sendJson(res, 404, googleError(404, 'NOT_FOUND', `Method not found: ${path}`));
      return;
    }
    const modelId = model ?? 'unknown-model';
    if (kind === 'countTokens') {
      rec.status = 200;
      rec.answeredWith = 'countTokens';
      sendJson(res, 200, { totalTokens: estimateTokens(body) });
      return;
    }
    if (kind === 'generate') {
      const { label, response } = answerUtility(body, modelId);
      rec.status = 200;
      rec.answeredWith = label;
      sendJson(res, 200, response);
      return;
    }
    const index = this.nextStep++;
    const step = this.script.steps[index] ?? (this.script.repeatLast ? this.script.steps.at(-1) : undefined);
    rec.answeredWith = step ? `step ${index}` : 'exhausted';
    await this.playStep(step ?? { text: EXHAUSTED_TEXT }, modelId, estimateTokens(body), rec, res);
  }

  private async playStep(
    step: Step,
    model: string,
    promptTokens: number,
    rec: RecordedRequest,
    res: ServerResponse,
  ) {
    if (step.hang) {
      rec.status = 0;
      return; // the socket is destroyed by close() or by the client
    }
    if (step.delayMs) await sleep(step.delayMs);
    if (res.destroyed) return;
    if (step.error) {
      const { status, body } = errorResponse(step.error, model);
      rec.status = status;
      sendJson(res, status, body);
      return;
    }
    rec.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of streamChunks(step, model, promptTokens)) {
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    }
    res.end();
  }
}

/** `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse` → model + kind. Exported for tests. */
export function classifyPath(path: string): { model?: string; kind: RequestKind } {
  const m = /^\/v1(?:beta|alpha)?\/models\/([^/:?]+):([A-Za-z]+)/.exec(path);
  if (!m) return { kind: 'other' };
  const model = decodeURIComponent(m[1] ?? '');
  const method = m[2];
  const kind: RequestKind =
    method === 'streamGenerateContent'
      ? 'stream'
      : method === 'generateContent'
        ? 'generate'
        : method === 'countTokens'
          ? 'countTokens'
          : 'other';
  return { model, kind };
}

interface Part {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
}

function usage(promptTokens: number, candidates: number) {
  return {
    promptTokenCount: promptTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: promptTokens + candidates,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
  };
}

/** The SSE events for one text/function-call step. Exported for tests. */
export function streamChunks(step: Step, model: string, promptTokens: number): unknown[] {
  const text = step.text ?? '';
  const calls = step.functionCalls ?? [];
  const n = Math.max(1, Math.min(step.chunks ?? 1, Math.max(1, text.length)));
  const pieces: string[] = [];
  if (text.length > 0) {
    const size = Math.ceil(text.length / n);
    for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  }
  const events: Part[][] = pieces.map((t) => [{ text: t }]);
  const callParts: Part[] = calls.map((c) => ({ functionCall: { name: c.name, args: c.args } }));
  // Function calls travel in the last event, like the real API does after any leading text.
  if (events.length === 0) events.push(callParts);
  else if (callParts.length > 0)
    events[events.length - 1] = [...(events[events.length - 1] ?? []), ...callParts];
  const candidateTokens = estimateTokens({ text, calls });
  const responseId = `fake-${Math.random().toString(36).slice(2, 10)}`;
  return events.map((parts, i) => {
    const last = i === events.length - 1;
    const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 };
    if (last) candidate['finishReason'] = 'STOP';
    const chunk: Record<string, unknown> = { candidates: [candidate], modelVersion: model, responseId };
    chunk['usageMetadata'] = last
      ? usage(promptTokens, candidateTokens)
      : { promptTokenCount: promptTokens, totalTokenCount: promptTokens };
    return chunk;
  });
}

function googleError(code: number, status: string, message: string, details?: unknown[]) {
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

/** Error bodies copied in shape from what generativelanguage.googleapis.com returns. Exported for tests. */
export function errorResponse(
  error: NonNullable<Step['error']>,
  model: string,
): { status: number; body: unknown } {
  if (error.status === 503) {
    return {
      status: 503,
      body: googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
    };
  }
  if (error.status === 500) {
    return {
      status: 500,
      body: googleError(
        500,
        'INTERNAL',
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      ),
    };
  }
  if (error.status !== 429) throw new Error(`fake gemini: unsupported error status ${String(error.status)}`);
  const daily = error.kind === 'daily-quota';
  const delay = error.retryDelaySeconds ?? (daily ? 43 : 2);
  const metric = 'generativelanguage.googleapis.com/generate_content_free_tier_requests';
  const quotaId = daily
    ? 'GenerateRequestsPerDayPerProjectPerModel-FreeTier'
    : 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier';
  const limit = daily ? '250' : '10';
  const message =
    'You exceeded your current quota, please check your plan and billing details. For more information on this ' +
    'error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: ' +
    `https://ai.dev/usage?tab=rate-limit. \n* Quota exceeded for metric: ${metric}, limit: ${limit}, model: ${model}\n` +
    `Please retry in ${delay}.${daily ? '518029' : '000000'}s.`;
  return {
    status: 429,
    body: googleError(429, 'RESOURCE_EXHAUSTED', message, [
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [
          {
            description: 'Learn more about Gemini API quotas',
            url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
          },
        ],
      },
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          { quotaMetric: metric, quotaId, quotaDimensions: { location: 'global', model }, quotaValue: limit },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${delay}s` },
    ]),
  };
}

/**
 * Answers a `:generateContent` utility call. Every JSON-mode call 0.42.0 makes carries its schema in
 * `generationConfig.responseJsonSchema` (router, next-speaker, loop detection): we answer with a value that
 * conforms to it, choosing the cheapest/least disruptive option (route to flash, next speaker = user, loop
 * confidence 0). Plain-text utility calls (summaries) get a short text. Exported for tests.
 */
export function answerUtility(body: unknown, model: string): { label: string; response: unknown } {
  const req = z
    .object({
      generationConfig: z
        .object({
          responseJsonSchema: z.unknown().optional(),
          responseSchema: z.unknown().optional(),
          responseMimeType: z.string().optional(),
        })
        .passthrough()
        .optional(),
    })
    .passthrough()
    .safeParse(body);
  const cfg = req.success ? req.data.generationConfig : undefined;
  const schema = cfg?.responseJsonSchema ?? cfg?.responseSchema;
  let text: string;
  let label: string;
  if (schema !== undefined) {
    const value = fillSchema(schema);
    text = JSON.stringify(value);
    label = `json:${Object.keys(isRecord(value) ? value : {}).join(',')}`;
  } else if (cfg?.responseMimeType === 'application/json') {
    text = '{}';
    label = 'json:empty';
  } else {
    text = 'Summary: the fake model completed the requested work.';
    label = 'text';
  }
  const promptTokens = estimateTokens(body);
  const out = estimateTokens(text);
  return {
    label,
    response: {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: usage(promptTokens, out),
      modelVersion: model,
      responseId: `fake-${Math.random().toString(36).slice(2, 10)}`,
    },
  };
}

/** The enum values we prefer when a schema offers them: route to flash, hand the turn back to the user. */
const PREFERRED_ENUM = ['flash', 'user'];

/** A minimal value conforming to a JSON schema (object/string/number/integer/boolean/array/enum). Exported for tests. */
export function fillSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return null;
  const type = typeof schema['type'] === 'string' ? schema['type'].toLowerCase() : undefined;
  const en = schema['enum'];
  if (Array.isArray(en) && en.length > 0) {
    return en.find((v) => typeof v === 'string' && PREFERRED_ENUM.includes(v)) ?? en[0];
  }
  switch (type) {
    case 'object': {
      const props = isRecord(schema['properties']) ? schema['properties'] : {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) out[k] = fillSchema(v);
      return out;
    }
    case 'array':
      return [];
    case 'number':
    case 'integer': {
      // The lowest value allowed: routes to flash (complexity_score "from 1-100") and reports no loop (0.0-1.0).
      const min = schema['minimum'];
      if (typeof min === 'number') return min;
      const range =
        typeof schema['description'] === 'string' ? /(\d+)\s*-\s*\d+/.exec(schema['description']) : null;
      return range ? Number(range[1]) : 0;
    }
    case 'boolean':
      return false;
    case 'string':
      return 'Fake model: simple, bounded request.';
    default:
      return null;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ~4 characters a token, like the CLI's own estimate; never 0 so usage looks plausible. */
function estimateTokens(v: unknown): number {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  return Math.max(1, Math.ceil(s.length / 4));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
