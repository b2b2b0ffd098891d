/**
 * `gemini-run`: the self-hosted runner toolkit. A small registry of command modules; this file only
 * dispatches and turns failures into exit codes (2 = bad usage, 1 = anything else) and one-line messages.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { getErrorMessage, UserError } from '../util/errors.js';
import { EXIT_FAILURE, EXIT_USAGE, UsageError, write, type CliIO, type Command } from './args.js';
import { authCommand } from './commands/auth.js';
import { ciEvidenceCommand } from './commands/ci-evidence.js';
import { demoCommand } from './commands/demo.js';
import { doctorCommand } from './commands/doctor.js';
import { exportCredsCommand } from './commands/export-creds.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { probeCommand } from './commands/probe.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { setupCommand } from './commands/setup.js';
import { dropWritesOnceClosed } from './closed-pipe.js';
import { VERSION } from './version.js';
import { onSignalTeardown } from '../util/process.js';

export const COMMANDS: readonly Command[] = [
  runCommand,
  demoCommand,
  loginCommand,
  authCommand,
  logoutCommand,
  exportCredsCommand,
  doctorCommand,
  setupCommand,
  probeCommand,
  ciEvidenceCommand,
  reportCommand,
];

export function topLevelUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: gemini-run <command> [options]',
    '',
    'Runs the Gemini CLI 0.42.0 unattended on a task, and sets up self-hosted runners for it.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'gemini-run <command> --help' for a command's options and examples.",
    '',
  ].join('\n');
}

export function defaultIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  };
}

export async function main(argv: string[], io: CliIO = defaultIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const target = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    write(io.stdout, target ? target.usage : topLevelUsage());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    write(io.stdout, `gemini-run ${VERSION}`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    write(io.stderr, `gemini-run: unknown command '${name}'. Run 'gemini-run --help' for the list.`);
    return EXIT_USAGE;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      write(
        io.stderr,
        `gemini-run ${command.name}: ${error.message}. Run 'gemini-run ${command.name} --help'.`,
      );
      return EXIT_USAGE;
    }
    if (error instanceof UserError) {
      write(io.stderr, `gemini-run ${command.name}: ${error.message}`);
      return EXIT_FAILURE;
    }
    // Not the user's fault: keep the stack for a bug report, but only when asked.
    write(io.stderr, `gemini-run ${command.name}: ${getErrorMessage(error)}`);
    if (io.env.GEMINI_RUN_DEBUG && error instanceof Error && error.stack) write(io.stderr, error.stack);
    return EXIT_FAILURE;
  }
}

/** True when this module is the program (`node dist/cli.js`, the npm bin symlink, or tsx on main.ts). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  dropWritesOnceClosed(process.stdout);
  dropWritesOnceClosed(process.stderr);
  onSignalTeardown((signal, teardowns) => {
    process.stderr.write(
      `\ngemini-run: ${signal}: stopping${teardowns > 0 ? ', and removing what this run changed on the host' : ''}…\n`,
    );
  });
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // Commands clean up after themselves; a stray handle (a paused stdin) must not keep the CLI alive.
      setTimeout(() => process.exit(code), 50).unref();
    },
    (error: unknown) => {
      process.stderr.write(`gemini-run: ${getErrorMessage(error)}\n`);
      process.exit(1);
    },
  );
}
