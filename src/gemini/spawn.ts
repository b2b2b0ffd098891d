/**
 * How gemini is started: argv and environment. Two rules shape everything here:
 * - no task text in argv (visible in `ps`, and copied into every telemetry record as process.command_args):
 *   the positional prompt is a fixed instruction; the task is in GEMINI.local.md (and on stdin, headless);
 * - the environment is built from an allow-list, never by deleting from process.env: a runner's env holds
 *   GITHUB_TOKEN, ACTIONS_* and INPUT_* secrets, and CI=true / GITHUB_ACTIONS=true force headless mode.
 */
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { totalmem } from 'node:os';
import type { ApprovalMode, AuthConfig } from '../domain/types.js';
import { CONTEXT_FILE_NAME } from './context-file.js';
import type { GeminiHome } from './home.js';

/** The positional/`--prompt` text of every run. It names the context file and nothing else. */
export const FIXED_INSTRUCTION = `Read ${CONTEXT_FILE_NAME} and do the task it describes. When you are done, give a short summary of what you did.`;

/** `--session-id` accepts ^[a-zA-Z0-9-_]+$ and refuses a used id (exit 42): mint a fresh one per spawn. */
export function newSessionId(): string {
  return randomUUID();
}

export interface SpawnSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** The session this spawn starts or resumes (the transcript's identity). */
  sessionId: string;
  /** Headless: written to stdin, then stdin is closed. The CLI prepends it to the prompt. */
  stdin?: string;
  /** Argv prefix that starts gemini as the agent's own user. */
  runAs?: string[];
}

/**
 * Every variable gemini may receive. `exact` names are copied from the source env when set, `prefixes` copy
 * every matching name; per-auth entries only for that auth kind. Values we compute (GEMINI_CLI_HOME, TMPDIR,
 * telemetry, auth) are set by buildEnv, not copied. Anything else never reaches gemini.
 */
export const ENV_ALLOW_LIST = {
  exact: ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TERM', 'SHELL', 'TZ', 'COLORTERM'],
  prefixes: ['LC_'],
  gitIdentity: ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'],
  /** Proxies, enterprise CAs, and API endpoints (the test harness's fake API uses the last two). */
  passThrough: [
    'GOOGLE_GEMINI_BASE_URL',
    'GOOGLE_VERTEX_BASE_URL',
    'CODE_ASSIST_ENDPOINT',
    'HTTPS_PROXY',
    'HTTP_PROXY',
    'NO_PROXY',
    'https_proxy',
    'http_proxy',
    'no_proxy',
    'NODE_EXTRA_CA_CERTS',
  ],
  /** What google-github-actions/auth exports for Application Default Credentials. */
  vertexAi: {
    exact: [
      'GOOGLE_APPLICATION_CREDENTIALS',
      'GOOGLE_GHA_CREDS_PATH',
      'GOOGLE_CLOUD_PROJECT',
      'GCLOUD_PROJECT',
      'GCP_PROJECT',
      'GOOGLE_CLOUD_LOCATION',
      'GOOGLE_API_KEY',
    ],
    prefixes: ['CLOUDSDK_'],
  },
} as const;

/** Never copied, whatever a future allow-list edit says (conformance checks this too). */
const NEVER = /^(CI|GITHUB_.*|ACTIONS_.*|INPUT_.*|RUNNER_.*|GEMINI_CLI_INTEGRATION_TEST|NODE_OPTIONS)$/;

/** OTel's BatchLogRecordProcessor default is 5000 ms: edges would reach the file ~5 s late. 50 ms ≈ 70 ms. */
export const OTEL_BLRP_SCHEDULE_DELAY_MS = 50;

export interface BuildEnvOptions {
  home: GeminiHome;
  auth: AuthConfig;
  telemetryFile: string;
  tmpDir: string;
  sourceEnv: NodeJS.ProcessEnv;
  gitIdentity?: { name: string; email: string };
  /**
   * The model endpoint the run uses instead of the credential: the loopback proxy that holds the real key. gemini
   * gets the proxy's URL and a per-run placeholder key, which is worthless anywhere else.
   */
  modelEndpoint?: ModelEndpoint;
  /**
   * When the agent runs as its own user: its HOME and name, and the worktree it may run git in (git refuses a
   * repository owned by another user unless it is named in safe.directory).
   */
  agentUser?: { name: string; home: string; worktree: string };
  /**
   * `network: restricted`: the run's forward proxy (src/proxy/forward-proxy.ts), the agent's only way out. It
   * replaces any proxy of the runner's: the forward proxy is what connects out.
   */
  egressProxy?: string;
  /**
   * Keep the CLI's self-relaunch (default false). Measured on 2 cores: `gemini --version` 1.5–1.7 s with the
   * relaunch, 0.72–0.78 s without; and without it the pane holds ONE node process, so stopping a run cannot
   * leave a re-parented child behind. The relaunch only raised the heap limit; buildSpec passes that as a
   * node flag instead. Cost: a CLI-initiated restart (exit 199: /auth change, extension update — none happen
   * under our settings) ends the run instead of restarting in place.
   */
  relaunch?: boolean;
}

/**
 * Where gemini reaches the model when a loopback proxy holds the credential: the Gemini API (API key auth),
 * Code Assist (OAuth) or Vertex AI. `placeholder` is the per-run stand-in for the key or access token.
 */
export interface ModelEndpoint {
  kind: 'gemini-api' | 'code-assist' | 'vertex';
  baseUrl: string;
  placeholder: string;
  /**
   * Vertex AI with an access token: `127.0.0.1:<port>` of the proxy's metadata server stand-in, which hands
   * gemini's auth library the placeholder as its token. Without it, Vertex AI runs on an API key (express mode)
   * and the placeholder is that key.
   */
  metadataHost?: string;
}

/**
 * Vertex AI variables gemini may get when the proxy holds the credential: project and location, nothing that
 * names or holds a credential.
 */
const VERTEX_PROXIED = ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION'] as const;

/** Copies allow-listed variables from `src` into `env`; a name NEVER matches is never copied. */
function envCopier(src: NodeJS.ProcessEnv, env: Record<string, string>) {
  const copy = (name: string): void => {
    const v = src[name];
    if (v !== undefined && v !== '' && !NEVER.test(name)) env[name] = v;
  };
  const copyPrefixed = (prefix: string): void => {
    for (const name of Object.keys(src)) if (name.startsWith(prefix)) copy(name);
  };
  return { copy, copyPrefixed };
}

/**
 * What every gemini we start may take from the source environment whatever it runs for (a run, a login): the
 * basic and pass-through names of the allow-list. Computed values are the caller's to add.
 */
export function baseEnv(src: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  const { copy, copyPrefixed } = envCopier(src, env);
  ENV_ALLOW_LIST.exact.forEach(copy);
  ENV_ALLOW_LIST.prefixes.forEach(copyPrefixed);
  ENV_ALLOW_LIST.passThrough.forEach(copy);
  return env;
}

export function buildEnv(o: BuildEnvOptions): Record<string, string> {
  const env = baseEnv(o.sourceEnv);
  const { copy, copyPrefixed } = envCopier(o.sourceEnv, env);
  // As git config from the environment, not GIT_AUTHOR_*: the CLI's redaction of secret-looking variables
  // (its /AUTH/ name pattern) strips GIT_AUTHOR_* from the agent's shell commands, but never GIT_CONFIG_*.
  const gitConfig: [string, string][] = [];
  if (o.gitIdentity) {
    gitConfig.push(['user.name', o.gitIdentity.name], ['user.email', o.gitIdentity.email]);
  } else {
    ENV_ALLOW_LIST.gitIdentity.forEach(copy);
  }
  if (o.agentUser) {
    gitConfig.push(['safe.directory', o.agentUser.worktree]);
    env.HOME = o.agentUser.home;
    env.USER = o.agentUser.name;
    env.LOGNAME = o.agentUser.name;
  }
  if (gitConfig.length > 0) {
    env.GIT_CONFIG_COUNT = String(gitConfig.length);
    gitConfig.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
  }
  env.TERM = env.TERM && env.TERM !== 'dumb' ? env.TERM : 'xterm-256color';
  env.TMPDIR = o.tmpDir;
  env.GEMINI_CLI_HOME = o.home.root;
  // Deterministic paste-the-code login instead of trying to open a browser on a runner.
  env.NO_BROWSER = 'true';

  switch (o.auth.kind) {
    case 'api-key':
      if (o.modelEndpoint?.kind === 'gemini-api') {
        env.GEMINI_API_KEY = o.modelEndpoint.placeholder;
        env.GOOGLE_GEMINI_BASE_URL = o.modelEndpoint.baseUrl;
        bypassProxyForLoopback(env);
      } else {
        env.GEMINI_API_KEY = o.auth.apiKey;
      }
      break;
    case 'vertex-ai':
      if (o.modelEndpoint?.kind === 'vertex') {
        // No credentials file, no gcloud config, no key: gemini's auth library finds no credential of its
        // own and asks the metadata server (GCE_METADATA_HOST), which is the proxy and answers with the
        // placeholder; or, in express mode, the placeholder is the API key.
        VERTEX_PROXIED.forEach(copy);
        env.GOOGLE_VERTEX_BASE_URL = o.modelEndpoint.baseUrl;
        if (o.modelEndpoint.metadataHost) env.GCE_METADATA_HOST = o.modelEndpoint.metadataHost;
        else env.GOOGLE_API_KEY = o.modelEndpoint.placeholder;
        bypassProxyForLoopback(env);
      } else {
        ENV_ALLOW_LIST.vertexAi.exact.forEach(copy);
        ENV_ALLOW_LIST.vertexAi.prefixes.forEach(copyPrefixed);
      }
      env.GOOGLE_GENAI_USE_VERTEXAI = 'true';
      if (o.auth.project) env.GOOGLE_CLOUD_PROJECT = o.auth.project;
      if (o.auth.location) env.GOOGLE_CLOUD_LOCATION = o.auth.location;
      break;
    case 'oauth':
      if (o.auth.project) env.GOOGLE_CLOUD_PROJECT = o.auth.project;
      if (o.modelEndpoint?.kind === 'code-assist') {
        // The CLI's access-token mode: it uses this token as is, never reads oauth_creds.json, never calls
        // tokeninfo and never refreshes (compat K15). The token is the proxy's placeholder.
        env.GOOGLE_GENAI_USE_GCA = 'true';
        env.GOOGLE_CLOUD_ACCESS_TOKEN = o.modelEndpoint.placeholder;
        env.CODE_ASSIST_ENDPOINT = o.modelEndpoint.baseUrl;
        bypassProxyForLoopback(env);
      }
      break;
  }

  env.GEMINI_TELEMETRY_ENABLED = 'true';
  env.GEMINI_TELEMETRY_TARGET = 'local';
  env.GEMINI_TELEMETRY_OUTFILE = o.telemetryFile;
  env.GEMINI_TELEMETRY_LOG_PROMPTS = 'false';
  env.OTEL_BLRP_SCHEDULE_DELAY = String(OTEL_BLRP_SCHEDULE_DELAY_MS);
  if (!o.relaunch) env.GEMINI_CLI_NO_RELAUNCH = 'true';
  if (o.egressProxy) throughEgressProxy(env, o.egressProxy);
  return env;
}

function throughEgressProxy(env: Record<string, string>, url: string): void {
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) env[name] = url;
  // Loopback stays direct: the model proxy is reached there (and the packet filter allows nothing else on it).
  env.NO_PROXY = env.no_proxy = ['127.0.0.1', 'localhost', '::1'].join(',');
}

/** An enterprise HTTPS_PROXY would otherwise catch the loopback model proxy too. */
function bypassProxyForLoopback(env: Record<string, string>): void {
  env.NO_PROXY = [env.NO_PROXY, '127.0.0.1', 'localhost'].filter(Boolean).join(',');
  env.no_proxy = env.NO_PROXY;
}

export interface SpecOptions {
  geminiPath: string;
  worktree: string;
  /** A fresh id when neither this nor resumeSessionId is given. */
  sessionId?: string;
  resumeSessionId?: string;
  model?: string;
  approvalMode: ApprovalMode;
  env: Record<string, string>;
  runAs?: string[];
}

/** `gemini --approval-mode <m> --skip-trust --session-id <id> [-m <model>] "<FIXED_INSTRUCTION>"` in a TTY. */
export function buildInteractiveSpec(o: SpecOptions): SpawnSpec {
  const { sessionId, sessionArgs } = sessionArgsOf(o);
  return launch(o, sessionId, [...commonArgs(o, sessionArgs), FIXED_INSTRUCTION]);
}

/**
 * Headless: `--output-format stream-json --prompt=<FIXED_INSTRUCTION>` (the `=` form binds the value even if
 * it began with `-`); the task goes on stdin, which the CLI prepends to the prompt — out of argv and `ps`.
 */
export function buildHeadlessSpec(o: SpecOptions & { stdin?: string }): SpawnSpec {
  const { sessionId, sessionArgs } = sessionArgsOf(o);
  const spec = launch(o, sessionId, [
    ...commonArgs(o, sessionArgs),
    '--output-format',
    'stream-json',
    `--prompt=${FIXED_INSTRUCTION}`,
  ]);
  return { ...spec, stdin: o.stdin ?? '' };
}

function sessionArgsOf(o: SpecOptions): { sessionId: string; sessionArgs: string[] } {
  if (o.resumeSessionId)
    return { sessionId: o.resumeSessionId, sessionArgs: ['--resume', o.resumeSessionId] };
  const sessionId = o.sessionId ?? newSessionId();
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`invalid session id: ${sessionId}`);
  return { sessionId, sessionArgs: ['--session-id', sessionId] };
}

function commonArgs(o: SpecOptions, sessionArgs: string[]): string[] {
  return [
    '--approval-mode',
    o.approvalMode,
    '--skip-trust',
    ...sessionArgs,
    ...(o.model ? ['-m', o.model] : []),
  ];
}

/**
 * Without the self-relaunch the heap limit the CLI would have set (half the RAM) has to come from us. For the
 * npm bundle (a .js file) it is a node flag on our own command line, so it does not leak into the node
 * processes the agent runs; for any other executable it goes through NODE_OPTIONS.
 */
function launch(o: SpecOptions, sessionId: string, args: string[]): SpawnSpec {
  const env = { ...o.env };
  const base = { env, cwd: o.worktree, sessionId, ...(o.runAs ? { runAs: o.runAs } : {}) };
  if (env.GEMINI_CLI_NO_RELAUNCH !== 'true') return { ...base, command: o.geminiPath, args };
  const heap = `--max-old-space-size=${heapLimitMb()}`;
  const script = resolveScript(o.geminiPath);
  if (script) return { ...base, command: process.execPath, args: [heap, script, ...args] };
  env.NODE_OPTIONS = heap;
  return { ...base, command: o.geminiPath, args };
}

export function heapLimitMb(): number {
  return Math.floor(totalmem() / (1024 * 1024) / 2);
}

/**
 * The argv and environment that start a spec's program, through its run-as prefix when it has one: `env -i`
 * gives the program exactly the spec's environment, whatever sudo or setpriv keep of theirs.
 */
export function launchArgv(spec: SpawnSpec): { file: string; args: string[]; env: Record<string, string> } {
  if (!spec.runAs || spec.runAs.length === 0) return { file: spec.command, args: spec.args, env: spec.env };
  const assignments = Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
  const [file, ...rest] = spec.runAs;
  return {
    file: file as string,
    args: [...rest, 'env', '-i', ...assignments, spec.command, ...spec.args],
    env: { PATH: spec.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' },
  };
}

function resolveScript(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return /\.(c|m)?js$/.test(real) ? real : undefined;
  } catch {
    return undefined;
  }
}
