/**
 * Holds the fake GitHub's request log to GitHub's published REST description (@octokit/openapi): every request
 * the code under test sent must name an operation GitHub has, with valid path and query parameters and a valid
 * JSON body; every answer must be a status the operation documents (or one GitHub gives on any call: 401, 404, a rate
 * limit, a 5xx) with a body of that status's schema, and an error body carries `message` and `documentation_url`.
 * GraphQL (not in the REST description), the Actions results service's twirp calls and the signed blob URLs a
 * download redirects to (a job's log: another host on GitHub, served by the fake under /_blobs/) are skipped, and
 * counted.
 *
 * The 13 MB description is read once per worker and each operation's schemas are compiled on first use.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { RecordedRequest } from '../../src/fake/github-api.js';

type Json = Record<string, unknown>;
type Exchange = Pick<RecordedRequest, 'method' | 'path' | 'query' | 'body' | 'status' | 'response'>;

export interface Violation {
  /** The operation id (`issues/create-comment`), or `METHOD path` when no operation matches. */
  operation: string;
  status: number;
  /** What is wrong: `request body`, `response body`, `query`, `path`, `route`, `status`. */
  part: string;
  /** JSON pointer into the part. */
  pointer: string;
  message: string;
}

export interface ConformanceReport {
  /** Requests held to the description. */
  checked: number;
  /** POST /graphql calls, outside the REST description. */
  graphql: number;
  /** Actions results service (twirp) calls, not api.github.com. */
  twirp: number;
  /** Signed blob downloads (/_blobs/…), not api.github.com. */
  blobs: number;
  violations: Violation[];
}

interface Operation {
  id: string;
  template: string;
  pattern: RegExp;
  keys: string[];
  /** Literal segments: a template with more of them wins (`/issues/comments/{id}` over `/issues/{number}`). */
  literals: number;
  spec: Json;
}

interface Description {
  ops: Map<string, Operation[]>;
  spec: Json;
  ajv: Ajv;
  /** Validators by key (operation id + part), compiled on first use. */
  compiled: Map<string, ValidateFunction>;
}

let loaded: Description | undefined;
/** Milliseconds spent reading the description and compiling schemas, for the record. */
export const openapiTimings = { loadMs: 0, compileMs: 0 };

const SPEC_ID = 'https://api.github.com/openapi';

/**
 * OpenAPI 3.0 → JSON schema for ajv: `nullable` becomes a null alternative, refs point into the registered
 * description, and `oneOf` is read as `anyOf` (GitHub's description lists overlapping alternatives under oneOf,
 * e.g. a user that is also a valid enterprise, which no real payload could satisfy exactly once).
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (
      k === 'nullable' ||
      k === 'example' ||
      k === 'examples' ||
      k === 'discriminator' ||
      k.startsWith('x-')
    )
      continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) out.$ref = `${SPEC_ID}${v}`;
    else out[k === 'oneOf' ? 'anyOf' : k] = k === 'properties' ? mapValues(v as Json) : toJsonSchema(v);
  }
  if ((node as Json).nullable !== true) return out;
  if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  if (typeof out.type === 'string' && !out.$ref) return { ...out, type: [out.type, 'null'] };
  return { anyOf: [{ type: 'null' }, out] };
}

/** A `properties` map: its keys are names, never keywords, so only its values are schemas. */
function mapValues(props: Json): Json {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, toJsonSchema(v)]));
}

function load(): Description {
  if (loaded) return loaded;
  const started = performance.now();
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const spec = JSON.parse(readFileSync(file, 'utf8')) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false, coerceTypes: false });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  const components = spec.components as Json;
  ajv.addSchema({ $id: SPEC_ID, components: { schemas: mapValues(components.schemas as Json) } });
  const ops = new Map<string, Operation[]>();
  for (const [template, item] of Object.entries(spec.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const o = op as Json;
      if (typeof o.operationId !== 'string') continue;
      const keys: string[] = [];
      const source = template
        .split('/')
        .map((seg) =>
          seg.replace(/\{(\w+)\}|[^{}]+/g, (m, key: string | undefined) => {
            if (key === undefined) return m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            keys.push(key);
            return '([^/]+)';
          }),
        )
        .join('/');
      const list = ops.get(method.toUpperCase()) ?? [];
      list.push({
        id: o.operationId,
        template,
        pattern: new RegExp(`^${source}/?$`),
        keys,
        literals: template.split('/').filter((s) => s && !s.includes('{')).length,
        spec: o,
      });
      ops.set(method.toUpperCase(), list);
    }
  }
  for (const list of ops.values()) list.sort((a, b) => b.literals - a.literals);
  loaded = { ops, spec, ajv, compiled: new Map() };
  openapiTimings.loadMs += performance.now() - started;
  return loaded;
}

/** Follows a `#/components/...` reference of the description. */
function deref(d: Description, node: unknown): Json {
  let n = node as Json;
  while (typeof n.$ref === 'string') {
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce<Json>((at, key) => at[key] as Json, d.spec);
  }
  return n;
}

function validator(d: Description, key: string, schema: () => unknown): ValidateFunction {
  const known = d.compiled.get(key);
  if (known) return known;
  const started = performance.now();
  const fn = d.ajv.compile(toJsonSchema(schema()) as Json);
  openapiTimings.compileMs += performance.now() - started;
  d.compiled.set(key, fn);
  return fn;
}

function errorsOf(
  fn: ValidateFunction,
  value: unknown,
  base: Omit<Violation, 'pointer' | 'message'>,
): Violation[] {
  if (fn(value)) return [];
  return (fn.errors ?? []).map((e) => ({
    ...base,
    pointer: e.instancePath || '/',
    message: `${e.message ?? 'invalid'}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
  }));
}

/** A parameter's raw text as the schema's type: the path and query carry text, the schema says what it means. */
function typed(raw: string, schema: Json): unknown {
  const t = schema.type;
  if ((t === 'integer' || t === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (t === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function checkParameters(
  d: Description,
  op: Operation,
  x: Exchange,
  values: Record<string, string>,
): Violation[] {
  const out: Violation[] = [];
  const params = ((op.spec.parameters as unknown[] | undefined) ?? []).map((p) => deref(d, p));
  for (const where of ['path', 'query'] as const) {
    const given = where === 'path' ? values : x.query;
    const declared = params.filter((p) => p.in === where);
    for (const name of Object.keys(given)) {
      if (!declared.some((p) => p.name === name)) {
        out.push({
          operation: op.id,
          status: x.status,
          part: where,
          pointer: `/${name}`,
          message: 'not a parameter of the operation',
        });
      }
    }
    for (const p of declared) {
      const name = p.name as string;
      const raw = given[name];
      if (raw === undefined) {
        if (p.required === true)
          out.push({
            operation: op.id,
            status: x.status,
            part: where,
            pointer: `/${name}`,
            message: 'required parameter missing',
          });
        continue;
      }
      const schema = (p.schema as Json | undefined) ?? {};
      const fn = validator(d, `${op.id} ${where} ${name}`, () => schema);
      out.push(
        ...errorsOf(fn, typed(raw, deref(d, schema)), {
          operation: op.id,
          status: x.status,
          part: where,
        }).map((v) => ({ ...v, pointer: `/${name}${v.pointer === '/' ? '' : v.pointer}` })),
      );
    }
  }
  return out;
}

function checkRequestBody(d: Description, op: Operation, x: Exchange): Violation[] {
  const rb = op.spec.requestBody ? deref(d, op.spec.requestBody) : undefined;
  const base = { operation: op.id, status: x.status, part: 'request body' };
  if (!rb) {
    return x.body === undefined ? [] : [{ ...base, pointer: '/', message: 'the operation takes no body' }];
  }
  if (x.body === undefined) {
    return rb.required === true ? [{ ...base, pointer: '/', message: 'required body missing' }] : [];
  }
  const schema = ((rb.content as Json)['application/json'] as Json | undefined)?.schema;
  if (!schema) return [{ ...base, pointer: '/', message: 'the operation takes no JSON body' }];
  return errorsOf(
    validator(d, `${op.id} request`, () => schema),
    x.body,
    base,
  );
}

/**
 * Where GitHub answers outside its own description, and the fake answers as GitHub does: (operation, pointer)
 * patterns a violation is forgiven for, each with the why.
 */
const KNOWN_GAPS: { operation: string; pointer: RegExp; why: string }[] = [
  {
    operation: 'pulls/get|pulls/list|pulls/create|pulls/update',
    pointer: /^(\/\d+)?\/head\/repo$/,
    why: 'a PR whose fork was deleted has `head.repo: null`; the description says a repository',
  },
  {
    operation: 'pulls/list-review-comments',
    pointer: /^\/\d+\/(original_)?line$/,
    why: 'an outdated review comment has `line: null`; the description says an integer',
  },
  {
    operation: 'pulls/get|pulls/list|pulls/create|pulls/update|pulls/request-reviewers',
    pointer: /^(\/\d+)?\/labels\/\d+\/description$/,
    why: 'a label without a description has `description: null`; pull-request-simple says a string',
  },
  {
    operation: 'actions/list-workflow-runs|actions/list-workflow-runs-for-repo',
    pointer: /^\/created$/,
    why: '`created` takes the search syntax its own description points to (`a..b`, `>=a`); its schema says a date-time',
  },
  {
    operation: 'pulls/request-reviewers',
    pointer: /^\/$/,
    why: "the 422 for a reviewer who is not a collaborator carries GitHub's error body; the description gives it none",
  },
];

function forgiven(v: Violation): boolean {
  return KNOWN_GAPS.some((g) => g.operation.split('|').includes(v.operation) && g.pointer.test(v.pointer));
}

/**
 * Statuses GitHub answers on any operation, whether or not the operation lists them: 404 too, for a resource
 * (a workflow run, a job) that is gone or that the token cannot see, which some operations leave undocumented.
 */
function generic(status: number): boolean {
  return status === 401 || status === 403 || status === 404 || status === 429 || status >= 500;
}

function checkResponse(d: Description, op: Operation, x: Exchange): Violation[] {
  const base = { operation: op.id, status: x.status, part: 'response body' };
  const out: Violation[] = [];
  if (x.status >= 400) {
    const b = x.response as Json | undefined;
    for (const key of ['message', 'documentation_url']) {
      if (typeof b?.[key] !== 'string')
        out.push({ ...base, pointer: `/${key}`, message: 'an error body carries it' });
    }
  }
  const responses = op.spec.responses as Json;
  const documented = responses[String(x.status)];
  if (!documented) {
    if (generic(x.status)) {
      const basic = { $ref: '#/components/schemas/basic-error' };
      return [
        ...out,
        ...errorsOf(
          validator(d, 'basic-error', () => basic),
          x.response,
          base,
        ),
      ];
    }
    return [
      ...out,
      {
        ...base,
        part: 'status',
        pointer: '/',
        message: `status ${x.status} is not documented for the operation`,
      },
    ];
  }
  const content = deref(d, documented).content as Json | undefined;
  const schema = (content?.['application/json'] as Json | undefined)?.schema;
  if (!schema) {
    if (x.response !== undefined)
      out.push({ ...base, pointer: '/', message: `status ${x.status} has no body` });
    return out;
  }
  return [
    ...out,
    ...errorsOf(
      validator(d, `${op.id} ${x.status}`, () => schema),
      x.response,
      base,
    ),
  ];
}

function match(d: Description, x: Exchange): { op: Operation; values: Record<string, string> } | undefined {
  for (const op of d.ops.get(x.method) ?? []) {
    const m = op.pattern.exec(x.path);
    if (!m) continue;
    const values: Record<string, string> = {};
    op.keys.forEach((k, i) => (values[k] = decodeURIComponent(m[i + 1] ?? '')));
    return { op, values };
  }
  return undefined;
}

/** Every exchange of `log` held to GitHub's REST description. */
export function checkAgainstGitHub(log: readonly Exchange[]): ConformanceReport {
  const report: ConformanceReport = { checked: 0, graphql: 0, twirp: 0, blobs: 0, violations: [] };
  if (log.length === 0) return report;
  const d = load();
  for (const x of log) {
    if (x.method === 'POST' && x.path === '/graphql') {
      report.graphql++;
      continue;
    }
    if (x.path.startsWith('/twirp/')) {
      report.twirp++;
      continue;
    }
    if (x.path.startsWith('/_blobs/')) {
      report.blobs++;
      continue;
    }
    report.checked++;
    const found = match(d, x);
    if (!found) {
      report.violations.push({
        operation: `${x.method} ${x.path}`,
        status: x.status,
        part: 'route',
        pointer: '/',
        message: 'GitHub has no such operation',
      });
      continue;
    }
    report.violations.push(
      ...[
        ...checkParameters(d, found.op, x, found.values),
        ...checkRequestBody(d, found.op, x),
        ...checkResponse(d, found.op, x),
      ].filter((v) => !forgiven(v)),
    );
  }
  return report;
}

/** One line per violation: operation, status, part and pointer, what is wrong. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations
    .map((v) => `${v.operation} → ${v.status}: ${v.part} ${v.pointer}: ${v.message}`)
    .join('\n');
}

/** Throws, listing them, when any exchange of `log` is not one GitHub's REST description allows. */
export function assertConformsToGitHub(log: readonly Exchange[]): void {
  const { violations } = checkAgainstGitHub(log);
  if (violations.length === 0) return;
  // OPENAPI_COLLECT=<file> gathers every test's violations into one file instead of failing, to survey them.
  if (process.env.OPENAPI_COLLECT) {
    appendFileSync(process.env.OPENAPI_COLLECT, `${describeViolations(violations)}\n`);
    return;
  }
  const unique = [...new Set(describeViolations(violations).split('\n'))];
  throw new Error(
    `the fake GitHub's log breaks GitHub's REST description (${violations.length} violation(s)):\n${unique.slice(0, 40).join('\n')}`,
  );
}
