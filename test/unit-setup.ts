/**
 * The unit project starts no process: a test that needs git, tmux, gemini or any other program belongs to the
 * integration (or gemini) project in vitest.config.ts. Every child_process entry point throws here, so a unit test
 * that starts one fails and says where it goes.
 */
import { vi } from 'vitest';

vi.mock('node:child_process', async (original) => {
  const real = await original<typeof import('node:child_process')>();
  const refuse = (name: string) => () => {
    throw new Error(
      `unit tests start no processes (child_process.${name}): move this test file to the integration project in vitest.config.ts.`,
    );
  };
  const names = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
  return { ...real, ...Object.fromEntries(names.map((n) => [n, refuse(n)])) };
});
