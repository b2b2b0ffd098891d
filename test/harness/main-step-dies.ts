/**
 * A main step that dies with its agent running: opens a sandbox for the worktree, starts a `setsid` daemon as
 * the agent user, prints the state the action would have saved, and exits without closing anything.
 * `node --import tsx test/harness/main-step-dies.ts <parentDir> <worktree>`
 */
import { spawn } from 'node:child_process';
import { openSandbox } from '../../src/isolation/sandbox.js';
import { createMemoryLogger } from '../../src/util/log.js';

const [parentDir, worktree] = process.argv.slice(2) as [string, string];
const sandbox = await openSandbox({ parentDir, worktree, reach: [], log: createMemoryLogger() });
const [file, ...args] = [...sandbox.runAs, 'setsid', 'sh', '-c', 'touch agent-was-here; exec sleep 600'];
spawn(file, args, { cwd: worktree, stdio: 'ignore', detached: true }).unref();
await new Promise((r) => setTimeout(r, 500));
process.stdout.write(
  `${JSON.stringify({ user: sandbox.user, privilege: sandbox.privilege, dir: sandbox.dir, worktree })}\n`,
);
process.exit(0);
