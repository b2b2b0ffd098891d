/**
 * Starts the model proxy as its own process (dist/proxy.js) and stops it. The child gets the config, secret
 * included, on stdin and an environment of PATH plus the proxy and CA variables only, so neither
 * /proc/<pid>/cmdline nor /proc/<pid>/environ holds a credential; stdin stays open for the child's lifetime,
 * so the child ends when the action does, even if the action is killed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { getErrorMessage, oneLine } from '../util/errors.js';
import {
  healthLineSchema,
  parseLine,
  readyLineSchema,
  refusedLineSchema,
  usageLineSchema,
  type ProxyConfig,
} from './config.js';
import { SecretSet } from './credential.js';
import { startModelProxy, type ModelProxyOptions } from './model-proxy.js';
import { tallyRefusal, type Refusals } from './model-routes.js';
import type { ServedTokens } from './usage-meter.js';

export interface LaunchOptions extends ModelProxyOptions {
  /** The proxy entry to run; defaults to proxy.js next to the running bundle (dist/proxy.js). */
  script?: string;
  /** Node options placed before the script, e.g. `['--import', 'tsx']` to run src/proxy/main.ts in tests. */
  execArgv?: string[];
}

export interface LaunchedProxy {
  /** `http://127.0.0.1:<port>`, for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** The proxy process; undefined when it runs in this process (no bundle, see launchModelProxy). */
  pid?: number;
  /** Refuses every further model call (model-proxy.ts `fence`); idempotent. */
  fence(): void;
  /** The non-model calls and calls for other models the proxy refused so far. */
  refusals(): Refusals;
  /** The tokens it served so far (final once `stop` resolved). */
  usage(): ServedTokens;
  /** Idempotent; bounded: SIGTERM, then SIGKILL after 2 s. */
  stop(): Promise<void>;
}

/** The only variables the child sees: enough to run node and to route through a corporate proxy. */
export const PROXY_CHILD_ENV = [
  'PATH',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
] as const;

const READY_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 2_000;
/** Access tokens live an hour; re-asking every few minutes keeps the child's copy fresh at little cost. */
const TOKEN_REFRESH_MS = 4 * 60_000;

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PROXY_CHILD_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

function hasExited(child: ChildProcessWithoutNullStreams): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function exitedWithin(child: ChildProcessWithoutNullStreams, ms: number): Promise<boolean> {
  if (hasExited(child)) return true;
  const ac = new AbortController();
  const exited = new Promise<boolean>((resolve) => child.once('exit', () => resolve(true)));
  const timedOut = sleep(ms, false, { signal: ac.signal }).catch(() => false);
  const result = await Promise.race([exited, timedOut]);
  ac.abort();
  return result || hasExited(child);
}

/**
 * Resolves with the child's first stdout line, its address; every later line goes to `onLater`. One reader for
 * the child's whole life, so a line that arrives in the same chunk as the address is not lost.
 */
function waitForUrl(
  child: ChildProcessWithoutNullStreams,
  lastError: () => string,
  onLater: (line: string) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdout = createInterface({ input: child.stdout, crlfDelay: Infinity });
    let first = true;
    const settle = (err: Error | undefined, url?: string): void => {
      clearTimeout(timer);
      if (err) stdout.close();
      child.off('close', onClose);
      child.off('error', onError);
      if (err) {
        if (!hasExited(child)) child.kill('SIGKILL');
        reject(err);
      } else resolve(url!);
    };
    const fail = (why: string): void => {
      const detail = lastError();
      settle(new Error(`model proxy: ${why}${detail ? `: ${detail}` : ''}`));
    };
    const onClose = (code: number | null, signal: string | null): void =>
      fail(`exited (${code ?? signal}) before reporting its address`);
    const onError = (e: Error): void => fail(`could not be started: ${oneLine(getErrorMessage(e))}`);
    const timer = setTimeout(
      () => fail(`did not report its address within ${READY_TIMEOUT_MS / 1000} s`),
      READY_TIMEOUT_MS,
    );
    stdout.on('line', (line) => {
      if (!first) {
        onLater(line);
        return;
      }
      first = false;
      try {
        settle(undefined, parseLine(readyLineSchema, line, 'its address line').url);
      } catch (e) {
        fail(oneLine(getErrorMessage(e)));
      }
    });
    child.once('close', onClose);
    child.once('error', onError);
  });
}

/** Running from src/ (vitest, tsx) there is no bundle to spawn: the same proxy in this process. */
async function inProcess(o: LaunchOptions): Promise<LaunchedProxy> {
  // The in-process proxy is the same code; only the process boundary is missing, which the product, always
  // running from dist/, never lacks.
  const p = await startModelProxy(o);
  return {
    url: p.url,
    fence: () => p.fence(),
    refusals: () => p.refusals(),
    usage: () => p.usage(),
    stop: () => p.close(),
  };
}

/** The child's config (the credential as it is now: a bearer token read once here), and the secrets to redact. */
async function childConfig(
  o: LaunchOptions,
): Promise<{ config: ProxyConfig; secrets: SecretSet; token: string }> {
  const cred = o.credential;
  const secrets = new SecretSet();
  let token = '';
  if (cred.kind === 'bearer') {
    token = await cred.token();
    secrets.add(token);
  } else secrets.add(cred.apiKey);
  const config: ProxyConfig = {
    upstream: o.upstream,
    placeholder: o.placeholder,
    credential:
      cred.kind === 'api-key' ? { kind: 'api-key', apiKey: cred.apiKey } : { kind: 'bearer', token },
    api: o.api,
    ...(o.metadata ? { metadata: o.metadata } : {}),
    ...(o.silenceMs ? { silenceMs: o.silenceMs } : {}),
    ...(o.models ? { models: [...o.models] } : {}),
    ...(o.tokenLimit ? { tokenLimit: o.tokenLimit } : {}),
  };
  return { config, secrets, token };
}

/** What the child reports after its address: health notes, the served count, refused calls, each told on. */
function childReports(o: LaunchOptions): {
  onLine: (line: string) => void;
  refused: Refusals;
  served: () => ServedTokens;
} {
  const refused: Refusals = { count: 0, first: [] };
  let served: ServedTokens = { tokens: 0, answers: 0, refusedAtLimit: 0 };
  const onLine = (line: string): void => {
    try {
      if (line.startsWith('{"health"')) {
        o.onHealth?.(parseLine(healthLineSchema, line, 'a health line').health);
        return;
      }
      if (line.startsWith('{"usage"')) {
        served = parseLine(usageLineSchema, line, 'a usage line').usage;
        o.onUsage?.(served);
        return;
      }
      const call = parseLine(refusedLineSchema, line, 'a refusal line').refused;
      tallyRefusal(refused, call);
      o.onRefused?.(call);
    } catch (e) {
      o.log?.(`model proxy: ${oneLine(getErrorMessage(e))}; ignored`);
    }
  };
  return { onLine, refused, served: () => served };
}

/** Re-reads a bearer credential every few minutes and sends the child each new token as a `{"token":...}` line. */
function refreshTokens(
  o: LaunchOptions,
  child: ChildProcessWithoutNullStreams,
  secrets: SecretSet,
  first: string,
): NodeJS.Timeout | undefined {
  const cred = o.credential;
  if (cred.kind !== 'bearer') return undefined;
  let token = first;
  const refresh = setInterval(() => {
    cred.token().then(
      (next) => {
        if (!next || next === token || hasExited(child)) return;
        token = next;
        secrets.add(next);
        child.stdin.write(`${JSON.stringify({ token: next })}\n`);
      },
      (e: unknown) =>
        o.log?.(`model proxy: token refresh failed: ${secrets.redact(oneLine(getErrorMessage(e)))}`),
    );
  }, TOKEN_REFRESH_MS);
  refresh.unref();
  return refresh;
}

/** Ends the child: stdin closed and SIGTERM, SIGKILL after the grace; then its last lines (the final count). */
async function stopChild(child: ChildProcessWithoutNullStreams, stdoutClosed: Promise<void>): Promise<void> {
  if (!hasExited(child)) {
    child.stdin.end();
    child.kill('SIGTERM');
    if (!(await exitedWithin(child, STOP_GRACE_MS))) {
      child.kill('SIGKILL');
      await exitedWithin(child, STOP_GRACE_MS);
    }
  }
  // Its last lines (the final count) are read once its stdout closed, which may come after the exit.
  await Promise.race([stdoutClosed, sleep(STOP_GRACE_MS)]);
}

/**
 * Starts the proxy process and returns once it listens. A bearer credential is read once at launch and then
 * re-read every few minutes; changed values are sent to the child as `{"token":...}` lines.
 */
export async function launchModelProxy(o: LaunchOptions): Promise<LaunchedProxy> {
  const here = fileURLToPath(import.meta.url);
  if (o.script === undefined && here.endsWith('.ts')) return inProcess(o);
  const script = o.script ?? join(dirname(here), 'proxy.js');
  // A bundle without its proxy entry must not quietly keep the credential in this process.
  if (!existsSync(script)) throw new Error(`the model proxy's entry ${script} is missing: rebuild dist/`);
  const { config, secrets, token } = await childConfig(o);
  const child = spawn(process.execPath, [...(o.execArgv ?? []), script], {
    env: childEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: false,
  });
  // EPIPE once the child is gone; its exit is what gets reported.
  child.stdin.on('error', () => undefined);
  let lastError = '';
  createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
    // The child never prints a secret; redacting anyway costs nothing.
    lastError = secrets.redact(line).slice(0, 500);
    o.log?.(lastError);
  });
  child.stdin.write(`${JSON.stringify(config)}\n`);
  const reports = childReports(o);
  const stdoutClosed = new Promise<void>((resolve) => child.stdout.once('close', () => resolve()));
  const url = await waitForUrl(child, () => lastError, reports.onLine);
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) o.log?.(`model proxy: the proxy process exited unexpectedly (${code ?? signal})`);
  });
  const refresh = refreshTokens(o, child, secrets, token);
  let stopped: Promise<void> | undefined;
  return {
    url,
    pid: child.pid,
    fence: () => {
      if (!hasExited(child)) child.stdin.write(`${JSON.stringify({ fence: true })}\n`);
    },
    refusals: () => ({ count: reports.refused.count, first: [...reports.refused.first] }),
    usage: () => ({ ...reports.served() }),
    stop: () => {
      stopping = true;
      clearInterval(refresh);
      return (stopped ??= stopChild(child, stdoutClosed));
    },
  };
}
