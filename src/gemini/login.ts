/**
 * The paste-the-code OAuth login of Gemini CLI 0.42.0 (flow kind "oauth-code"), driven in its own tmux
 * session. With `security.auth.selectedType = oauth-personal`, no creds and NO_BROWSER=true, the CLI runs a
 * plain-stdio flow before its TUI: it prints an authorization URL, then reads the code with readline. A wrong
 * code prints a FRESH URL (new PKCE state), so the URL is always the last one on screen; after two failures the
 * CLI exits with a fatal auth error. There is no success banner: success is the birth of oauth_creds.json.
 *
 * The texts it reads are in screen.ts with every other text of the CLI's screen; readLoginScreen is pure and
 * tested on captured screens.
 */
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TmuxDriver } from '../tmux/tmux.js';
import { isUnreachable, UserError } from '../util/errors.js';
import { readActiveAccount } from './auth-status.js';
import { OAUTH_CREDS_FILE, homeAt } from './home.js';
import { SCREEN_TEXTS, findOnScreen } from './screen.js';
import { OWNED_SETTINGS, mergeSettings } from './settings.js';
import { baseEnv } from './spawn.js';
import { pathExists } from '../util/fs.js';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoginScreen {
  /** The last authorization URL on screen. */
  url?: string;
  /** How many URLs are on screen (one per attempt while the alternate screen lasts). */
  urlCount: number;
  /** The code prompt is the last thing after the last URL: the CLI waits for a code for `url`. */
  awaitingCode: boolean;
  /** The server's reasons for refused codes, oldest first. */
  refusals: string[];
  /** The CLI's final failure line, when it gave up. */
  failure?: string;
}

/** Pure: what a captured login screen says. `lines` = capture-pane output with wrapped lines joined (-J). */
export function readLoginScreen(lines: readonly string[]): LoginScreen {
  let url: string | undefined;
  let urlLine = -1;
  let urlCount = 0;
  let promptLine = -1;
  const refusals: string[] = [];
  let failure: string | undefined;
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    for (const m of line.matchAll(SCREEN_TEXTS.loginUrl)) {
      url = m[0];
      urlLine = i;
      urlCount++;
    }
    if (SCREEN_TEXTS.codePrompt.test(line)) promptLine = i;
    const refused = SCREEN_TEXTS.codeRefused.exec(line);
    if (refused) refusals.push((refused[1] ?? '').trim() || 'refused');
    else if (SCREEN_TEXTS.codeRequired.test(line)) refusals.push('empty code');
    if (SCREEN_TEXTS.gaveUp.test(line) || SCREEN_TEXTS.loginTimedOut.test(line)) failure = line.trim();
  });
  const screen: LoginScreen = { urlCount, awaitingCode: url !== undefined && promptLine > urlLine, refusals };
  if (url) screen.url = url;
  if (failure) screen.failure = failure;
  return screen;
}

/** Pure: the most useful last words of a CLI that died during login (its error, not the blank screen). */
export function lastWords(lines: readonly string[]): string | undefined {
  const oneUrl = new RegExp(SCREEN_TEXTS.loginUrl.source);
  const meaningful = lines
    .map((l) => l.trim())
    .filter((l) => l !== '' && !oneUrl.test(l) && !/^Pane is dead\b/.test(l) && !/^at /.test(l));
  const error = [...meaningful].reverse().find((l) => /error|fail|denied|refused|timed out|invalid/i.test(l));
  return error ?? meaningful[meaningful.length - 1];
}

/**
 * What an interactive run (not a login) shows when its auth fails; both block forever (live, 0.42.0):
 * - `login-required`: a refused token refresh is only debug-logged, then the CLI falls back to this very
 *   paste-the-code prompt (NO_BROWSER) — the server's reason is never shown;
 * - `sign-in-failed`: the auth dialog ("How would you like to authenticate...") with "Failed to sign in.
 *   Message: <server message>", e.g. Code Assist refusing a consumer account (IneligibleTierError);
 * - `auth-dialog`: the auth dialog without a message.
 */
export type AuthWall =
  | { kind: 'login-required'; url?: string }
  | { kind: 'sign-in-failed'; message: string }
  | { kind: 'auth-dialog' };

/** Pure: the auth wall on an interactive run's screen, if any. Exported for the engine and tests. */
export function detectAuthWall(lines: readonly string[]): AuthWall | undefined {
  const login = readLoginScreen(lines);
  if (login.awaitingCode)
    return login.url ? { kind: 'login-required', url: login.url } : { kind: 'login-required' };
  // The message wraps inside the dialog box: read it to the end of its paragraph.
  const failed = findOnScreen(lines, SCREEN_TEXTS.signInFailed, { toParagraphEnd: true });
  if (failed) return { kind: 'sign-in-failed', message: failed.detail ?? '' };
  if (findOnScreen(lines, SCREEN_TEXTS.authDialog)) return { kind: 'auth-dialog' };
  return undefined;
}

export interface LoginOptions {
  /** gemini executable or its bundle/gemini.js. */
  geminiPath: string;
  /** GEMINI_CLI_HOME of the login (the parent of `.gemini`). */
  home: string;
  /** Where HOME, PATH, proxies and CA certs come from (filtered by the adapter's allow-list). */
  sourceEnv: NodeJS.ProcessEnv;
  /**
   * Called for each authorization URL with the attempt number (1-based) and, from the second attempt, why
   * the previous code was refused. Returns the code, or undefined to give up.
   */
  askCode(url: string, attempt: number, refusal?: string): Promise<string | undefined>;
  /** Replace existing creds (kept aside and restored when the login fails). */
  replace?: boolean;
  timeoutMs?: number;
  /** Aborting (Ctrl-C in the toolkit) ends the login; the tmux session is stopped all the same. */
  signal?: AbortSignal;
  /** How long to wait, after the creds appear, for the CLI to show whether Code Assist serves the account. */
  verifyMs?: number;
  pollMs?: number;
  tmuxPath?: string;
}

export interface LoginResult {
  credsFile: string;
  account?: string;
  attempts: number;
  /** The Code Assist plan the TUI shows once signed in (e.g. "Gemini Code Assist Standard"). */
  plan?: string;
  /** False when the TUI did not come up within verifyMs: the creds exist but the account is unconfirmed. */
  verified: boolean;
}

/**
 * After the token exchange the CLI goes on to Code Assist (loadCodeAssist/onboardUser) and opens its TUI. That
 * is where Google refuses an account (consumer accounts since 2026-06), so wait for the TUI's verdict: ready
 * prompt = served; "Failed to sign in. Message: ..." = refused (the new creds are removed: runs could not use
 * them anyway).
 */
async function verify(
  driver: TmuxDriver,
  o: LoginOptions,
  credsFile: string,
  geminiDir: string,
  attempts: number,
): Promise<LoginResult> {
  let until = Date.now() + (o.verifyMs ?? 30_000);
  let verified = false;
  let plan: string | undefined;
  while (Date.now() < until) {
    if (o.signal?.aborted) throw cancelled();
    const lines = await driver.capture(500);
    const wall = detectAuthWall(lines);
    if (wall?.kind === 'sign-in-failed') {
      await fs.rm(credsFile, { force: true });
      throw new UserError(`Google refused this account for the Gemini CLI: ${wall.message}`);
    }
    if (!verified && lines.some((l) => SCREEN_TEXTS.ready.test(l))) {
      verified = true;
      // The plan line is drawn a moment after the prompt (it needs the quota call); it is only a label.
      until = Math.min(until, Date.now() + 3000);
    }
    if (verified) {
      for (const l of lines) plan = SCREEN_TEXTS.plan.exec(l.trim())?.[1] ?? plan;
      if (plan) break;
    }
    if ((await driver.paneState()).dead) break;
    await sleep(o.pollMs ?? 200);
  }
  // userinfo is cached right after the token exchange; by now it is there if it ever will be.
  const account = await readActiveAccount(geminiDir);
  const result: LoginResult = { credsFile, attempts, verified };
  if (account) result.account = account;
  if (plan) result.plan = plan;
  return result;
}

function cancelled(): UserError {
  return new UserError('login cancelled');
}

/** Resolves like `p`, or rejects as soon as `signal` aborts (a pending stdin read must not hold the login). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** The file is complete JSON with an access token (the CLI writes it non-atomically). */
async function credsReady(file: string): Promise<boolean> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    return (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { access_token?: unknown }).access_token === 'string'
    );
  } catch {
    return false;
  }
}

/** A .js path runs under this node, so the pane does not depend on `node` being on PATH. */
async function geminiCommand(geminiPath: string): Promise<{ command: string; args: string[] }> {
  let real = geminiPath;
  try {
    real = await fs.realpath(geminiPath);
  } catch {
    // Not resolvable: let the pane report it.
  }
  return real.endsWith('.js')
    ? { command: process.execPath, args: [real] }
    : { command: geminiPath, args: [] };
}

/** The login pane's environment: the adapter's allow-list and its guard (proxies, CA certs) plus the login switches. */
export function loginEnv(home: string, tmpDir: string, src: NodeJS.ProcessEnv): Record<string, string> {
  const env = baseEnv(src);
  env.TERM = 'xterm-256color';
  env.GEMINI_CLI_HOME = home;
  env.TMPDIR = tmpDir;
  env.NO_BROWSER = 'true';
  env.GEMINI_CLI_NO_RELAUNCH = 'true';
  return env;
}

/**
 * Runs the login to completion: merges our settings into the home (selectedType makes the CLI take the
 * plain-stdin path), starts gemini in its own tmux server, hands each URL to askCode and pastes the code.
 * The tmux session is always stopped. Throws a one-line UserError on every failure.
 */
export async function loginWithCode(o: LoginOptions): Promise<LoginResult> {
  const home = homeAt(o.home);
  const credsFile = join(home.geminiDir, OAUTH_CREDS_FILE);
  const backup = `${credsFile}.gemini-run-backup`;
  await fs.mkdir(home.geminiDir, { recursive: true, mode: 0o700 });
  if (await pathExists(credsFile)) {
    if (!o.replace) {
      throw new UserError(
        `already logged in (${credsFile} exists): check it with 'gemini-run auth status', or pass --force to log in again`,
      );
    }
    await fs.rename(credsFile, backup);
  }
  await mergeSettings(home.settingsPath, OWNED_SETTINGS('oauth'));

  const startedAt = Date.now();
  const runDir = await fs.mkdtemp(join(tmpdir(), 'gemini-run-login-'));
  const tmpDir = join(runDir, 'tmp');
  await fs.mkdir(tmpDir, { mode: 0o700 });
  let driver: TmuxDriver | undefined;
  let ok = false;
  try {
    const { command, args } = await geminiCommand(o.geminiPath);
    driver = await TmuxDriver.create({
      id: `login-${process.pid}-${randomBytes(3).toString('hex')}`,
      runDir,
      tmuxPath: o.tmuxPath,
      // Wide, so the ~600-character URL wraps on few lines (capture joins them anyway).
      width: 250,
      height: 60,
      pane: {
        command,
        args: [...args, '--skip-trust'],
        env: loginEnv(o.home, tmpDir, o.sourceEnv),
        cwd: runDir,
      },
    });
    const result = await drive(driver, o, credsFile, home.geminiDir);
    ok = true;
    return result;
  } finally {
    await driver?.stop();
    await forgetLoginProject(home.geminiDir, runDir, startedAt);
    await fs.rm(runDir, { recursive: true, force: true });
    if (await pathExists(backup)) {
      if (ok) await fs.rm(backup, { force: true });
      else await fs.rename(backup, credsFile);
    }
  }
}

/** The CLI's per-project folders in a home, each marked with the project it belongs to. */
const PROJECT_DIRS = ['tmp', 'history'];
const PROJECT_ROOT_FILE = '.project_root';
const PROJECTS_FILE = 'projects.json';

/**
 * Removes what the CLI kept in the operator's home about the login's throw-away working directory: its
 * project folders (named after it, `tmp/gemini-run-login-*`, found by their `.project_root` marker), its entry
 * in projects.json, and the registry's temp files a stopped CLI left half-written (`projects.json.*.tmp`, only
 * those made since the login started: another gemini of this user may be writing its own). Runs on every
 * exit of the login, a cancelled one too; best effort, as a leftover is clutter, not harm.
 */
async function forgetLoginProject(geminiDir: string, runDir: string, since: number): Promise<void> {
  const owners = new Set([runDir, await fs.realpath(runDir).catch(() => runDir)]);
  for (const base of PROJECT_DIRS) {
    const dir = join(geminiDir, base);
    for (const entry of await fs.readdir(dir).catch(() => [])) {
      const marker = await fs.readFile(join(dir, entry, PROJECT_ROOT_FILE), 'utf8').catch(() => undefined);
      if (marker !== undefined && owners.has(marker.trim())) {
        await fs.rm(join(dir, entry), { recursive: true, force: true });
      }
    }
  }
  const registry = join(geminiDir, PROJECTS_FILE);
  try {
    const data = JSON.parse(await fs.readFile(registry, 'utf8')) as { projects?: Record<string, unknown> };
    const projects = data.projects ?? {};
    const ours = Object.keys(projects).filter((k) => owners.has(k));
    if (ours.length > 0) {
      for (const k of ours) delete projects[k];
      const tmp = `${registry}.gemini-run-${process.pid}.tmp`;
      await fs.writeFile(tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
      await fs.rename(tmp, registry);
    }
  } catch {
    // No registry, or one we cannot read: nothing of ours to take out.
  }
  for (const entry of await fs.readdir(geminiDir).catch(() => [])) {
    if (!/^projects\.json\..+\.tmp$/.test(entry)) continue;
    const file = join(geminiDir, entry);
    const st = await fs.stat(file).catch(() => undefined);
    if (st && st.mtimeMs >= since - 1000) await fs.rm(file, { force: true });
  }
}

async function drive(
  driver: TmuxDriver,
  o: LoginOptions,
  credsFile: string,
  geminiDir: string,
): Promise<LoginResult> {
  const deadline = Date.now() + (o.timeoutMs ?? 10 * 60_000);
  const pollMs = o.pollMs ?? 200;
  let submittedFor: string | undefined;
  let attempts = 0;
  for (;;) {
    if (o.signal?.aborted) throw cancelled();
    if (await credsReady(credsFile)) return await verify(driver, o, credsFile, geminiDir, attempts);
    const lines = await driver.capture(500);
    const screen = readLoginScreen(lines);
    const state = await driver.paneState();
    if (state.dead) {
      if (await credsReady(credsFile)) continue;
      const why =
        screen.failure ?? lastWords(await driver.capture(500)) ?? `gemini exited (${state.exitCode ?? '?'})`;
      throw new UserError(`login failed: ${why}`);
    }
    if (screen.url && screen.awaitingCode && screen.url !== submittedFor) {
      attempts++;
      const refusal = attempts > 1 ? (screen.refusals[screen.refusals.length - 1] ?? 'refused') : undefined;
      // Google never saw the code: no new URL helps, the network has to be fixed first.
      if (refusal !== undefined && isUnreachable(refusal)) {
        throw new UserError(
          `Google's token endpoint could not be reached to check the code (${refusal}): check this host's network and HTTPS_PROXY, then log in again.`,
        );
      }
      const code = await untilAborted(o.askCode(screen.url, attempts, refusal), o.signal);
      if (code === undefined || code.trim() === '') {
        throw new UserError(
          refusal
            ? `the authorization code was refused (${refusal})`
            : 'no authorization code given; login cancelled',
        );
      }
      submittedFor = screen.url;
      await driver.typeText(code.trim());
      continue;
    }
    if (Date.now() > deadline) throw new UserError('login timed out waiting for gemini; try again');
    await sleep(pollMs);
  }
}
