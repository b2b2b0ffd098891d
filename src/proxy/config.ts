/**
 * The one-line JSON protocol between the action and the proxy process (dist/proxy.js). The secret travels on
 * the child's stdin only, never in argv or the environment, which other processes can read from /proc.
 */
import { z } from 'zod';
import { MIN_PLACEHOLDER_LENGTH } from './model-proxy.js';

export const proxyConfigSchema = z.strictObject({
  upstream: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  placeholder: z
    .string()
    .min(MIN_PLACEHOLDER_LENGTH, `must be at least ${MIN_PLACEHOLDER_LENGTH} characters`),
  credential: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('api-key'), apiKey: z.string().min(1, 'is empty') }),
    /** The token's value at launch; later values arrive as update lines. */
    z.strictObject({ kind: z.literal('bearer'), token: z.string().min(1, 'is empty') }),
  ]),
  /** Which API the upstream is; only its model calls are forwarded (model-routes.ts). */
  api: z.enum(['gemini-api', 'vertex', 'code-assist']),
  /** How long a model call may hear nothing before the model counts as down (upstream-health.ts silenceFor). */
  silenceMs: z.number().int().positive().optional(),
  /** The model ids forwarded (model-proxy.ts `models`); absent: any. */
  models: z.array(z.string().min(1).max(100)).max(200).optional(),
  /** The tokens the run may be served (model-proxy.ts `tokenLimit`); absent: no limit. */
  tokenLimit: z.number().int().positive().optional(),
  /** The metadata server stand-in (Vertex AI), see metadata.ts. */
  metadata: z
    .strictObject({
      projectId: z.string().min(1).optional(),
      uids: z.array(z.number().int().nonnegative()).optional(),
    })
    .optional(),
});
export type ProxyConfig = z.infer<typeof proxyConfigSchema>;

/** A later stdin line: a refreshed bearer token, or the fence (model-proxy.ts `fence`). */
export const controlLineSchema = z.union([
  z.strictObject({ token: z.string().min(1) }),
  z.strictObject({ fence: z.literal(true) }),
]);

/** The proxy's first stdout line. */
export const readyLineSchema = z.strictObject({ url: z.url({ protocol: /^http$/ }) });

/** A later stdout line: one refused call, as model-routes.ts `shownRefusal` made it printable. */
export const refusedLineSchema = z.strictObject({
  refused: z.strictObject({
    method: z.string().max(32),
    path: z.string().max(200),
    model: z.string().max(100).optional(),
  }),
});

/** A later stdout line: the tokens served so far (usage-meter.ts ServedTokens). */
export const usageLineSchema = z.strictObject({
  usage: z.strictObject({
    tokens: z.number().nonnegative(),
    answers: z.number().int().nonnegative(),
    refusedAtLimit: z.number().int().nonnegative(),
  }),
});

/** A later stdout line: the upstream's health (upstream-health.ts HealthNote). */
export const healthLineSchema = z.strictObject({
  health: z.strictObject({
    kind: z.enum(['first-failure', 'quota-wait', 'down']),
    message: z.string().max(1000),
  }),
});

/**
 * Parses one line with `schema`. The error names the problems but never quotes the line: it holds a secret
 * (which is also why JSON.parse's own message, which quotes the input, is not used).
 */
export function parseLine<T>(schema: z.ZodType<T>, line: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${what} is not one line of JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message,
    );
    throw new Error(`${what} is invalid: ${problems.join('; ')}`);
  }
  return parsed.data;
}
