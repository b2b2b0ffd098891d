/**
 * Which calls the model proxy forwards: the model calls gemini 0.42.0 and 0.61.0 make, and nothing else the
 * credential could reach (files, cachedContents, tunedModels, batches, operations, corpora, account settings).
 * Evidence for each API:
 * - Gemini API (@google/genai, default version v1beta): `POST models/{m}:streamGenerateContent?alt=sse`, and
 *   `:generateContent` (router, next speaker, loop check) in every capture (fixtures/gemini-0.x/*\/requests.json);
 *   `:countTokens` in the SDK's content generator. The CLI lists no models and never calls `embedContent`
 *   (`generateEmbedding` is defined in both bundles, called nowhere).
 * - Vertex AI (same SDK, default version v1beta1, compat.md A15): the same three methods under
 *   `projects/{p}/locations/{l}/publishers/google/models/{m}`, or `publishers/google/models/{m}` in express mode.
 * - Code Assist (`CodeAssistServer` in both bundles, base `/v1internal`): POST `:{method}` for the three model
 *   methods and the session's own bookkeeping (loadCodeAssist, onboardUser, listExperiments,
 *   retrieveUserQuota, fetchAdminControls, recordCodeAssistMetrics), and GET `/{operation name}` to poll an
 *   onboarding. Not served: get/setCodeAssistGlobalUserSetting (the /privacy dialog: an account setting, not a
 *   run's business) and `embedContent` (it throws before sending).
 * Matching is on the raw request target, which must already be in normal form: no percent-encoding in the path,
 * no dot segments, no empty segments. The only query kept is `alt=sse` on a stream call; `key` (the
 * placeholder's carrier) is dropped, anything else is refused, so nothing the agent adds reaches the upstream.
 * A model call also names its model (in the path, or in Code Assist's JSON body): the proxy holds it to the run's
 * models (src/gemini/models.ts modelsForRun).
 */

export type ModelApi = 'gemini-api' | 'vertex' | 'code-assist';

const MODEL_METHODS = 'generateContent|streamGenerateContent|countTokens';
const NAME = '[A-Za-z0-9][A-Za-z0-9._-]*';
const MODEL_ID = new RegExp(`^${NAME}$`);

/** A route; `model`: the capture group of the path that names the model, or 'body' (Code Assist). */
interface Route {
  method: 'POST' | 'GET';
  path: RegExp;
  /** A model call (generate, stream, count tokens): fenced, counted, and held to the run's models. */
  model?: 'path' | 'body';
}

const ROUTES: Record<ModelApi, readonly Route[]> = {
  'gemini-api': [
    {
      method: 'POST',
      path: new RegExp(`^/v1(?:beta|alpha)?/models/(${NAME}):(?:${MODEL_METHODS})$`),
      model: 'path',
    },
  ],
  vertex: [
    {
      method: 'POST',
      path: new RegExp(
        `^/v1(?:beta1)?(?:/projects/[A-Za-z0-9][A-Za-z0-9.:_-]*/locations/[a-z0-9][a-z0-9-]*)?/publishers/google/models/(${NAME}):(?:${MODEL_METHODS})$`,
      ),
      model: 'path',
    },
  ],
  'code-assist': [
    { method: 'POST', path: new RegExp(`^/v1internal:(?:${MODEL_METHODS})$`), model: 'body' },
    {
      method: 'POST',
      path: /^\/v1internal:(?:loadCodeAssist|onboardUser|listExperiments|retrieveUserQuota|fetchAdminControls|recordCodeAssistMetrics)$/,
    },
    { method: 'GET', path: new RegExp(`^/v1internal/operations/${NAME}$`) },
  ],
};

/** Where a model call names its model: in its path (the id), or in its JSON body (Code Assist). */
export type ModelNamed = { in: 'path'; id: string } | { in: 'body' };

export type RouteDecision =
  | {
      ok: true;
      /** Path and query to send upstream (before the upstream's own prefix). */
      target: string;
      /**
       * A model call, and which model it names: from the path, or `body` when the JSON body names it (Code
       * Assist: modelsInBody). Absent for the API's other calls (Code Assist's own bookkeeping).
       */
      model?: ModelNamed;
    }
  | { ok: false };

/** Whether `method` on the raw request target `rawTarget` is a model call of `api`; pure. */
export function modelRoute(api: ModelApi, method: string, rawTarget: string): RouteDecision {
  const q = rawTarget.indexOf('?');
  const pathname = q === -1 ? rawTarget : rawTarget.slice(0, q);
  const search = q === -1 ? '' : rawTarget.slice(q + 1);
  if (!pathname.startsWith('/') || pathname.startsWith('//') || pathname.includes('%')) return { ok: false };
  // The WHATWG parser is what the upstream's stack would apply: a path it would rewrite is not in normal form.
  let parsed: URL;
  try {
    parsed = new URL(rawTarget, 'http://model-proxy.invalid');
  } catch {
    return { ok: false };
  }
  if (parsed.host !== 'model-proxy.invalid' || parsed.pathname !== pathname || rawTarget.includes('#')) {
    return { ok: false };
  }
  let match: RegExpExecArray | null = null;
  const route = ROUTES[api].find((r) => r.method === method && (match = r.path.exec(pathname)) !== null);
  if (!route || !match) return { ok: false };
  const model: ModelNamed | undefined =
    route.model === 'path'
      ? { in: 'path', id: (match as RegExpExecArray)[1] ?? '' }
      : route.model === 'body'
        ? { in: 'body' }
        : undefined;
  let alt: string | undefined;
  for (const part of search.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    if (name === 'key') continue;
    if (
      name === 'alt' &&
      value === 'sse' &&
      alt === undefined &&
      pathname.endsWith(':streamGenerateContent')
    ) {
      alt = value;
      continue;
    }
    return { ok: false };
  }
  return { ok: true, target: alt ? `${pathname}?alt=sse` : pathname, ...(model ? { model } : {}) };
}

/**
 * The models a Code Assist model call's JSON body names: `model` (generate, stream) and `request.model`
 * (`models/<id>`, count tokens). Undefined when the body is not such an object, or names a model in a form this
 * does not read.
 */
export function modelsInBody(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const out: string[] = [];
  const top = (body as Record<string, unknown>)['model'];
  const request = (body as Record<string, unknown>)['request'];
  const inner =
    typeof request === 'object' && request !== null
      ? (request as Record<string, unknown>)['model']
      : undefined;
  for (const [value, prefixed] of [
    [top, false],
    [inner, true],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'string') return undefined;
    const id = prefixed && value.startsWith('models/') ? value.slice('models/'.length) : value;
    if (!MODEL_ID.test(id)) return undefined;
    out.push(id);
  }
  return out.length > 0 ? out : undefined;
}

/** A refused call as the summary may show it: the method and a short path of plain characters only. */
export interface RefusedCall {
  method: string;
  path: string;
  /** The model a Code Assist call named in its body, when that was why (plain characters only). */
  model?: string;
}

const SHOWN_PATH_CHARS = 80;

/**
 * What of a refused target may be printed: the path alone (the query may carry a key), cut short, every
 * character outside a plain URL alphabet replaced, and withheld entirely when it holds the placeholder.
 */
export function shownRefusal(
  method: string,
  rawTarget: string,
  placeholder: string,
  model?: string,
): RefusedCall {
  const q = rawTarget.indexOf('?');
  const pathname = q === -1 ? rawTarget : rawTarget.slice(0, q);
  const plain = (s: string, max: number): string =>
    s.slice(0, max).replace(/[^A-Za-z0-9._~:/%+@=,-]/g, '_') + (s.length > max ? '…' : '');
  return {
    method: plain(method, 16),
    path: pathname.includes(placeholder) ? '<path withheld>' : plain(pathname, SHOWN_PATH_CHARS),
    ...(model !== undefined ? { model: plain(model, 64) } : {}),
  };
}

/** A refused call in one line: `POST /v1beta/files`, or `POST /v1internal:generateContent (model x)`. */
export function refusalLine(c: RefusedCall): string {
  return `${c.method} ${c.path}${c.model !== undefined ? ` (model ${c.model})` : ''}`;
}

/** How many calls were refused, and the first few of them. */
export interface Refusals {
  count: number;
  first: RefusedCall[];
}

const KEPT_REFUSALS = 5;

/** Adds one refusal to a tally in place (only the first few are kept verbatim). */
export function tallyRefusal(tally: Refusals, call: RefusedCall): void {
  tally.count++;
  if (tally.first.length < KEPT_REFUSALS) tally.first.push(call);
}
