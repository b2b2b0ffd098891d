import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { z } from 'zod';
import type { RepoRef } from '../github/client.js';
import type { RunOrigin } from '../github/record-origin.js';
import { UserError } from '../util/errors.js';

/** A variable the runner always sets: missing or empty, it is named. */
const isSet = (name: string) =>
  z.string({ error: `${name} is not set` }).min(1, { message: `${name} is not set` });

/** GitHub's standard variables, read once at the boundary. */
const envSchema = z.object({
  GITHUB_EVENT_NAME: isSet('GITHUB_EVENT_NAME'),
  GITHUB_EVENT_PATH: isSet('GITHUB_EVENT_PATH'),
  GITHUB_REPOSITORY: z
    .string({ error: 'GITHUB_REPOSITORY is not set' })
    .regex(/^[^/\s]+\/[^/\s]+$/, { message: "GITHUB_REPOSITORY must look like 'owner/repo'" }),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  GITHUB_SERVER_URL: z.url().default('https://github.com'),
  GITHUB_WORKSPACE: isSet('GITHUB_WORKSPACE'),
  GITHUB_RUN_ID: z.string().default('0'),
  GITHUB_RUN_ATTEMPT: z.string().default('1'),
  GITHUB_ACTOR: z.string().default(''),
  GITHUB_WORKFLOW_REF: z.string().optional(),
  GITHUB_ACTION_REPOSITORY: z.string().optional(),
  RUNNER_TEMP: z.string().optional(),
  RUNNER_TOOL_CACHE: z.string().optional(),
});

export interface ActionContext {
  eventName: string;
  payload: unknown;
  repo: RepoRef;
  apiUrl: string;
  serverUrl: string;
  workspace: string;
  runId: string;
  runAttempt: string;
  actor: string;
  runnerTemp: string;
  toolCache: string;
  /** Which workflow file this run is, and the action's repository: what a record of ours must name (record-origin.ts). */
  origin: RunOrigin;
}

export async function readActionContext(env: NodeJS.ProcessEnv = process.env): Promise<ActionContext> {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new UserError(
      `This does not look like a GitHub Actions job: ${parsed.error.issues.map((i) => i.message).join('; ')}.`,
    );
  }
  const v = parsed.data;
  let payload: unknown;
  try {
    payload = JSON.parse(await readFile(v.GITHUB_EVENT_PATH, 'utf8'));
  } catch {
    throw new UserError(
      `Cannot read the event payload at ${v.GITHUB_EVENT_PATH}: it is missing or not JSON.`,
    );
  }
  const [owner, repo] = v.GITHUB_REPOSITORY.split('/') as [string, string];
  const runnerTemp = v.RUNNER_TEMP ?? tmpdir();
  return {
    eventName: v.GITHUB_EVENT_NAME,
    payload,
    repo: { owner, repo },
    apiUrl: v.GITHUB_API_URL.replace(/\/$/, ''),
    serverUrl: v.GITHUB_SERVER_URL.replace(/\/$/, ''),
    workspace: v.GITHUB_WORKSPACE,
    runId: v.GITHUB_RUN_ID,
    runAttempt: v.GITHUB_RUN_ATTEMPT,
    actor: v.GITHUB_ACTOR,
    origin: { workflowRef: v.GITHUB_WORKFLOW_REF, actionRepository: v.GITHUB_ACTION_REPOSITORY },
    runnerTemp,
    toolCache: v.RUNNER_TOOL_CACHE ?? `${runnerTemp}/tool-cache`,
  };
}

/** The job run's page, whose log a failing run points at. */
export function runUrlOf(ctx: Pick<ActionContext, 'serverUrl' | 'repo' | 'runId'>): string {
  return `${ctx.serverUrl}/${ctx.repo.owner}/${ctx.repo.repo}/actions/runs/${ctx.runId}`;
}

/**
 * A message for the issue and the job summary with the runner's own paths said as the variables that name them:
 * "'$GITHUB_WORKSPACE/.git/refs/…lock': Read-only file system" tells the person on the issue what failed without
 * the layout of someone's self-hosted runner. The longest path first (the workspace may lie in the runner temp).
 */
export function withoutRunnerPaths(
  text: string,
  ctx: Pick<ActionContext, 'workspace' | 'runnerTemp' | 'toolCache'>,
): string {
  const named: [string, string][] = [
    [ctx.workspace, '$GITHUB_WORKSPACE'],
    [ctx.toolCache, '$RUNNER_TOOL_CACHE'],
    [ctx.runnerTemp, '$RUNNER_TEMP'],
  ];
  return named
    .filter(([path]) => path.length > 1)
    .sort((a, b) => b[0].length - a[0].length)
    .reduce((t, [path, name]) => t.split(path).join(name), text);
}
