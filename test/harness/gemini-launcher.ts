/**
 * Isolated home + allow-listed environment for starting the REAL gemini 0.42.0 in tests against a FakeGemini.
 * Deliberately independent of the product's adapter (src/gemini/home.ts, spawn.ts): the harness checks the
 * product, so it must not share its mistakes.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitConcatenatedJson } from '../../src/probe/otel.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Absolute path of the pinned real binary. Not node_modules/.bin/gemini: the `gemini-cli-latest` alias installs a
 * second `gemini` bin and npm links whichever it writes last.
 */
export const GEMINI_BIN = join(ROOT, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');

/** The second pinned binary (devDependency `gemini-cli-latest`, @google/gemini-cli 0.61.0). */
export const GEMINI_LATEST_BIN = join(ROOT, 'node_modules', 'gemini-cli-latest', 'bundle', 'gemini.js');

export const TEST_GIT_IDENTITY = { name: 'Gemini Run Test', email: 'gemini-run-test@example.invalid' };

export interface GeminiEnv {
  /** GEMINI_CLI_HOME (state lives in `<home>/.gemini`). */
  home: string;
  geminiDir: string;
  settingsPath: string;
  tmpDir: string;
  telemetryFile: string;
  /** The complete environment for the gemini process (nothing inherited beyond the allow-list). */
  env: Record<string, string>;
}

export const HARNESS_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  // Without these, an interactive 0.42.0 upgrades itself machine-wide (npm install -g) during the test.
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  context: { fileName: ['GEMINI.local.md', 'GEMINI.md', 'AGENTS.md'] },
  // As in the product's run homes: 0.42.0's node-pty shell can crash the CLI on a resize race (EBADF).
  tools: { shell: { enableInteractiveShell: false } },
};

/** Creates `<runDir>/home`, `<runDir>/tmp` and the settings; returns the env to start gemini with. */
export async function prepareGeminiEnv(o: {
  fakeUrl: string;
  runDir: string;
  sourceEnv?: NodeJS.ProcessEnv;
}): Promise<GeminiEnv> {
  const src = o.sourceEnv ?? process.env;
  const home = join(o.runDir, 'home');
  const geminiDir = join(home, '.gemini');
  const tmpDir = join(o.runDir, 'tmp');
  const settingsPath = join(geminiDir, 'settings.json');
  const telemetryFile = join(o.runDir, 'telemetry.json');
  await mkdir(geminiDir, { recursive: true, mode: 0o700 });
  await mkdir(tmpDir, { recursive: true });
  await writeFile(settingsPath, `${JSON.stringify(HARNESS_SETTINGS, null, 2)}\n`, { mode: 0o600 });
  const env: Record<string, string> = {
    PATH: src['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    // HOME stays the real one (git, npm caches); GEMINI_CLI_HOME isolates every gemini state file.
    HOME: src['HOME'] ?? home,
    LANG: src['LANG'] ?? 'C.UTF-8',
    TERM: 'xterm-256color',
    GEMINI_CLI_HOME: home,
    GEMINI_API_KEY: 'fake',
    GOOGLE_GEMINI_BASE_URL: o.fakeUrl,
    GEMINI_TELEMETRY_ENABLED: 'true',
    GEMINI_TELEMETRY_TARGET: 'local',
    GEMINI_TELEMETRY_OUTFILE: telemetryFile,
    GEMINI_TELEMETRY_LOG_PROMPTS: 'false',
    // Log records reach the file ~50 ms after the event instead of ~5 s.
    OTEL_BLRP_SCHEDULE_DELAY: '50',
    TMPDIR: tmpDir,
    GIT_AUTHOR_NAME: TEST_GIT_IDENTITY.name,
    GIT_AUTHOR_EMAIL: TEST_GIT_IDENTITY.email,
    GIT_COMMITTER_NAME: TEST_GIT_IDENTITY.name,
    GIT_COMMITTER_EMAIL: TEST_GIT_IDENTITY.email,
    NO_BROWSER: 'true',
  };
  // CI / GITHUB_ACTIONS are never copied: either one forces the CLI into headless mode even in a TTY.
  return { home, geminiDir, settingsPath, tmpDir, telemetryFile, env };
}

/** Argv for a headless run (stream-json on stdout). */
export function headlessArgs(o: { prompt: string; sessionId: string; model?: string }): string[] {
  const args = [
    `--prompt=${o.prompt}`,
    '--output-format',
    'stream-json',
    '--skip-trust',
    '--approval-mode',
    'yolo',
  ];
  args.push('--session-id', o.sessionId);
  if (o.model) args.push('-m', o.model);
  return args;
}

/** Argv for an interactive run whose first turn is the positional prompt. */
export function interactiveArgs(o: { prompt: string; sessionId: string; model?: string }): string[] {
  const args = ['--approval-mode', 'yolo', '--skip-trust', '--session-id', o.sessionId];
  if (o.model) args.push('-m', o.model);
  args.push(o.prompt);
  return args;
}

/**
 * Wraps a command so its exit status lands in `exitFile` (tmux does not report a clean exit's status reliably).
 * Returns [command, ...args] for `sh`.
 */
export function withExitFile(exitFile: string, command: string, args: readonly string[]): [string, string[]] {
  return ['/bin/sh', ['-c', '"$@"; echo $? > "$0"', exitFile, command, ...args]];
}

/** Names of the log events (`attributes["event.name"]`) in the telemetry outfile, in file order. */
export async function telemetryEventNames(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  return [...text.matchAll(/"event\.name":\s*"([^"]+)"/g)].map((m) => m[1] ?? '');
}

/** Polls the telemetry file until `name` has been logged `count` times. */
export async function waitForTelemetryEvent(
  file: string,
  name: string,
  count: number,
  timeoutMs: number,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const n = (await telemetryEventNames(file)).filter((e) => e === name).length;
    if (n >= count) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`telemetry: ${name} x${count} not seen in ${timeoutMs} ms (${file})`);
}

/** Every `session-*.jsonl` transcript under `<home>/.gemini/tmp/<slug>/chats/`. */
export async function findTranscripts(home: string): Promise<string[]> {
  const tmp = join(home, '.gemini', 'tmp');
  const out: string[] = [];
  let slugs: string[];
  try {
    slugs = await readdir(tmp);
  } catch {
    return out;
  }
  for (const slug of slugs) {
    let names: string[];
    try {
      names = await readdir(join(tmp, slug, 'chats'));
    } catch {
      continue;
    }
    for (const n of names) if (/^session-.*\.jsonl$/.test(n)) out.push(join(tmp, slug, 'chats', n));
  }
  return out.sort();
}

/** Splits the telemetry outfile (concatenated pretty-printed JSON objects, not JSONL) into objects. */
export const parseConcatenatedJson = splitConcatenatedJson;

/** The log records of the telemetry outfile as `{name, attributes}` (spans and metrics left out). */
export async function telemetryLogRecords(
  file: string,
): Promise<{ name: string; attributes: Record<string, unknown> }[]> {
  const records = parseConcatenatedJson(await readFile(file, 'utf8'));
  const out: { name: string; attributes: Record<string, unknown> }[] = [];
  for (const r of records) {
    if (typeof r !== 'object' || r === null) continue;
    const attrs = (r as { attributes?: unknown }).attributes;
    if (typeof attrs !== 'object' || attrs === null) continue;
    const name = (attrs as Record<string, unknown>)['event.name'];
    if (typeof name === 'string') out.push({ name, attributes: attrs as Record<string, unknown> });
  }
  return out;
}
