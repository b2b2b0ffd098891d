/** What the model proxy is started with (model-proxy.ts startModelProxy, launch.ts for its own process). */
import type { MetadataConfig } from './metadata.js';
import type { ModelApi, RefusedCall } from './model-routes.js';
import type { HealthNote } from './upstream-health.js';
import type { ServedTokens } from './usage-meter.js';

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
