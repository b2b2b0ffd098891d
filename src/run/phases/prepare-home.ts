/**
 * The engine's prepareHome phase: the gemini named is there, the agent's isolated home is made (settings, extensions,
 * a resumed session restored), the task rendered, and the ways its files are read fixed. Nothing of the agent runs
 * yet, and nothing is written into the worktree.
 */
import { constants as fsConstants } from 'node:fs';
import { access, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detectConventions, renderContextFile } from '../../gemini/context-file.js';
import { installExtensions } from '../../gemini/extensions.js';
import { createIsolatedHome, type GeminiHome } from '../../gemini/home.js';
import { locateTranscript, restoreTranscript } from '../../gemini/transcript-locate.js';
import { writeUserSettings } from '../../gemini/user-settings.js';
import { Git } from '../../git/git.js';
import { AGENT_FILE_LIMITS, ownerUids, type AgentFilePolicy } from '../../util/agent-file.js';
import { UserError, getErrorMessage } from '../../util/errors.js';
import { pathExists } from '../../util/fs.js';
import type { Logger } from '../../util/log.js';
import { neutralize } from '../../util/untrusted-text.js';
import { TokenBudget } from '../budget.js';
import type { AtPrepareHome, HomeReady } from '../engine-record.js';
import { Progress } from '../progress.js';

export async function headSha(worktree: string): Promise<string> {
  return (await Git.create(worktree).output(['rev-parse', 'HEAD'])).trim();
}

/**
 * Files the environment names that the agent's user may not be able to read (they are the runner's): an
 * enterprise CA bundle is public, so the agent gets its own copy rather than a broken TLS chain.
 */
async function agentReadableEnv(
  env: NodeJS.ProcessEnv,
  agentRoot: string,
  log: Logger,
): Promise<NodeJS.ProcessEnv> {
  const ca = env.NODE_EXTRA_CA_CERTS;
  if (!ca) return env;
  const copy = join(agentRoot, 'extra-ca-certs.pem');
  try {
    await copyFile(ca, copy);
    return { ...env, NODE_EXTRA_CA_CERTS: copy };
  } catch (e) {
    log.warning(`NODE_EXTRA_CA_CERTS (${ca}) cannot be copied for the agent: ${getErrorMessage(e)}`);
    return env;
  }
}

/** The workflow's own settings and extensions in the run's home. */
async function furnishHome(r: AtPrepareHome, home: GeminiHome): Promise<void> {
  const { opts } = r;
  if (opts.userSettings) await writeUserSettings(home.settingsPath, opts.userSettings);
  if (opts.extensions?.length) {
    await installExtensions({
      geminiPath: opts.geminiPath,
      home,
      sources: opts.extensions,
      worktree: opts.worktree,
      sourceEnv: opts.sourceEnv,
      log: r.log,
    });
  }
}

/**
 * Where the CLI records a session. A resumed CLI appends to the restored file, but also starts a header-only file
 * of its own named for the current minute with the same session id (probe resume-across-homes): the file to read
 * is the one we placed.
 */
async function sessionFiles(
  r: AtPrepareHome,
  home: GeminiHome,
  agentFile: HomeReady['agentFile'],
): Promise<HomeReady['transcriptOf']> {
  const { opts } = r;
  let restored: string | undefined;
  if (opts.resume) {
    // The saved file is ours (the store's): restoreTranscript reads it where it lies, without following links.
    restored = await restoreTranscript(home.root, opts.worktree, opts.resume.transcriptFile);
    r.log.info(`resuming session ${neutralize(opts.resume.sessionId)} (${restored})`);
  }
  return async (sessionId) => {
    if (restored !== undefined && sessionId === opts.resume?.sessionId) {
      return (await pathExists(restored)) ? restored : undefined;
    }
    return locateTranscript(home.root, opts.worktree, sessionId, agentFile(AGENT_FILE_LIMITS.transcript));
  };
}

export async function prepareHome(r: AtPrepareHome): Promise<HomeReady> {
  const { opts } = r;
  if (opts.geminiPath.includes('/')) {
    await access(opts.geminiPath, fsConstants.X_OK).catch(() => {
      throw new UserError(`gemini not found or not executable: ${opts.geminiPath}`);
    });
  }
  const baseSha = await headSha(opts.worktree);
  const home = await createIsolatedHome(join(r.agentRoot, 'home'), opts.auth, {
    // Behind the proxy the CLI runs on a placeholder token: no creds file for the agent to read.
    withoutCreds: opts.modelEndpoint?.kind === 'code-assist',
  });
  const agentEnv = opts.sandbox ? await agentReadableEnv(opts.sourceEnv, r.agentRoot, r.log) : opts.sourceEnv;
  await furnishHome(r, home);
  // What the agent could write is read as data (util/agent-file.ts): under its directory, owned by it or us.
  const uids = ownerUids(opts.sandbox?.user.uid);
  const agentFile = (maxBytes: number): AgentFilePolicy => ({ root: r.agentRoot, uids, maxBytes });
  const transcriptOf = await sessionFiles(r, home, agentFile);
  return {
    baseSha,
    home,
    agentEnv,
    agentFile,
    transcriptOf,
    taskText: renderContextFile(opts.task, await detectConventions(opts.worktree)),
    progress: new Progress(r.log, opts.onEvent, r.startedAt),
    budget: new TokenBudget(opts.maxTokens ?? 0),
    bundleFile: join(r.agentRoot, `export-${r.runId}.bundle`),
  };
}
