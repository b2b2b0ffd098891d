/**
 * What an operator's Gemini home says about its OAuth login, read from files only: 0.42.0 has no auth
 * subcommand, so status = `oauth_creds.json` (presence, expiry, refresh token) + `google_accounts.json`
 * (account) + `security.auth.selectedType` (settings). Logout mirrors the CLI's own `/auth signout`.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { OAuthCreds } from '../domain/types.js';
import { getErrorMessage } from '../util/errors.js';
import { parseOAuthCreds } from './creds.js';
import {
  GOOGLE_ACCOUNTS_FILE,
  OAUTH_CREDS_FILE,
  accountsSchema,
  homeAt,
  readActiveAccount,
  readIfExists,
} from './home.js';

export { readActiveAccount };
import { readSettings } from './settings.js';

export interface AuthStatus {
  /** GEMINI_CLI_HOME (the parent of `.gemini`). */
  home: string;
  credsFile: string;
  credsPresent: boolean;
  /** Why the creds file could not be used (damaged), one line, no secret. */
  credsError?: string;
  /** ISO time the access token expires (or expired). */
  accessTokenExpiry?: string;
  accessTokenExpired?: boolean;
  refreshTokenPresent: boolean;
  account?: string;
  /** `security.auth.selectedType` from settings.json, when set. */
  authType?: string;
  settingsError?: string;
  /** Creds that 0.42.0 can use now or renew silently. */
  usable: boolean;
  /** One line per problem, each saying what to do. */
  problems: string[];
}

/** Pure: the verdict from what was read. Exported for tests. */
export function evaluateAuth(o: {
  home: string;
  creds?: OAuthCreds;
  credsPresent: boolean;
  credsError?: string;
  account?: string;
  authType?: string;
  settingsError?: string;
  now: number;
}): AuthStatus {
  const credsFile = join(homeAt(o.home).geminiDir, OAUTH_CREDS_FILE);
  const problems: string[] = [];
  const c = o.creds;
  const expired = c?.expiry_date !== undefined ? c.expiry_date <= o.now : undefined;
  const refresh = Boolean(c?.refresh_token);
  if (!o.credsPresent) problems.push(`no ${OAUTH_CREDS_FILE}: run 'gemini-run login'`);
  else if (o.credsError) problems.push(`${o.credsError}; run 'gemini-run login' again`);
  else if (expired && !refresh)
    problems.push("the access token expired and there is no refresh token: run 'gemini-run login' again");
  if (o.settingsError) problems.push(o.settingsError);
  if (o.authType && o.authType !== 'oauth-personal') {
    problems.push(
      `settings select auth '${o.authType}', not 'oauth-personal' (runs set their own; 'gemini-run setup' merges ours here)`,
    );
  }
  const usable = o.credsPresent && !o.credsError && c !== undefined && (!expired || refresh);
  const status: AuthStatus = {
    home: o.home,
    credsFile,
    credsPresent: o.credsPresent,
    refreshTokenPresent: refresh,
    usable,
    problems,
  };
  if (o.credsError) status.credsError = o.credsError;
  if (c?.expiry_date !== undefined) {
    status.accessTokenExpiry = new Date(c.expiry_date).toISOString();
    status.accessTokenExpired = expired;
  }
  if (o.account) status.account = o.account;
  if (o.authType) status.authType = o.authType;
  if (o.settingsError) status.settingsError = o.settingsError;
  return status;
}

export async function readAuthStatus(home: string, now: number = Date.now()): Promise<AuthStatus> {
  const h = homeAt(home);
  const credsFile = join(h.geminiDir, OAUTH_CREDS_FILE);
  const text = await readIfExists(credsFile);
  let creds: OAuthCreds | undefined;
  let credsError: string | undefined;
  if (text !== undefined) {
    try {
      creds = parseOAuthCreds(text, now, { source: credsFile, allowExpired: true });
    } catch (error) {
      credsError = getErrorMessage(error).replace(/\.$/, '');
    }
  }
  let authType: string | undefined;
  let settingsError: string | undefined;
  try {
    const settings = await readSettings(h.settingsPath);
    const selected = (settings.security as { auth?: { selectedType?: unknown } } | undefined)?.auth
      ?.selectedType;
    if (typeof selected === 'string') authType = selected;
  } catch (error) {
    settingsError = getErrorMessage(error);
  }
  return evaluateAuth({
    home,
    creds,
    credsPresent: text !== undefined,
    credsError,
    account: await readActiveAccount(h.geminiDir),
    authType,
    settingsError,
    now,
  });
}

/** Pure: google_accounts.json after a signout — `active` moves to `old`, as the CLI's clearCachedGoogleAccount. */
export function signedOutAccounts(text: string | undefined): { active: null; old: string[] } {
  let old: string[] = [];
  let active: string | null | undefined;
  if (text !== undefined) {
    try {
      const parsed = accountsSchema.safeParse(JSON.parse(text));
      if (parsed.success) {
        old = [...(parsed.data.old ?? [])];
        active = parsed.data.active;
      }
    } catch {
      // The CLI starts fresh from a damaged file; so do we.
    }
  }
  if (active && !old.includes(active)) old.push(active);
  return { active: null, old };
}

/**
 * Removes oauth_creds.json and clears the active account. Idempotent. Returns what was there, for the
 * message.
 */
export async function logout(home: string): Promise<{ removedCreds: boolean; account?: string }> {
  const h = homeAt(home);
  const credsFile = join(h.geminiDir, OAUTH_CREDS_FILE);
  const accountsFile = join(h.geminiDir, GOOGLE_ACCOUNTS_FILE);
  const removedCreds = (await readIfExists(credsFile)) !== undefined;
  await fs.rm(credsFile, { force: true });
  const accountsText = await readIfExists(accountsFile);
  const account = await readActiveAccount(h.geminiDir);
  if (accountsText !== undefined) {
    await fs.writeFile(accountsFile, JSON.stringify(signedOutAccounts(accountsText), null, 2), {
      mode: 0o600,
    });
  }
  return account ? { removedCreds, account } : { removedCreds };
}
