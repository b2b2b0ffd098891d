/**
 * An engine that plays an agent without gemini: it writes files into the worktree (and commits some of them, as
 * an agent would), then hands the work over the way the real engine does — exported by `exportWork` as a bundle
 * and imported into the vault — and returns the RunResult it was told to. The pipeline around it is the real one.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EngineStatus } from '../../src/domain/status.js';
import { summarizeUsage } from '../../src/gemini/telemetry.js';
import { emptyTranscript } from '../../src/gemini/transcript-fold.js';
import { filesChanged, listCommits } from '../../src/git/commits.js';
import { exportWork } from '../../src/git/export.js';
import { importBundle } from '../../src/git/vault.js';
import type { RunOptions } from '../../src/run/options.js';
import type { RunResult } from '../../src/run/types.js';
import { exec } from '../../src/util/exec.js';
import { scrubbedGitEnv } from './repo.js';

export interface AgentPlay {
  status?: EngineStatus;
  /** The agent first resets its branch to this ref (rewriting the history it was given). */
  reset?: string;
  message?: string;
  /** Merges this ref of origin first (`git fetch origin <ref>` and a merge commit), as an agent updating its base. */
  merge?: string;
  /** Committed by the "agent" itself, one commit each: subject → files (null: the file is deleted). */
  commits?: Record<string, Record<string, string | null>>;
  /**
   * Anything else the agent does in its worktree, after `commits` (binary files, modes, symlinks, renames): given
   * the worktree and a git that commits as the agent.
   */
  act?: (worktree: string, git: (args: string[]) => Promise<string>) => Promise<void>;
  /** Left uncommitted (the export commits them as leftovers). */
  leftovers?: Record<string, string>;
  answer?: string;
  tokens?: number;
  /** The engine throws this after the work was handed over (a crash after the agent worked). */
  throws?: string;
  /** A session file (a recorded fixture) the run leaves as its transcript; its session id becomes the run's. */
  transcript?: string;
  /**
   * Model calls the agent makes through the run's real model proxy (`generateContent` of the run's model, a prompt
   * of `promptChars` characters: about a quarter as many tokens by the fake model's count), one after the other,
   * until `times` were made or the proxy refused one at the run's token limit (the run then ends `budget-exceeded`,
   * as the engine's budget reads a refusal at the limit).
   */
  modelCalls?: { times: number; promptChars: number };
}

/** The agent's model calls through the proxy; true when the proxy refused one at the limit. */
async function callModel(opts: RunOptions, calls: { times: number; promptChars: number }): Promise<boolean> {
  const endpoint = opts.modelEndpoint;
  if (!endpoint) throw new Error('stub engine: modelCalls needs the model proxy (an endpoint)');
  const body = JSON.stringify({
    contents: [{ role: 'user', parts: [{ text: 'a'.repeat(calls.promptChars) }] }],
  });
  for (let i = 0; i < calls.times; i++) {
    const res = await fetch(
      `${endpoint.baseUrl}/v1beta/models/${opts.model ?? 'gemini-2.5-flash'}:generateContent`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': endpoint.placeholder },
        body,
      },
    );
    await res.arrayBuffer();
    if (res.status === 400) return true;
    if (!res.ok) throw new Error(`stub engine: the model proxy answered ${res.status}`);
  }
  return false;
}

const NO_SESSION = '5f0c2a1e-0000-4000-8000-000000000001';

/** The fixture copied into the run dir, as the engine's own copy of the session file, and its session id. */
async function keepTranscript(fixture: string, runDir: string): Promise<{ path: string; sessionId: string }> {
  const text = await readFile(fixture, 'utf8');
  const sessionId = /"sessionId":"([0-9a-f-]{36})"/.exec(text)?.[1] ?? NO_SESSION;
  const path = join(runDir, 'transcript-stub.jsonl');
  await writeFile(path, text);
  return { path, sessionId };
}

async function writeFiles(worktree: string, files: Record<string, string | null>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    if (text === null) {
      await rm(join(worktree, path), { force: true });
      continue;
    }
    await mkdir(dirname(join(worktree, path)), { recursive: true });
    await writeFile(join(worktree, path), text);
  }
}

async function git(worktree: string, args: string[]): Promise<string> {
  const r = await exec('git', ['-C', worktree, ...args], { env: scrubbedGitEnv() });
  return r.stdout.trim();
}

const AGENT = ['-c', 'user.name=agent', '-c', 'user.email=agent@example.com'];

/**
 * An `act` that commits `files` as `subject` with author and committer `agent` at a fixed second: two runs that
 * play it on the same base make one and the same commit object (after the scrub too), as two agents making the same
 * change in the same second would.
 */
export function commitAtFixedSecond(
  subject: string,
  files: Record<string, string>,
): NonNullable<AgentPlay['act']> {
  return async (worktree) => {
    const run = (args: string[], input?: string) =>
      exec('git', ['-C', worktree, ...args], { env: scrubbedGitEnv(), ...(input ? { input } : {}) });
    await writeFiles(worktree, files);
    await run(['add', '--all']);
    const tree = (await run(['write-tree'])).stdout.trim();
    const parent = (await run(['rev-parse', 'HEAD'])).stdout.trim();
    const who = 'agent <agent@example.com> 1700000000 +0000';
    const body = `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\n\n${subject}\n`;
    const sha = (await run(['hash-object', '-t', 'commit', '-w', '--stdin'], body)).stdout.trim();
    await run(['reset', '--quiet', '--hard', sha]);
  };
}

/** What each call of the stub was given, for assertions. */
export type SeenRuns = RunOptions[];

/** `now`: the pipeline's clock (PipelineWorld.advance moves it), which the run's start and end are told in. */
export function stubEngine(
  play: AgentPlay,
  seen: SeenRuns = [],
  now: () => number = Date.now,
): (o: RunOptions) => Promise<RunResult> {
  return async (opts) => {
    seen.push(opts);
    const startedAt = now();
    const base = await git(opts.worktree, ['rev-parse', 'HEAD']);
    if (play.reset) await git(opts.worktree, ['reset', '--quiet', '--hard', `origin/${play.reset}`]);
    if (play.merge) {
      await git(opts.worktree, ['fetch', '--quiet', 'origin', play.merge]);
      await git(opts.worktree, [...AGENT, 'merge', '--quiet', '--no-ff', '--no-edit', 'FETCH_HEAD']);
    }
    for (const [subject, files] of Object.entries(play.commits ?? {})) {
      await writeFiles(opts.worktree, files);
      await git(opts.worktree, ['add', '--all']);
      await git(opts.worktree, [...AGENT, 'commit', '--quiet', '-m', subject]);
    }
    if (play.act) await play.act(opts.worktree, (args) => git(opts.worktree, [...AGENT, ...args]));
    await writeFiles(opts.worktree, play.leftovers ?? {});
    const bundle = join(opts.runDir, 'stub-agent.bundle');
    const exported = await exportWork({
      worktree: opts.worktree,
      runAs: [],
      home: opts.runDir,
      path: process.env.PATH ?? '/usr/bin:/bin',
      base,
      bundle,
      ...(opts.gitIdentity ? { identity: opts.gitIdentity } : {}),
      message: 'Leftover changes of the agent',
    });
    const vault = opts.vault!;
    const head = exported.bundled ? await importBundle(vault, bundle) : base;
    if (play.throws) throw new Error(play.throws);
    const refusedAtLimit = play.modelCalls ? await callModel(opts, play.modelCalls) : false;
    const commits = head === base ? [] : await listCommits(vault.dir, base, head);
    const usage = summarizeUsage([]);
    const kept = play.transcript ? await keepTranscript(play.transcript, opts.runDir) : undefined;
    return {
      status: refusedAtLimit ? 'budget-exceeded' : (play.status ?? 'finished'),
      ...(refusedAtLimit
        ? { message: 'token budget exceeded' }
        : play.message
          ? { message: play.message }
          : {}),
      mode: opts.mode,
      sessionId: kept?.sessionId ?? NO_SESSION,
      ...(kept ? { transcriptPath: kept.path } : {}),
      transcript: { ...emptyTranscript(), finalAnswer: play.answer ?? 'Done.' },
      usage: { ...usage, totalTokens: play.tokens ?? 0 },
      exitCode: 0,
      startedAt: new Date(startedAt).toISOString(),
      durationMs: now() - startedAt,
      geminiLifetimeMs: 0,
      baseSha: base,
      headSha: head,
      commits: commits.map((c) => ({ sha: c.sha, subject: c.subject })),
      filesChanged: head === base ? [] : await filesChanged(vault.dir, base, head),
      leftoverCommitted: exported.leftoverCommitted,
      ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}),
    };
  };
}
