/**
 * The part of a run both hosts share (the action's execute phase, the toolkit's `run`): the model proxy that
 * keeps the credential, the engine inside it, the proxy's refusals in the result, and a refreshed host login
 * written back. What it opens it closes on every path, in reverse order, the engine's throw included.
 */
import { join } from 'node:path';
import type { AuthConfig } from '../domain/types.js';
import type { AgentSandbox } from '../isolation/sandbox.js';
import type { OAuthTokenSource } from '../proxy/oauth-token.js';
import { refusalLine, type Refusals } from '../proxy/model-routes.js';
import type { ServedTokens } from '../proxy/usage-meter.js';
import { DEFAULT_GEMINI_VERSION } from '../gemini/cli-profile.js';
import { modelsForRun } from '../gemini/models.js';
import { tokensSpent } from '../run/budget.js';
import type { AccessTokenSource } from '../proxy/vertex-token.js';
import { runAgent } from '../run/engine.js';
import type { RunOptions } from '../run/options.js';
import type { EgressSummary, LocalServicesSummary, RunResult } from '../run/types.js';
import { withStack } from '../util/async-stack.js';
import type { Logger } from '../util/log.js';
import type { FilterState } from '../isolation/egress-filter.js';
import { openEgress, type NetworkPolicy } from './egress.js';
import { startModelAccess, writeBackHostLogin, type ModelAccess } from './model-access.js';
import { silenceFor } from '../proxy/upstream-health.js';

/** The engine's options, less what execute fills in from its own. */
type EngineOptions = Omit<
  RunOptions,
  | 'auth'
  | 'sandbox'
  | 'sourceEnv'
  | 'log'
  | 'modelEndpoint'
  | 'fenceModel'
  | 'egressProxy'
  | 'modelHealth'
  | 'modelUsage'
>;

export interface ExecuteOptions {
  auth: AuthConfig;
  /** The token sources prepared before the run (prepareOAuth, prepareVertex), so a refused one ended it early. */
  oauth?: OAuthTokenSource;
  vertex?: AccessTokenSource;
  /** The agent's own user; without it the agent runs as this process's user (`isolation: none`). */
  sandbox?: AgentSandbox;
  /** The host's environment: the proxy's upstreams and the source of the engine's allow-listed variables. */
  env: NodeJS.ProcessEnv;
  log: Logger;
  mask(secret: string): void;
  engine: EngineOptions;
  /** What the agent may reach (src/host/egress.ts); default `open`. */
  network?: NetworkPolicy;
  /** The total of the agent's requests the network policy refused, after each refusal. */
  onBlocked?: (total: number) => void;
  /** The packet filter's state once installed (for a post step to remove it), undefined once removed. */
  onFilter?: (state: FilterState | undefined) => void;
}

/**
 * The engine and the model access, replaceable so a test runs execute without gemini or a proxy. A host that
 * turns an engine's throw into a result (the action's crashed run) does it in the runAgent it passes: the
 * refusals and the write-back then apply to that result too.
 */
export interface ExecuteDeps {
  runAgent(o: RunOptions): Promise<RunResult>;
  startModelAccess: typeof startModelAccess;
  openEgress: typeof openEgress;
}

export async function execute(o: ExecuteOptions, deps: Partial<ExecuteDeps> = {}): Promise<RunResult> {
  const run = deps.runAgent ?? runAgent;
  const start = deps.startModelAccess ?? startModelAccess;
  const egressOf = deps.openEgress ?? openEgress;
  return withStack(async (stack) => {
    // The credential stays with us: gemini talks to a loopback proxy with a placeholder worth nothing elsewhere.
    const live = await start({
      auth: o.auth,
      ...(o.oauth ? { oauth: o.oauth } : {}),
      ...(o.vertex ? { vertex: o.vertex } : {}),
      ...(o.sandbox ? { agentUid: o.sandbox.user.uid } : {}),
      env: o.env,
      log: o.log,
      mask: (secret) => o.mask(secret),
      silenceMs: silenceFor(o.engine.timeoutMs),
      // The proxy forwards only the models this CLI calls for the run's model, and holds the budget itself: one
      // limit, the tokens the run may still be served. Another budget (a daily cap's remainder) is met by passing
      // the smaller of the two here, not by a second count.
      models: modelsForRun(o.engine.cliProfile?.checked ?? DEFAULT_GEMINI_VERSION, o.engine.model),
      ...(o.engine.maxTokens ? { tokenLimit: o.engine.maxTokens } : {}),
    });
    // Deferred first so it runs last: once the proxy stopped, the creds its token source refreshed are final.
    stack.defer(() => writeBack(o, live));
    stack.defer(() => live.stop());
    // What the proxy served: the budget reads it during the run, the result its final count.
    const usage = live.usage?.bind(live);
    const egress = await egressOf({
      policy: o.network ?? { mode: 'open', allowedHosts: [] },
      ...(o.sandbox ? { sandbox: o.sandbox } : {}),
      ...(live.endpoint ? { modelPort: Number(new URL(live.endpoint.baseUrl).port) } : {}),
      log: o.log,
      env: o.env,
      ...(o.onFilter ? { onFilter: o.onFilter } : {}),
      ...(o.onBlocked ? { onBlocked: o.onBlocked } : {}),
    });
    stack.defer(async () => void (await egress.close()));
    const result = await run({
      ...o.engine,
      auth: o.auth,
      sourceEnv: o.env,
      log: o.log,
      ...(o.sandbox ? { sandbox: o.sandbox } : {}),
      ...(live.endpoint ? { modelEndpoint: live.endpoint } : {}),
      fenceModel: () => live.fence(),
      ...(egress.proxyUrl ? { egressProxy: egress.proxyUrl } : {}),
      modelHealth: () => live.health?.() ?? {},
      ...(usage ? { modelUsage: usage } : {}),
    });
    // The agent's processes are gone (the engine reaped them): what was refused is complete.
    const refusedEgress = await egress.close();
    // Its refusals are complete once it stopped; stopping is idempotent, so the stack's stop is then a no-op.
    await live.stop();
    const served = usage?.();
    const withServices = o.sandbox ? { ...result, localServices: servicesSummary(o.sandbox) } : result;
    return withEgress(
      withRefusals(served ? withServed(withServices, served) : withServices, live.refusals(), o.log),
      refusedEgress,
      o.log,
    );
  });
}

async function writeBack(o: ExecuteOptions, access: ModelAccess): Promise<void> {
  const runHome = join(o.sandbox?.dir ?? o.engine.runDir, 'home');
  if (await writeBackHostLogin(o.auth, access, runHome)) {
    o.log.info('Wrote the refreshed OAuth creds back to the runner host.');
  }
}

/** The proxy's count is final once it stopped: the run's total is never lower than what it served. */
function withServed(result: RunResult, served: ServedTokens): RunResult {
  const totalTokens = tokensSpent(result.usage.totalTokens, served);
  return { ...result, served, usage: { ...result.usage, totalTokens } };
}

function servicesSummary(sandbox: AgentSandbox): LocalServicesSummary {
  const s = sandbox.localServices;
  return {
    hidden: s.hidden.length,
    reachable: s.reachable,
    ...(s.unavailable !== undefined ? { unavailable: s.unavailable } : {}),
    abstract: s.abstract,
  };
}

function withRefusals(result: RunResult, refused: Refusals, log: Logger): RunResult {
  if (refused.count === 0) return result;
  // The shown paths are already cut short and reduced to plain characters by the proxy (model-routes.ts).
  const first = refused.first.map(refusalLine);
  log.warning(
    `The model proxy refused ${refused.count} call(s) of the agent (not a model call of this run): ${first.join(', ')}`,
  );
  return { ...result, refusedCalls: { count: refused.count, first } };
}

function withEgress(result: RunResult, egress: EgressSummary | undefined, log: Logger): RunResult {
  if (!egress) return result;
  const hosts = egress.blocked.reduce((n, b) => n + b.count, 0);
  if (hosts > 0 || egress.droppedPackets > 0) {
    const names = egress.blocked.slice(0, 5).map((b) => `${b.host}:${b.port}`);
    log.warning(
      `network: ${egress.mode} refused ${hosts} proxy request(s)${names.length ? ` (${names.join(', ')})` : ''} and ${egress.droppedPackets} direct packet(s) of the agent.`,
    );
  }
  return { ...result, egress };
}
