/**
 * One unattended Gemini run on a worktree: prepare → spawned → working → idle → quitting → collected, with the
 * walls (timeout, crash, quota, auth, session-id collision) watched from the start. The engine knows nothing
 * about GitHub. Its promises: it never hangs (every wait is bounded), it never lies about how the run ended,
 * it never loses the agent's work (leftovers are committed), and nothing it starts outlives it.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { access, copyFile, mkdir, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  detectConventions,
  installSkills,
  removeContextFile,
  removeInstalledSkills,
  renderContextFile,
  writeContextFile,
} from '../gemini/context-file.js';
import { createIsolatedHome } from '../gemini/home.js';
import { buildEnv } from '../gemini/spawn.js';
import { summarizeUsage } from '../gemini/telemetry.js';
import { emptyTranscript, foldTranscriptFile } from '../gemini/transcript-fold.js';
import { locateTranscript, restoreTranscript } from '../gemini/transcript-locate.js';
import { filesChanged, listCommits } from '../git/commits.js';
import { exportWork, type ExportResult } from '../git/export.js';
import { Git } from '../git/git.js';
import { importBundle } from '../git/vault.js';
import {
  AGENT_FILE_LIMITS,
  AgentFileRefused,
  copyAgentFile,
  ownerUids,
  ownFile,
  type AgentFilePolicy,
} from '../util/agent-file.js';
import { UserError, getErrorMessage } from '../util/errors.js';
import { pathExists } from '../util/fs.js';
import type { Logger } from '../util/log.js';
import { neutralize } from '../util/untrusted-text.js';
import { guardProcessExit } from '../util/process.js';
import type { SpawnContext, SpawnOutcome } from './attempt.js';
import { runHeadless } from './headless.js';
import { runInteractive } from './interactive.js';
import { Progress } from './progress.js';
import type { FoldedTranscript } from '../domain/types.js';
import { failsStep } from '../domain/status.js';
import type { RunOptions } from './options.js';
import type { RunResult } from './types.js';
import { TokenBudget } from './budget.js';
import { watchModel } from './model-watch.js';
import { withQuotaDetail } from './walls.js';
import { installExtensions } from '../gemini/extensions.js';
import { writeUserSettings } from '../gemini/user-settings.js';

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

const DEFAULT_LEFTOVER_MESSAGE =
  'gemini-run: commit work the agent left uncommitted\n\nThe agent stopped with uncommitted changes; gemini-run committed them so nothing is lost.';

async function headSha(worktree: string): Promise<string> {
  return (await Git.create(worktree).output(['rev-parse', 'HEAD'])).trim();
}

/**
 * The run's own copy of the session file (in the run dir), read from the agent's file as
 * util/agent-file.ts checks it: everything after (the fold, the artifact, the store, a follow-up's restore)
 * reads this copy. A file that is refused (a link, a hard link, not a regular file…) is skipped with a warning
 * and never published. The kept copy (of a file the CLI deleted) is already ours, in the run dir.
 */
async function snapshotTranscript(o: {
  located: string | undefined;
  kept: string | undefined;
  agentFile: (maxBytes: number) => AgentFilePolicy;
  runDir: string;
  log: Logger;
}): Promise<string | undefined> {
  const from = o.located ?? o.kept;
  if (from === undefined) return undefined;
  const policy =
    o.located !== undefined
      ? o.agentFile(AGENT_FILE_LIMITS.transcript)
      : ownFile(o.kept ?? from, AGENT_FILE_LIMITS.transcript);
  // The copy keeps the session file's own name (a follow-up restores it under that name), when it is one.
  const own = basename(from);
  const dest = join(o.runDir, /^session-[\w-]+\.jsonl?$/.test(own) ? own : TRANSCRIPT_COPY);
  try {
    await copyAgentFile(from, dest, policy);
    return dest;
  } catch (e) {
    if (e instanceof AgentFileRefused) o.log.warning(`skipped the transcript ${e.message}`);
    else o.log.warning(`could not read the transcript ${from}: ${getErrorMessage(e)}`);
    return undefined;
  }
}

const TRANSCRIPT_COPY = 'transcript.jsonl';

/** The model API could not be reached before gemini started: no spawn, whose retries would only hide it. */
function modelDownAtStart(message: string, log: Logger): SpawnOutcome {
  // The step says it as its one error line; here, only that gemini was never started.
  log.info(`model-unavailable: ${message}; gemini was not started`);
  return {
    status: 'model-unavailable',
    message,
    sessionId: '',
    exitCode: null,
    geminiLifetimeMs: 0,
    events: [],
  };
}

/** Runs the agent once and reports how it ended. Throws only for setup errors (bad worktree, no tmux). */
export async function runAgent(opts: RunOptions): Promise<RunResult> {
  const startedAt = Date.now();
  const log = opts.log;
  const runId = `${startedAt.toString(36)}-${randomBytes(3).toString('hex')}`;
  await mkdir(opts.runDir, { recursive: true, mode: 0o700 });
  const agentRoot = opts.sandbox?.dir ?? opts.runDir;
  const tmpDir = join(agentRoot, 'tmp');
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });

  // prepare
  if (opts.geminiPath.includes('/')) {
    await access(opts.geminiPath, fsConstants.X_OK).catch(() => {
      throw new UserError(`gemini not found or not executable: ${opts.geminiPath}`);
    });
  }
  const baseSha = await headSha(opts.worktree);
  const home = await createIsolatedHome(join(agentRoot, 'home'), opts.auth, {
    // Behind the proxy the CLI runs on a placeholder token: no creds file for the agent to read.
    withoutCreds: opts.modelEndpoint?.kind === 'code-assist',
  });
  const sourceEnv = opts.sandbox ? await agentReadableEnv(opts.sourceEnv, agentRoot, log) : opts.sourceEnv;
  if (opts.userSettings) await writeUserSettings(home.settingsPath, opts.userSettings);
  if (opts.extensions?.length) {
    await installExtensions({
      geminiPath: opts.geminiPath,
      home,
      sources: opts.extensions,
      worktree: opts.worktree,
      sourceEnv: opts.sourceEnv,
      log,
    });
  }
  // What the agent could write is read as data (util/agent-file.ts): under its directory, owned by it or us.
  const uids = ownerUids(opts.sandbox?.user.uid);
  const agentFile = (maxBytes: number): AgentFilePolicy => ({ root: agentRoot, uids, maxBytes });
  let restored: string | undefined;
  if (opts.resume) {
    // The saved file is ours (the store's): restoreTranscript reads it where it lies, without following links.
    restored = await restoreTranscript(home.root, opts.worktree, opts.resume.transcriptFile);
    log.info(`resuming session ${neutralize(opts.resume.sessionId)} (${restored})`);
  }
  // A resumed CLI appends to the restored file, but also starts a header-only file of its own named for the
  // current minute with the same session id (probe resume-across-homes): the file to read is the one we placed.
  const transcriptOf = async (sessionId: string): Promise<string | undefined> => {
    if (restored !== undefined && sessionId === opts.resume?.sessionId) {
      return (await pathExists(restored)) ? restored : undefined;
    }
    return locateTranscript(home.root, opts.worktree, sessionId, agentFile(AGENT_FILE_LIMITS.transcript));
  };
  const taskText = renderContextFile(opts.task, await detectConventions(opts.worktree));
  const progress = new Progress(log, opts.onEvent, startedAt);
  const budget = new TokenBudget(opts.maxTokens ?? 0);
  let skills: string[] = [];
  let outcome: SpawnOutcome;
  let exported: ExportResult = { bundled: false, leftoverCommitted: false };
  const bundleFile = join(agentRoot, `export-${runId}.bundle`);
  const sandbox = opts.sandbox;
  // A cancelled job must not leave the agent's processes behind, whatever they did to leave our process tree.
  const releaseGuard = sandbox ? guardProcessExit(() => sandbox.reapSync()) : undefined;
  try {
    await writeContextFile(opts.worktree, opts.task);
    if (opts.skillsDir) skills = await installSkills(opts.skillsDir, opts.worktree);
    await sandbox?.admit();
    const ctx: SpawnContext = {
      opts,
      home,
      runId,
      progress,
      taskText,
      agentRoot,
      overBudget: () => budget.exceeded(progress.tokens, opts.modelUsage?.()),
      modelDown: watchModel(opts, progress),
      transcriptOf,
      agentFile,
      envFor: (telemetryFile) =>
        buildEnv({
          home,
          auth: opts.auth,
          telemetryFile,
          tmpDir,
          sourceEnv,
          ...(opts.gitIdentity ? { gitIdentity: opts.gitIdentity } : {}),
          ...(opts.modelEndpoint ? { modelEndpoint: opts.modelEndpoint } : {}),
          ...(opts.egressProxy ? { egressProxy: opts.egressProxy } : {}),
          ...(sandbox
            ? { agentUser: { name: sandbox.user.name, home: home.root, worktree: opts.worktree } }
            : {}),
        }),
    };
    progress.startHeartbeat(opts.heartbeatMs ?? 30_000);
    const downAtStart = ctx.modelDown();
    outcome =
      downAtStart !== undefined
        ? modelDownAtStart(downAtStart, log)
        : opts.mode === 'headless'
          ? await runHeadless(ctx)
          : await runInteractive(ctx);
  } finally {
    // The context file and copied skills leave the worktree before anything is committed.
    await removeContextFile(opts.worktree).catch((e: unknown) =>
      log.warning(`removing the context file: ${getErrorMessage(e)}`),
    );
    await removeInstalledSkills(opts.worktree, skills).catch(() => undefined);
    // What the agent left uncommitted is committed, and its commits bundled, by the agent's own user: nothing of
    // ours runs git in a repository the agent could write (src/git/export.ts).
    exported = await exportWork({
      worktree: opts.worktree,
      runAs: sandbox?.runAs ?? [],
      home: sandbox ? home.root : (opts.sourceEnv.HOME ?? home.root),
      path: opts.sourceEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      base: baseSha,
      bundle: bundleFile,
      ...(opts.gitIdentity ? { identity: opts.gitIdentity } : {}),
      message: opts.leftoverMessage ?? DEFAULT_LEFTOVER_MESSAGE,
    });
    // Every process of the agent user ends, and its files become ours, before we read anything it wrote.
    if (sandbox) {
      await sandbox.settle();
      // The telemetry stays with the run dir (post-mortems, the artifact); the sandbox's directory goes.
      for (const name of await readdir(agentRoot).catch(() => [] as string[])) {
        if (/^telemetry(-\d+)?\.json$/.test(name)) {
          await copyAgentFile(
            join(agentRoot, name),
            join(opts.runDir, name),
            agentFile(AGENT_FILE_LIMITS.telemetry),
          ).catch((e: unknown) => {
            if (e instanceof AgentFileRefused) log.warning(`skipped ${e.message}`);
          });
        }
      }
    }
    releaseGuard?.();
    progress.stopHeartbeat();
  }
  outcome = withQuotaDetail(
    budget.settle(outcome, progress.tokens, opts.modelUsage?.()),
    opts.modelHealth?.().quotaWait,
  );
  // The message can quote the CLI's screen or stderr: someone else's text, kept on this line.
  log.info(`gemini ended: ${outcome.status}${outcome.message ? ` (${neutralize(outcome.message)})` : ''}`);

  // collected
  const transcriptPath = await snapshotTranscript({
    located: await transcriptOf(outcome.sessionId).catch(() => undefined),
    kept: outcome.keptTranscript,
    agentFile,
    runDir: opts.runDir,
    log,
  });
  let transcript: FoldedTranscript = emptyTranscript();
  if (transcriptPath) {
    try {
      transcript = await foldTranscriptFile(transcriptPath);
      if (transcript.skippedRecords) {
        log.warning(`skipped ${transcript.skippedRecords} transcript record(s) too large to read safely`);
      }
    } catch (e) {
      log.warning(`could not read the transcript ${transcriptPath}: ${getErrorMessage(e)}`);
    }
  }
  if (!transcript.finalAnswer && outcome.answer) transcript = { ...transcript, finalAnswer: outcome.answer };
  if (transcript.toolCalls.length === 0 && outcome.toolCalls?.length) {
    transcript = { ...transcript, toolCalls: outcome.toolCalls };
  }
  let usage = summarizeUsage(outcome.events);
  if (usage.models.length === 0 && outcome.usage) usage = outcome.usage;

  if (exported.problem) log.warning(`committing and exporting the agent's work: ${exported.problem}`);
  if (exported.leftoverCommitted) log.info('committed the changes the agent left uncommitted');
  // Work that is in no commit is work the run did not keep: never an end that says it finished.
  const uncommitted = exported.commitFailed
    ? `the agent's uncommitted changes could not be committed (${neutralize(exported.commitFailed)})`
    : undefined;
  if (uncommitted) log.error(uncommitted);
  const leftoverCommitted = exported.leftoverCommitted;
  let head = baseSha;
  let repo = opts.worktree;
  if (opts.vault) {
    // The commits cross to the action's side as data: the bundle file, read without following links, fetched
    // into the action's own repository with every object checked.
    repo = opts.vault.dir;
    if (exported.bundled) {
      try {
        const bundle = join(opts.runDir, 'agent.bundle');
        await copyAgentFile(bundleFile, bundle, agentFile(AGENT_FILE_LIMITS.bundle));
        head = await importBundle(opts.vault, bundle);
      } catch (e) {
        log.error(`could not take the agent's commits: ${getErrorMessage(e)}`);
      }
    } else if (exported.head && exported.head !== baseSha) {
      log.error("the agent's commits could not be exported: they stay in the workspace only");
    }
  } else {
    // No boundary (the toolkit on the operator's own repository): the agent ran as us, in our repository.
    head = await headSha(opts.worktree);
  }
  const commits = head === baseSha ? [] : await listCommits(repo, baseSha, head);
  const files = head === baseSha ? [] : await filesChanged(repo, baseSha, head);

  // A run that failed on its own keeps its status (the commit's failure is in the log); one that did not, fails.
  const lost = uncommitted !== undefined && !failsStep(outcome.status);
  return {
    status: lost ? 'crashed' : outcome.status,
    ...(lost
      ? { message: uncommitted, failedPart: 'workspace' as const }
      : outcome.message !== undefined
        ? { message: outcome.message }
        : {}),
    mode: opts.mode,
    sessionId: outcome.sessionId,
    ...(opts.model !== undefined ? { model: opts.model } : {}),
    ...(transcriptPath !== undefined ? { transcriptPath } : {}),
    transcript,
    usage,
    exitCode: outcome.exitCode,
    startedAt: new Date(startedAt).toISOString(),
    durationMs: Date.now() - startedAt,
    geminiLifetimeMs: outcome.geminiLifetimeMs,
    ...(outcome.lastScreen !== undefined ? { lastScreen: outcome.lastScreen } : {}),
    baseSha,
    headSha: head,
    commits: commits.map((c) => ({ sha: c.sha, subject: c.subject })),
    filesChanged: files,
    leftoverCommitted,
    ...(budget.max > 0 ? { maxTokens: budget.max } : {}),
  };
}
