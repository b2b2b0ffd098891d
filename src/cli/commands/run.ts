import { rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { guardProcessExit } from '../../util/process.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { execute } from '../../host/execute.js';
import {
  continueOnBranch,
  createRunBranch,
  openLocalRepo,
  publishToBranch,
  TOOLKIT_IDENTITY,
  type LocalRepo,
} from '../../host/local-branch.js';
import { prepareOAuth, prepareVertex } from '../../host/model-access.js';
import { authFromToolkitEnv, resolveAuth } from '../../host/auth.js';
import { resolveModel } from '../../gemini/models.js';
import { buildUserSettings, parseSettingsInput, parseToolList } from '../../gemini/user-settings.js';
import { renderSummary } from '../../run/report.js';
import { cleanupRun } from '../../run/cleanup.js';
import { type Task } from '../../domain/types.js';
import { failsStep } from '../../domain/status.js';
import { getErrorMessage, UserError } from '../../util/errors.js';
import { withStack } from '../../util/async-stack.js';
import { createStreamLogger, type Logger } from '../../util/log.js';
import type { RunResult } from '../../run/types.js';
import { guardLines } from '../../util/untrusted-text.js';
import { findPinnedGemini } from '../../gemini/install.js';
import { checkedVersionsInWords, profileOfBinary } from '../../gemini/cli-profile.js';
import {
  flagValue,
  parseCommandArgs,
  wantsStatusLine,
  write,
  UsageError,
  type CliIO,
  type Command,
} from '../args.js';
import {
  maxTokensSchema,
  personSchema,
  runModeSchema,
  timeoutMinutesSchema,
} from '../../domain/value-schemas.js';
import { findSession, keepSession, sessionsDir, type KeptRun } from '../sessions.js';

const USAGE = `usage: gemini-run run (--prompt <text> | --prompt-file <file>) [--resume <session>] [options]

Runs gemini unattended on a local repository, the same engine as the action, outside GitHub: the task goes
into GEMINI.local.md (never argv), gemini works in its own tmux session (or headless), and its commits are
left on a new branch with attribution lines scrubbed. Prints the run summary. The agent runs as you, with your
files and network: the action's isolation and network policy need an agent user of their own.

Commits are made as ${TOOLKIT_IDENTITY.name} <${TOOLKIT_IDENTITY.email}> (--author names another), whatever git
identity the host has; work the agent left uncommitted is committed for it, and a commit that fails fails the run.
Each session is kept in $XDG_STATE_HOME/gemini-run/sessions (else ~/.local/state/...): --resume <session> continues
it, on the branch it left its commits on (unless --branch names a new one).

Options:
  --repo <dir>            the repository to work in (default: the current directory)
  --prompt <text>         the task
  --prompt-file <file>    read the task from a file ('-' for stdin)
  --branch <name>         branch to create for the run (default: gemini-run/local-<time>)
  --resume <session>      continue a session an earlier 'gemini-run run' printed, with this task
  --author <who>          'Name <email>' the run's commits are made as (default: ${TOOLKIT_IDENTITY.name})
  --mode <m>              interactive (default) or headless
  --model <id>            a model from the catalog (default: Auto)
  --timeout-minutes <n>   bound on the agent's work (default: 30)
  --gemini <path>         the gemini to run (default: $GEMINI_RUN_GEMINI_PATH, then the pinned copy)
  --allow-unchecked-gemini-version
                          run a gemini other than ${checkedVersionsInWords()} (the probe-checked ones) instead of refusing
  --skills <dir>          agent skills to offer (copied into .gemini/skills for the run, then removed)
  --no-scrub              keep attribution lines in commit messages
  --settings <json>       a JSON object merged into the run's Gemini settings (gemini-run's own keys win)
  --instructions <text>   standing instructions added to the context file after the task
  --allowed-tools <list>  comma-separated built-in tools, the only ones the CLI registers (tools.core)
  --exclude-tools <list>  comma-separated tools the CLI never offers the model (tools.exclude)
  --extensions <list>     comma-separated Gemini CLI extensions (local paths or git URLs) for the run
  --max-tokens <n>        token budget (0 = none): past it the agent is stopped, status budget-exceeded
  -h, --help              show this help

Auth (exactly one): GEMINI_API_KEY in the environment; or GOOGLE_GENAI_USE_VERTEXAI=true with
GOOGLE_CLOUD_PROJECT; or, when neither is set, the login of this host ('gemini-run login', read from
$GEMINI_RUN_HOST_HOME or $HOME). Setting both GEMINI_API_KEY and GOOGLE_GENAI_USE_VERTEXAI=true is refused, as
the action refuses two auth inputs.

Examples:
  gemini-run run --prompt "Fix the failing test in src/parse.test.ts"
  gemini-run run --repo ~/src/app --prompt-file task.md --mode headless --timeout-minutes 10
  gemini-run run --resume 3388fe0f-2364-48c3-976f-b400a122e1ca --prompt "Also cover the empty input"
`;

async function readPrompt(values: { prompt?: string; 'prompt-file'?: string }, io: CliIO): Promise<string> {
  if (values.prompt && values['prompt-file'])
    throw new UsageError('give --prompt or --prompt-file, not both', 'run');
  if (values.prompt) return values.prompt;
  const file = values['prompt-file'];
  if (!file) throw new UsageError('a task is needed: --prompt <text> or --prompt-file <file>', 'run');
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of io.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
    return Buffer.concat(chunks).toString('utf8');
  }
  return readFile(resolve(io.cwd, file), 'utf8').catch(() => {
    throw new UserError(`Cannot read the prompt file ${file}.`);
  });
}

/** The flags that shape the run the way the action's inputs do (settings, tools, extensions, budget). */
function runShape(values: {
  settings?: string;
  'allowed-tools'?: string;
  'exclude-tools'?: string;
  extensions?: string;
  'max-tokens'?: string;
}): { userSettings: Record<string, unknown>; extensions: string[]; maxTokens: number } {
  const maxTokens = flagValue(maxTokensSchema('--max-tokens'), values['max-tokens'] ?? '0', 'run');
  const { settings } = buildUserSettings({
    settings: parseSettingsInput(values.settings ?? ''),
    allowedTools: parseToolList(values['allowed-tools'] ?? '', /,/, 'allowed-tools'),
    excludeTools: parseToolList(values['exclude-tools'] ?? '', /,/, 'exclude-tools'),
  });
  return {
    userSettings: settings,
    extensions: parseToolList(values.extensions ?? '', /,/, 'extensions'),
    maxTokens,
  };
}

/**
 * The branch the run commits on: a new one (--branch, else a dated name), or, continuing a kept session without
 * --branch, the branch that session left its commits on.
 */
async function branchFor(
  repo: LocalRepo,
  named: string | undefined,
  ran: KeptRun | undefined,
): Promise<string> {
  if (!named && ran && ran.repo === repo.top) {
    await continueOnBranch(repo, ran.branch);
    return ran.branch;
  }
  const branch = named ?? `gemini-run/local-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}`;
  await createRunBranch(repo, branch);
  return branch;
}

const RUN_FLAGS = {
  repo: { type: 'string' },
  prompt: { type: 'string' },
  'prompt-file': { type: 'string' },
  branch: { type: 'string' },
  resume: { type: 'string' },
  author: { type: 'string' },
  mode: { type: 'string' },
  model: { type: 'string' },
  'timeout-minutes': { type: 'string' },
  gemini: { type: 'string' },
  skills: { type: 'string' },
  'no-scrub': { type: 'boolean' },
  'allow-unchecked-gemini-version': { type: 'boolean' },
  settings: { type: 'string' },
  instructions: { type: 'string' },
  'allowed-tools': { type: 'string' },
  'exclude-tools': { type: 'string' },
  extensions: { type: 'string' },
  'max-tokens': { type: 'string' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** The flags checked one by one: the mode, the timeout and the commits' author. */
function runFlags(values: { mode?: string; 'timeout-minutes'?: string; author?: string }) {
  return {
    mode: flagValue(runModeSchema('--mode'), values.mode ?? 'interactive', 'run'),
    minutes: flagValue(timeoutMinutesSchema('--timeout-minutes'), values['timeout-minutes'] ?? '30', 'run'),
    identity: flagValue(personSchema('--author'), values.author ?? '', 'run') ?? TOOLKIT_IDENTITY,
  };
}

/** The task: the prompt (--prompt, --prompt-file or stdin), and the standing instructions. */
async function taskOf(
  values: { prompt?: string; 'prompt-file'?: string; instructions?: string },
  io: CliIO,
): Promise<Task> {
  const instruction = (await readPrompt(values, io)).trim();
  if (!instruction) throw new UserError('The task is empty.');
  return {
    title: instruction.split('\n')[0]!.slice(0, 100),
    instruction,
    comments: [],
    source: { kind: 'local' },
    ...(values.instructions?.trim() ? { standingInstructions: values.instructions } : {}),
  };
}

/** The gemini the run starts (--gemini, GEMINI_RUN_GEMINI_PATH, the pinned one) and its profile. */
async function geminiFor(
  values: { gemini?: string; 'allow-unchecked-gemini-version'?: boolean },
  io: CliIO,
): Promise<{ geminiPath: string; cliProfile: Awaited<ReturnType<typeof profileOfBinary>> }> {
  const geminiPath = values.gemini ?? io.env.GEMINI_RUN_GEMINI_PATH ?? (await findPinnedGemini());
  const cliProfile = await profileOfBinary(geminiPath, {
    allowUnchecked: values['allow-unchecked-gemini-version'] === true,
  });
  if (cliProfile.unchecked) {
    write(
      io.stderr,
      `gemini ${cliProfile.version} has not been checked by gemini-run's probes: running it with the ${cliProfile.checked} profile.`,
    );
  }
  return { geminiPath, cliProfile };
}

/** Keeps the run's session for `--resume`; the command that continues it, or undefined when it was not kept. */
async function keptForResume(
  sessions: string,
  result: RunResult,
  ran: KeptRun,
  log: Logger,
): Promise<string | undefined> {
  if (!result.sessionId || !result.transcriptPath) return undefined;
  try {
    await keepSession(sessions, result.sessionId, result.transcriptPath, ran);
  } catch (e) {
    log.warning(`Could not keep the session for --resume: ${getErrorMessage(e)}`);
    return undefined;
  }
  return `gemini-run run --repo ${shellWord(ran.repo)} --resume ${result.sessionId} --prompt '<what next>'`;
}

/**
 * The summary and the last line. The summary quotes the agent (answer, commit subjects) and the task: no escape
 * sequence reaches the terminal, no line a runner would obey (this command can run in a workflow step).
 */
function tellEnd(
  io: CliIO,
  result: RunResult,
  o: { task: Task; branch: string; resumeCommand: string | undefined },
): void {
  const { resumeCommand } = o;
  const summary = renderSummary(result, { task: o.task, ...(resumeCommand ? { resumeCommand } : {}) });
  write(io.stdout, `\n${guardLines(summary)}`);
  write(
    io.stdout,
    `\n${result.status}: ${result.commits.length} commit(s) on branch ${o.branch}.${resumeCommand ? ` Continue with: ${resumeCommand}` : ''}`,
  );
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run gemini unattended on a local repository and leave its commits on a branch',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, help } = parseCommandArgs('run', argv, RUN_FLAGS);
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    const { mode, minutes, identity } = runFlags(values);
    const task = await taskOf(values, io);
    const shape = runShape(values);
    const model = resolveModel(values.model);
    const auth = await resolveAuth(authFromToolkitEnv(io.env), () => undefined);
    const sessions = sessionsDir(io.env);
    const kept = values.resume ? await findSession(sessions, values.resume) : undefined;

    const repo = await openLocalRepo(resolve(io.cwd, values.repo ?? '.'));
    const { geminiPath, cliProfile } = await geminiFor(values, io);
    const branch = await branchFor(repo, values.branch, kept?.ran);
    const log = createStreamLogger({ out: io.stdout, err: io.stderr, statusLine: wantsStatusLine(io) });
    // As in the action: the credential stays in a model proxy, and at the timeout or the token budget the proxy
    // refuses every further call (0.61.0 asks the model again by itself after the cancel).
    const oauth = await prepareOAuth(auth, io.env);
    const vertex = await prepareVertex(auth, io.env);
    return withStack(async (stack) => {
      const runDir = await mkdtemp(join(tmpdir(), 'gemini-run-local-'));
      stack.defer(() => rm(runDir, { recursive: true, force: true }));
      // Interrupted (Ctrl-C, a SIGTERM), the run's directory goes too: gemini's home with its session and creds.
      stack.defer(guardProcessExit(() => rmSync(runDir, { recursive: true, force: true })));
      stack.defer(() => cleanupRun({ runDir, log }).catch(() => undefined));
      log.info(
        `Running gemini (${mode}) on ${repo.top}, branch ${branch}${kept ? `, continuing session ${kept.resume.sessionId}` : ''}`,
      );
      const result = await execute({
        auth,
        ...(oauth ? { oauth } : {}),
        ...(vertex ? { vertex } : {}),
        env: io.env,
        log,
        mask: () => undefined,
        engine: {
          worktree: repo.top,
          task,
          geminiPath,
          cliProfile,
          model,
          approvalMode: 'yolo',
          mode,
          timeoutMs: minutes * 60_000,
          runDir,
          gitIdentity: identity,
          ...(kept ? { resume: kept.resume } : {}),
          ...(values.skills ? { skillsDir: resolve(io.cwd, values.skills) } : {}),
          ...shape,
        },
      });
      const commits = await publishToBranch(repo, result, { scrub: !values['no-scrub'] });
      // Kept before the run dir goes: the next `--resume` continues from this copy.
      const resumeCommand = await keptForResume(sessions, result, { repo: repo.top, branch }, log);
      tellEnd(io, { ...result, commits }, { task, branch, resumeCommand });
      return failsStep(result.status) ? 1 : 0;
    });
  },
};

/** A path as one shell word, quoted only when it needs to be. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}
