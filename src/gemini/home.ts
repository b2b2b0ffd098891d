/**
 * One isolated Gemini home per run (`GEMINI_CLI_HOME`): 0.42.0 keeps ALL user-level state under
 * `<home>/.gemini`, so a fresh directory means no change to the runner user's own `~/.gemini` and no sight
 * of concurrent runs. Creds are seeded per auth kind; a runner-host source gets refreshed creds back.
 */
import { ownerUids, readAgentFile } from '../util/agent-file.js';
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { AuthConfig, OAuthCreds } from '../domain/types.js';
import { UserError } from '../util/errors.js';
import { parseOAuthCreds, type ParseCredsOptions } from './creds.js';
import { OWNED_SETTINGS, RUN_HOME_SETTINGS, mergeSettings, writeAtomic } from './settings.js';

export interface GeminiHome {
  /** The value of GEMINI_CLI_HOME. */
  root: string;
  /** root/.gemini */
  geminiDir: string;
  settingsPath: string;
}

export const OAUTH_CREDS_FILE = 'oauth_creds.json';
export const GOOGLE_ACCOUNTS_FILE = 'google_accounts.json';
/** Marks a directory as a run home we made, so removeHome never deletes anything else. */
const HOME_MARKER = '.gemini-run-home';

export function homeAt(root: string): GeminiHome {
  const geminiDir = join(root, '.gemini');
  return { root, geminiDir, settingsPath: join(geminiDir, 'settings.json') };
}

/**
 * Makes `dir` a run home: 0700 directories, our settings merged, creds for the auth kind. OAuth gets
 * `oauth_creds.json` (0600) and, when the account is known, `google_accounts.json`; API key and Vertex AI
 * authenticate through the environment only (see spawn.ts), so no secret lands on disk for them.
 */
export async function createIsolatedHome(
  dir: string,
  auth: AuthConfig,
  o: { withoutCreds?: boolean } = {},
): Promise<GeminiHome> {
  const home = homeAt(dir);
  await fs.mkdir(home.geminiDir, { recursive: true, mode: 0o700 });
  // mkdir's mode is filtered by the umask and ignored for an existing directory (mkdtemp): set it outright.
  await fs.chmod(home.root, 0o700);
  await fs.chmod(home.geminiDir, 0o700);
  await fs.writeFile(join(home.root, HOME_MARKER), 'gemini-run isolated home\n', { mode: 0o600 });
  await mergeSettings(home.settingsPath, { ...OWNED_SETTINGS(auth.kind), ...RUN_HOME_SETTINGS });
  if (auth.kind === 'oauth' && !o.withoutCreds) {
    await writeAtomic(join(home.geminiDir, OAUTH_CREDS_FILE), credsText(auth.creds), 0o600);
  }
  if (auth.kind === 'oauth' && auth.account) {
    await writeAtomic(join(home.geminiDir, GOOGLE_ACCOUNTS_FILE), accountsText(auth.account), 0o600);
  }
  return home;
}

/** google_accounts.json, as the CLI writes it. */
export const accountsSchema = z.looseObject({
  active: z.string().nullable().optional(),
  old: z.array(z.string()).optional(),
});

/** Where an operator's `gemini-run login` left creds on a self-hosted runner host (the action and the CLI agree). */
export function hostHomeFrom(env: NodeJS.ProcessEnv): string {
  return env.GEMINI_RUN_HOST_HOME || env.GEMINI_CLI_HOME || env.HOME || homedir();
}

/**
 * The creds an operator left on a runner host with `gemini-run login` (`<hostHome>/.gemini`). Undefined when
 * there are none; a UserError naming the file when they are damaged or expired beyond refresh.
 */
export async function readHostCreds(
  hostHome: string,
  opts: Pick<ParseCredsOptions, 'allowExpired'> & { now?: number } = {},
): Promise<{ creds: OAuthCreds; account?: string } | undefined> {
  const home = homeAt(hostHome);
  const credsFile = join(home.geminiDir, OAUTH_CREDS_FILE);
  const text = await readIfExists(credsFile);
  if (text === undefined) return undefined;
  const creds = parseOAuthCreds(text, opts.now ?? Date.now(), {
    source: credsFile,
    allowExpired: opts.allowExpired,
  });
  const account = await readActiveAccount(home.geminiDir);
  return account ? { creds, account } : { creds };
}

/** `active` from google_accounts.json; a damaged file reads as no account (the CLI starts fresh too). */
export async function readActiveAccount(geminiDir: string): Promise<string | undefined> {
  const text = await readIfExists(join(geminiDir, GOOGLE_ACCOUNTS_FILE));
  if (text === undefined) return undefined;
  try {
    const parsed = accountsSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.active ? parsed.data.active : undefined;
  } catch {
    return undefined; // The account is only a label; a damaged file must not block a run.
  }
}

/**
 * After a run: the CLI rewrites `oauth_creds.json` on every silent refresh. When the run's creds differ from
 * what was seeded and are not older than the host's current ones, write them back (atomic, 0600) so the
 * host's refresh token chain stays current. Never resurrects creds the operator removed meanwhile (logout).
 */
export async function writeBackCreds(home: GeminiHome, auth: AuthConfig): Promise<boolean> {
  if (auth.kind !== 'oauth' || !auth.hostHome) return false;
  // The run's home was the agent's: its creds file is read as data (no link followed, one link, ours).
  const runText = await readAgentFile(join(home.geminiDir, OAUTH_CREDS_FILE), {
    root: home.root,
    uids: ownerUids(undefined),
    maxBytes: 1024 * 1024,
  }).then(
    (b) => b.toString('utf8'),
    () => undefined,
  );
  if (runText === undefined) return false;
  let runCreds: OAuthCreds;
  try {
    runCreds = parseOAuthCreds(runText, 0, { allowExpired: true, source: 'the run\u2019s oauth_creds.json' });
  } catch {
    return false; // Never overwrite good host creds with a damaged file.
  }
  return writeBackRefreshedCreds(auth, runCreds);
}

/** The same rule for creds refreshed outside the CLI (by the model proxy's token source). */
export async function writeBackRefreshedCreds(
  auth: Extract<AuthConfig, { kind: 'oauth' }>,
  runCreds: OAuthCreds,
): Promise<boolean> {
  if (!auth.hostHome) return false;
  const host = await readHostCreds(auth.hostHome, { allowExpired: true });
  if (!host) return false;
  const next = decideWriteBack(auth.creds, runCreds, host.creds);
  if (!next) return false;
  await writeAtomic(join(homeAt(auth.hostHome).geminiDir, OAUTH_CREDS_FILE), credsText(next), 0o600);
  return true;
}

/**
 * Pure rule of writeBackCreds: the creds to write, or undefined. Exported for tests.
 * - unchanged during the run (same access token and expiry as seeded) → nothing;
 * - older than what the host has now (a concurrent run refreshed later) → nothing;
 * - a refresh that came back without refresh_token keeps the host's refresh_token (google-auth-library
 *   emits the tokens event before copying it over).
 */
export function decideWriteBack(
  seeded: OAuthCreds,
  run: OAuthCreds,
  host: OAuthCreds,
): OAuthCreds | undefined {
  const changed =
    run.access_token !== seeded.access_token || (run.expiry_date ?? 0) > (seeded.expiry_date ?? 0);
  if (!changed) return undefined;
  if (run.access_token === host.access_token && run.expiry_date === host.expiry_date) return undefined;
  if ((run.expiry_date ?? 0) < (host.expiry_date ?? 0)) return undefined;
  const refresh = run.refresh_token ?? host.refresh_token;
  return refresh ? { ...run, refresh_token: refresh } : { ...run };
}

/** Removes a run home made by createIsolatedHome; anything without our marker is left alone. */
export async function removeHome(home: GeminiHome | string): Promise<void> {
  const root = typeof home === 'string' ? home : home.root;
  try {
    await fs.access(join(root, HOME_MARKER));
  } catch {
    try {
      await fs.access(root);
    } catch {
      return; // Already gone: cleanup is idempotent.
    }
    throw new UserError(`refusing to remove ${root}: it is not a gemini-run home`);
  }
  await fs.rm(root, { recursive: true, force: true });
}

function credsText(creds: OAuthCreds): string {
  // Same layout the CLI writes (JSON.stringify(credentials, null, 2)).
  return JSON.stringify(creds, null, 2);
}

function accountsText(account: string): string {
  return JSON.stringify({ active: account, old: [] }, null, 2);
}

/** A file's text, or undefined when it does not exist; any other error is a one-line UserError. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await fs.readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}
