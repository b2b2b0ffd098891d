import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { scrubAttribution } from '../gemini/attribution.js';
import { installGemini, geminiVersion } from '../gemini/install.js';
import { profileFor, type CliProfile } from '../gemini/cli-profile.js';
import { resolveModel } from '../gemini/models.js';
import { buildUserSettings } from '../gemini/user-settings.js';
import { isolateCheckoutCredentials, type SavedCredentials } from '../git/credentials.js';
import { listRemoteRefs } from '../git/push.js';
import { restoreWorkspace } from './workspace-restore.js';
import { createGitHubClient } from '../github/client.js';
import {
  commentMarker,
  createComment,
  reactToComment,
  tokenIdentity,
  upsertMarkedComment,
} from '../github/comments.js';
import { interpretEvent } from '../github/trigger.js';
import { buildTask } from '../github/task.js';
import { describeTally } from '../github/sanitize.js';
import { publishedText } from '../github/published-text.js';
import { hasWriteAccess } from '../github/permissions.js';
import { runAgent } from '../run/engine.js';
import { renderSummary } from '../run/report.js';
import { type AuthConfig, type RunEvent, type Task } from '../domain/types.js';
import { type ActionStatus, type RunResult } from '../run/types.js';
import { TrackingComment } from './tracking-comment.js';
import { UserError, getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { neutralize } from '../util/untrusted-text.js';
import { resolveAuth } from './auth.js';
import type { ActionContext } from './context.js';
import type { RepoRef } from '../github/client.js';
import type { ActionInputs } from './inputs.js';
import type { ActionOutputs } from './outputs.js';
import { adviceFor, prBody, prTitle } from './pr-text.js';
import { publishWork, settleCommits } from './publish.js';
import { emptyOutputs, reportRun } from './report-run.js';
import { crashedResult } from './crashed-result.js';
import { Redactor } from './redact.js';
import { planBranch, prepareWorktree } from './branch.js';
import { findPreviousSession } from './resume.js';
import type { TranscriptStore } from './transcript-store.js';
import { tmuxVersion } from '../tmux/tmux.js';
import { detectPrivilege, NO_ISOLATION_MESSAGE } from '../isolation/privilege.js';
import { openSandbox, type AgentSandbox } from '../isolation/sandbox.js';
import type { OAuthTokenSource } from '../proxy/oauth-token.js';
import {
  prepareOAuth,
  prepareVertex,
  startModelAccess,
  writeBackHostLogin,
  type ModelAccess,
} from './model-access.js';
import { realpathSync } from 'node:fs';

/** Everything the pipeline needs from its host: the action (core) or the demo (plain streams). */
export interface ActionIo {
  log: Logger;
  /** Mask a secret in the log as soon as it is known. */
  mask(secret: string): void;
  saveState(
    key: 'runDir' | 'worktree' | 'savedCredentials' | 'sandbox' | 'tracking' | 'workspace',
    value: string,
  ): void;
  writeJobSummary(markdown: string): Promise<void>;
  /** Where transcripts are kept between runs (a workflow artifact, or a local directory on self-hosted runners). */
  transcriptStore(o: { token: string; repo: RepoRef }): TranscriptStore;
  /** The process environment the action runs in (source of the allow-listed variables). */
  env: NodeJS.ProcessEnv;
}

export interface ActionResult {
  outputs: ActionOutputs;
  /** Set when the step must fail: the one-line reason. */
  failure?: string;
}

const AGENT_IDENTITY = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

const ISSUE_MARKER = commentMarker('issue');

/** `GEMINI_RUN_TRACKING_INTERVAL_MS` shortens the edit interval for tests and demos; unset: the 10 s default. */
function trackingInterval(env: NodeJS.ProcessEnv): { intervalMs?: number } {
  const ms = Number(env.GEMINI_RUN_TRACKING_INTERVAL_MS);
  return env.GEMINI_RUN_TRACKING_INTERVAL_MS && Number.isFinite(ms) && ms >= 0 ? { intervalMs: ms } : {};
}

async function assertTmux(): Promise<void> {
  if (!(await tmuxVersion())) {
    throw new UserError(
      "tmux is not installed: add a step 'sudo apt-get install -y tmux' before gemini-run, or set 'mode: headless'.",
    );
  }
}

async function resolveGemini(
  inputs: ActionInputs,
  ctx: ActionContext,
  env: NodeJS.ProcessEnv,
  log: Logger,
): Promise<{ path: string; profile: CliProfile }> {
  const allowUnchecked = inputs.allowUncheckedGeminiVersion;
  // A self-hosted runner prepared by `gemini-run setup` names its gemini in the runner's .env, which the
  // workflow's expressions cannot see.
  const path = inputs.geminiPath || env.GEMINI_RUN_GEMINI_PATH || '';
  if (path) {
    const version = await geminiVersion(path);
    if (!version)
      throw new UserError(`The gemini at ${path} does not run ('--version' failed): check 'gemini-path'.`);
    const profile = profileFor(version, { allowUnchecked });
    logProfile(profile, path, log);
    return { path, profile };
  }
  // Refused before npm runs: an unchecked version is not worth a download. installGemini has already checked
  // that the binary reports exactly this version, so it is not asked again (each `--version` costs ~1 s).
  const profile = profileFor(inputs.geminiVersion, { allowUnchecked });
  const installed = await installGemini({ version: inputs.geminiVersion, cacheRoot: ctx.toolCache, log });
  logProfile(profile, installed, log);
  return { path: installed, profile };
}

function logProfile(profile: CliProfile, path: string, log: Logger): void {
  if (profile.unchecked) {
    log.warning(
      `gemini at ${path} is ${profile.version}, which gemini-run's probes have not checked: running it with the ${profile.checked} profile because allow-unchecked-gemini-version is set.`,
    );
  }
  log.info(`Using gemini ${profile.version} at ${path}`);
}

/** The run's live tracking comment, once posted, and how to keep secrets out of its last words. */
interface Tracking {
  comment?: TrackingComment;
  redact?(text: string): string;
}

/**
 * One action run, from the event to the pull request. Pure of @actions/core: the host passes its I/O in, so the
 * demo runs the very same pipeline against its local fakes.
 */
export async function runAction(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
): Promise<ActionResult> {
  const tracking: Tracking = {};
  let result: ActionResult;
  try {
    result = await runPipeline(inputs, ctx, io, tracking);
  } catch (error) {
    const note = oneLine(getErrorMessage(error));
    await tracking.comment?.finish({ status: 'crashed', note: tracking.redact?.(note) ?? note });
    throw error;
  }
  const { outputs, failure } = result;
  await tracking.comment?.finish(
    {
      status: outputs.status,
      ...(outputs['pr-url'] ? { prUrl: outputs['pr-url'] } : {}),
      ...(failure ? { note: tracking.redact?.(failure) ?? failure } : {}),
    },
    outputs['total-tokens'] ? { tokens: Number(outputs['total-tokens']) } : undefined,
  );
  return result;
}

async function runPipeline(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  tracking: Tracking,
): Promise<ActionResult> {
  const { log } = io;
  const redactor = new Redactor();
  const mask = (s: string) => {
    io.mask(s);
    redactor.add(s);
  };
  tracking.redact = (text) => redactor.redact(text);
  if (inputs.githubToken) redactor.add(inputs.githubToken);
  if (inputs.geminiApiKey) redactor.add(inputs.geminiApiKey);

  const trigger = interpretEvent(ctx.eventName, ctx.payload, {
    triggerLabel: inputs.triggerLabel,
    triggerPhrase: inputs.triggerPhrase,
    prompt: inputs.prompt || undefined,
    triggerAssignee: inputs.triggerAssignee,
  });
  if (trigger.kind === 'skip') {
    log.info(`Nothing to do: ${neutralize(trigger.reason)}`);
    return { outputs: emptyOutputs('skipped') };
  }

  const token = inputs.githubToken || io.env.GITHUB_TOKEN || '';
  if (!token)
    throw new UserError("No GitHub token: set 'github-token' (the default is ${{ github.token }}).");
  mask(token);
  const client = createGitHubClient(token, ctx.apiUrl, { logger: log });
  const { repo } = ctx;
  const scrubbed = (text: string) => redactor.redact(inputs.scrubAttribution ? scrubAttribution(text) : text);
  /**
   * The boundary where text the agent had a hand in (its answer, commit subjects, file names) becomes text on
   * GitHub: no hidden markup, no foreign closing keyword, no mention, no outside image (publishedText).
   */
  const publish = (text: string) =>
    publishedText(scrubbed(text), {
      serverUrl: ctx.serverUrl,
      owner: repo.owner,
      repo: repo.repo,
      ...(trigger.number !== undefined ? { ownIssue: trigger.number } : {}),
    });
  tracking.redact = publish;

  const allowed = await log.group('Checking permissions', async () => {
    const ok = await hasWriteAccess(client, repo, trigger.actor);
    log.info(
      `${neutralize(trigger.actor)} ${ok ? 'has' : 'does not have'} write access to ${repo.owner}/${repo.repo}`,
    );
    return ok;
  });
  if (!allowed) {
    if (trigger.number !== undefined) {
      await createComment(
        client,
        repo,
        trigger.number,
        `${commentMarker('refused')}\n@${trigger.actor}, gemini-run only runs for people with write access to this repository, so this request was not run.`,
      );
    }
    return { outputs: emptyOutputs('refused') };
  }

  // 👀 on the triggering comment: the person sees at once that the run was picked up.
  if (trigger.commentId !== undefined) {
    await reactToComment(client, repo, trigger.commentId, 'eyes').catch((e: unknown) =>
      log.debug(`Could not react to the comment: ${getErrorMessage(e)}`),
    );
  }

  /**
   * The token's own login: only comments it wrote are ours to update or to resume from. Asked once, when
   * first needed; unknown (a warning) means no marked comment is trusted.
   */
  let identity: Promise<string | undefined> | undefined;
  const self = () =>
    (identity ??= tokenIdentity(client).catch((e: unknown) => {
      log.warning(
        `Could not tell which account the token is (${getErrorMessage(e)}): earlier comments are not reused.`,
      );
      return undefined;
    }));
  const runUrl = `${ctx.serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${ctx.runId}`;
  if (inputs.trackProgress && trigger.number !== undefined) {
    tracking.comment = await TrackingComment.start({
      client,
      repo,
      number: trigger.number,
      author: await self(),
      mode: inputs.mode,
      runUrl,
      log,
      ...trackingInterval(io.env),
      saveState: (value) => io.saveState('tracking', value),
    });
  }

  /** Tells the issue (or PR) how the run went when there is no pull request to say it; best effort. */
  const reportProblem = async (text: string) => {
    if (trigger.number === undefined) return;
    await upsertMarkedComment(client, repo, trigger.number, ISSUE_MARKER, publish(text), await self()).catch(
      (e: unknown) => log.warning(`Could not comment on #${trigger.number}: ${getErrorMessage(e)}`),
    );
  };

  let auth: AuthConfig;
  let oauth: OAuthTokenSource | undefined;
  let vertex: Awaited<ReturnType<typeof prepareVertex>>;
  try {
    auth = await resolveAuth(
      {
        oauthCreds: inputs.geminiOauthCreds,
        googleAccount: inputs.geminiGoogleAccount,
        apiKey: inputs.geminiApiKey,
        useVertexAi: inputs.useVertexAi,
        googleCloudProject: inputs.googleCloudProject,
        googleCloudLocation: inputs.googleCloudLocation,
      },
      io.env,
      mask,
    );
    oauth = await prepareOAuth(auth, io.env);
    vertex = await prepareVertex(auth, io.env);
  } catch (error) {
    const message = oneLine(getErrorMessage(error));
    await reportProblem(`gemini-run could not start: ${message}\n\n${adviceFor('auth-failed')}`);
    return { outputs: emptyOutputs('auth-failed'), failure: message };
  }

  const model = resolveModel(inputs.model || undefined);
  if (inputs.mode === 'interactive') await assertTmux();
  // Refuse before anything is installed or touched: a run that cannot isolate its agent must not start.
  const privilege = inputs.isolation === 'user' ? await detectPrivilege() : undefined;
  if (privilege === 'none') throw new UserError(NO_ISOLATION_MESSAGE);
  if (inputs.isolation === 'none') {
    log.warning(
      "isolation: none — the agent runs as the runner user: it can read the GitHub token and every other secret of this job's processes.",
    );
  }
  const { path: geminiPath, profile: cliProfile } = await log.group('Installing gemini', () =>
    resolveGemini(inputs, ctx, io.env, log),
  );
  const userSettings = buildUserSettings({
    settings: inputs.settings,
    allowedTools: inputs.allowedTools,
    excludeTools: inputs.excludeTools,
  });
  if (userSettings.overridden.length > 0) {
    log.warning(
      `'settings' sets keys gemini-run owns, which keep gemini-run's values: ${userSettings.overridden.join(', ')}`,
    );
  }

  const task: Task = await log.group('Reading the task', async () => {
    const { task: t, leftOut, hidden, minimizedUnchecked } = await buildTask(client, repo, trigger);
    log.info(`Task: ${neutralize(t.title)} (${t.comments.length} comment(s))`);
    const removed = describeTally(hidden);
    if (removed) log.info(removed);
    if (minimizedUnchecked !== undefined) {
      log.warning(
        `Could not check which comments a maintainer hid (minimized), so all are in the task: ${minimizedUnchecked}`,
      );
    }
    if (inputs.instructions.trim()) t.standingInstructions = inputs.instructions;
    if (leftOut > 0) {
      log.info(
        `Left out ${leftOut} comment(s) created or edited after the run was triggered (${trigger.approved?.at ?? 'unknown time'}): the task is what was approved.`,
      );
    }
    return t;
  });

  const plan = await planBranch(client, repo, trigger, inputs, ctx.runId);
  if ('refuse' in plan) {
    await reportProblem(plan.refuse);
    return { outputs: emptyOutputs('refused'), failure: undefined };
  }

  // ---- prepare -------------------------------------------------------------------------------------------
  const worktree = ctx.workspace;
  const runDir = await mkdtemp(join(ctx.runnerTemp, 'gemini-run-'));
  io.saveState('runDir', runDir);
  io.saveState('worktree', worktree);
  const { originUrl, baseSha, remoteSha, knownTips, snapshot, vault } = await prepareWorktree({
    worktree,
    plan,
    token,
    log,
    runDir,
  });
  // From here on the post step rebuilds the workspace's .git if this step cannot.
  io.saveState('workspace', JSON.stringify({ snapshot, vault: vault.dir }));

  const store = io.transcriptStore({ token, repo });
  const { previousSummary, resume, previousRun } = plan.existingPull
    ? await findPreviousSession({
        client,
        repo,
        pull: plan.existingPull,
        store,
        destDir: join(runDir, 'resume'),
        log,
        self: await self(),
      })
    : { previousSummary: '', resume: undefined };

  // ---- run -----------------------------------------------------------------------------------------------
  let saved: SavedCredentials | undefined;
  let result: RunResult;
  const startedAt = new Date();
  let sandbox: AgentSandbox | undefined;
  let access: ModelAccess | undefined;
  try {
    saved = await isolateCheckoutCredentials(worktree, { stashDir: join(runDir, 'credentials') });
    io.saveState('savedCredentials', JSON.stringify(saved));
    if (privilege) {
      sandbox = await log.group('Isolating the agent', () =>
        openSandbox({
          parentDir: ctx.runnerTemp,
          worktree,
          reach: [process.execPath, realpathSync(geminiPath)],
          log,
          privilege,
        }),
      );
      io.saveState(
        'sandbox',
        JSON.stringify({ user: sandbox.user, privilege: sandbox.privilege, dir: sandbox.dir, worktree }),
      );
    }
    // The credential stays with us: gemini talks to a loopback proxy with a placeholder worth nothing elsewhere.
    access = await startModelAccess({
      auth,
      ...(oauth ? { oauth } : {}),
      ...(vertex ? { vertex } : {}),
      ...(sandbox ? { agentUid: sandbox.user.uid } : {}),
      env: io.env,
      log,
      mask,
    });
    const endpoint = access.endpoint;
    result = await log.group(`Running gemini (${inputs.mode})`, () =>
      runAgent({
        worktree,
        task: previousRun ? { ...task, previousRun } : task,
        auth,
        geminiPath,
        cliProfile,
        model,
        approvalMode: inputs.approvalMode,
        mode: inputs.mode,
        timeoutMs: inputs.timeoutMinutes * 60_000,
        runDir,
        sourceEnv: io.env,
        gitIdentity: AGENT_IDENTITY,
        log,
        ...(resume ? { resume } : {}),
        ...(sandbox ? { sandbox } : {}),
        vault,
        ...(endpoint ? { modelEndpoint: endpoint } : {}),
        userSettings: userSettings.settings,
        extensions: inputs.extensions,
        maxTokens: inputs.maxTokens,
        fenceModel: () => access?.fence(),
        ...(tracking.comment
          ? {
              // A tool's target is the agent's text: no secret of ours goes into the comment (isolation: none).
              onEvent: (e: RunEvent) =>
                tracking.comment?.onEvent(
                  e.type === 'tool-started' && e.detail ? { ...e, detail: redactor.redact(e.detail) } : e,
                ),
            }
          : {}),
      }),
    );
  } catch (error) {
    // A setup problem stops here with its one line; anything else ends `crashed`, and the publish and report
    // phases still run: what the agent committed is pushed and the issue is told.
    if (error instanceof UserError) throw error;
    const message = redactor.redact(oneLine(getErrorMessage(error)));
    log.error(`The run failed: ${neutralize(message)}`);
    result = await crashedResult({ repo: vault.dir, baseSha, mode: inputs.mode, message, startedAt });
  } finally {
    await access?.stop();
  }
  const refused = access?.refusals();
  if (refused && refused.count > 0) {
    // The shown paths are already cut short and reduced to plain characters by the proxy (model-routes.ts).
    const first = refused.first.map((c) => `${c.method} ${c.path}`);
    log.warning(
      `The model proxy refused ${refused.count} non-model call(s) of the agent: ${first.join(', ')}`,
    );
    result = { ...result, refusedCalls: { count: refused.count, first } };
  }
  if (await writeBackHostLogin(auth, access, join(sandbox?.dir ?? runDir, 'home'))) {
    log.info('Wrote the refreshed OAuth creds back to the runner host.');
  }

  // ---- publish -------------------------------------------------------------------------------------------
  const outDir = join(ctx.runnerTemp, `gemini-run-output-${ctx.runId}-${ctx.runAttempt}`);
  await mkdir(outDir, { recursive: true });
  const artifactName = `gemini-run-${ctx.runId}-${ctx.runAttempt}`;

  // What already existed outside the run: never rewritten, never counted, never bundled. The remote's tips are
  // asked now, so a commit someone pushed (and the agent fetched) during the run counts too.
  const remoteTips = await listRemoteRefs({ url: originUrl, token }).catch((e: unknown) => {
    log.warning(`Could not list the remote's refs: ${getErrorMessage(e)}`);
    return new Map<string, string>();
  });
  const known = [...new Set([...knownTips, ...remoteTips.values()])];
  if (result.commits.length > 0) {
    const { head, commits, filesChanged } = await settleCommits({
      repo: vault.dir,
      baseSha,
      known,
      scrub: inputs.scrubAttribution ? scrubAttribution : undefined,
      log,
    });
    result = { ...result, headSha: head, commits, filesChanged };
  }
  const summaryBody = renderSummary(result, { task });
  const status: ActionStatus =
    result.status === 'finished' && result.commits.length === 0 ? 'no-changes' : result.status;

  const finalResult = result;
  const published =
    result.commits.length === 0
      ? undefined
      : await publishWork({
          client,
          repo,
          serverUrl: ctx.serverUrl,
          repoDir: vault.dir,
          originUrl,
          token,
          plan,
          startTip: remoteSha,
          known: [baseSha, ...known],
          divertBranch: `${plan.branch}-run-${ctx.runId}${ctx.runAttempt === '1' ? '' : `-${ctx.runAttempt}`}`,
          outDir,
          artifactName,
          pullSpec: () => ({
            // A title is plain text (no markup to neutralise), and the task's, not the agent's.
            title: scrubbed(prTitle(task)),
            body: publish(
              prBody({
                task,
                result: finalResult,
                summary: summaryBody,
                closes: trigger.isPullRequest ? undefined : trigger.number,
                runUrl,
              }),
            ),
            draft: inputs.draft || finalResult.status !== 'finished',
          }),
          log,
        });

  // ---- report --------------------------------------------------------------------------------------------
  try {
    return await reportRun({
      client,
      repo,
      log,
      redactor,
      publish,
      self,
      tellIssue: reportProblem,
      writeJobSummary: (markdown) => io.writeJobSummary(markdown),
      store,
      result,
      status,
      published,
      summaryBody,
      previousSummary,
      onPullRequest: trigger.isPullRequest,
      branch: plan.branch,
      outDir,
      artifactName,
      runId: ctx.runId,
      runUrl,
      uploadTranscript: inputs.uploadTranscript,
      triggerPhrase: inputs.triggerPhrase,
    });
  } finally {
    // The agent's directory held the transcript until now (the report copied it for the artifact).
    if (sandbox) {
      await sandbox.close();
      io.saveState('sandbox', '');
    }
    // Last, when nothing of the agent runs and nothing it wrote is read any more: the workspace gets the action's
    // .git back (the agent's is thrown away whole), and only then the checkout's credential.
    await restoreWorkspace({ snapshot, vault: vault.dir, saved, log });
    io.saveState('workspace', '');
    io.saveState('savedCredentials', '');
  }
}
