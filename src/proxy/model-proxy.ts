/**
 * The loopback model-credential proxy. The agent is given a per-run placeholder instead of the model
 * credential and talks to this server; the server checks the placeholder, swaps in the real credential and
 * streams the call to the model API and the answer back, byte for byte. The real credential stays in the
 * action's own process, which the agent's uid cannot read. Only the model calls of a run are forwarded
 * (model-routes.ts), for the run's models only; anything else the credential could do is refused here and counted.
 * Every answer's `usageMetadata` is read as it goes by (usage-meter.ts): the proxy keeps the run's served tokens
 * and, once they reach the run's limit, refuses every further model call and cuts the answers still streaming, so
 * a budget holds whoever calls the model, the CLI or the agent behind its back. Here: the server and what its calls
 * share (ProxyCore); one call's steps are in model-call.ts, the answer's way back in relay.ts, the count in
 * usage-report.ts.
 */
import http from 'node:http';
import { getErrorMessage, oneLine } from '../util/errors.js';
import { SecretSet, sameSecret } from './credential.js';
import { handleCall, type ProxyCore } from './model-call.js';
import type { Refusals } from './model-routes.js';
import type { ModelProxyOptions } from './proxy-options.js';
import { reply } from './relay.js';
import { createUpstream } from './upstream.js';
import {
  GIVE_UP,
  UpstreamHealth,
  checkUpstreamUrl,
  type CallOutcome,
  type HealthNote,
} from './upstream-health.js';
import { UsageReport } from './usage-report.js';
import { TokenLedger, type ServedTokens } from './usage-meter.js';

export type { ModelCredential, ModelProxyOptions } from './proxy-options.js';

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

export const MIN_PLACEHOLDER_LENGTH = 16;

function parseUpstream(raw: string): URL {
  const problem = checkUpstreamUrl(raw, 'the upstream');
  if (problem) throw new Error(`model proxy: ${problem}`);
  return new URL(raw);
}

/** The secrets the proxy's log and answers never show: the API key from the start, a bearer token once fetched. */
function secretsOf(o: ModelProxyOptions): SecretSet {
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
  return secrets;
}

/** The proxy's shared parts (model-call.ts ProxyCore), and the timer that tells a silent upstream. */
function coreOf(o: ModelProxyOptions): { core: ProxyCore; silenceTimer: NodeJS.Timeout } {
  const base = parseUpstream(o.upstream);
  const secrets = secretsOf(o);
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
  const silenceTimer = setInterval(() => note(health.silence(Date.now())), 1000);
  silenceTimer.unref();
  const ledger = new TokenLedger(o.tokenLimit);
  const core: ProxyCore = {
    o,
    base,
    prefix: base.pathname.replace(/\/+$/, ''),
    secrets,
    log,
    upstream,
    health,
    tell: (outcome: CallOutcome) => note(health.record(outcome, Date.now())),
    ledger,
    usage: new UsageReport(ledger, o.onUsage, log),
    refused: { count: 0, first: [] },
    allowedModels: o.models ? new Set(o.models) : undefined,
    state: { fenced: false, calls: 0 },
  };
  return { core, silenceTimer };
}

export async function startModelProxy(o: ModelProxyOptions): Promise<RunningProxy> {
  const { core, silenceTimer } = coreOf(o);
  const server = http.createServer({ noDelay: true }, (req, res) => {
    handleCall(core, req, res).catch((e: unknown) => {
      reply(res, 502, 'UNAVAILABLE', `internal error: ${core.secrets.redact(oneLine(getErrorMessage(e)))}`);
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
      if (!core.state.fenced) core.log('fenced: every further model call is refused');
      core.state.fenced = true;
    },
    refusals: () => ({ count: core.refused.count, first: [...core.refused.first] }),
    usage: () => ({ ...core.ledger.served }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        clearInterval(silenceTimer);
        // The final count, if one is still to be told.
        core.usage.flush();
        server.close(() => resolve());
        server.closeAllConnections();
        core.upstream.close();
      })),
  };
}
