import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GEMINI_PACKAGE, findPinnedGemini, geminiVersion, installGemini } from '../../gemini/install.js';
import { CHECKED_VERSIONS, DEFAULT_GEMINI_VERSION, profileFor } from '../../gemini/cli-profile.js';
import { PROBES, renderDriftTable, runProbes, selectProbes } from '../../probe/index.js';
import { abortActiveProbes } from '../../probe/runner.js';
import { UserError } from '../../util/errors.js';
import { checkFlagRules, parseCommandArgs, UsageError, type CliIO, type Command } from '../args.js';
import { createStreamLogger, type Logger } from '../../util/log.js';

const usage = `usage: gemini-run probe [--gemini <path> | --version <x.y.z>] [--only <probe,...>] [--json] [--list]

Runs the compat probe suite (compat/gemini/compat.md) against a real gemini binary and a local fake Gemini API,
and prints a drift table against the expectations of the binary's profile: its own for a checked version
(${CHECKED_VERSIONS.join(', ')}), else the nearest checked one. Exits 1 when any probe drifted.
  --gemini <path>    the executable to probe (default: the project's node_modules copy, else gemini on PATH)
  --version <x.y.z>  install ${GEMINI_PACKAGE}@<x.y.z> into a temporary prefix and probe that
  --only a,b         run only these probes
  --json             print the results as JSON instead of the table
  --list             list the probes and exit
  -h, --help         show this help

Examples:
  gemini-run probe
  gemini-run probe --version 0.61.0 --only headless-stream-json,version
  gemini-run probe --list | cut -f1`;

/** The binary the suite checks by default: the pinned devDependency, else whatever `gemini` is on PATH. */
function defaultGemini(): Promise<string> {
  return findPinnedGemini().catch(() => 'gemini');
}

/** The probes asked for (--only, else all); a bad --version or an unknown probe is a usage error. */
function probesAsked(values: { version?: string; only?: string }): ReturnType<typeof selectProbes>['probes'] {
  if (values.version !== undefined && !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(values.version)) {
    throw new UsageError(
      `'--version ${values.version}' is not a version like ${DEFAULT_GEMINI_VERSION}`,
      'probe',
    );
  }
  const only = (values.only ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const { probes, unknown } = selectProbes(only);
  if (unknown.length > 0)
    throw new UsageError(`unknown probe(s) ${unknown.join(', ')} (see 'gemini-run probe --list')`, 'probe');
  return probes;
}

/**
 * The gemini to probe: --version installed into a throw-away prefix (handed to `installedIn` first, so an
 * interrupt removes it too: the probed version never lands in the tool cache or on PATH), --gemini, or the default.
 */
async function probedGemini(
  values: { version?: string; gemini?: string },
  cwd: string,
  log: Logger,
  installedIn: (prefix: string) => void,
): Promise<string> {
  if (values.version) {
    const prefix = await mkdtemp(join(tmpdir(), 'gemini-probe-install-'));
    installedIn(prefix);
    return installGemini({ version: values.version, cacheRoot: prefix, log });
  }
  // A bare name is looked up on PATH; anything with a slash is a path.
  if (values.gemini) return values.gemini.includes('/') ? resolve(cwd, values.gemini) : values.gemini;
  return defaultGemini();
}

export const probeCommand: Command = {
  name: 'probe',
  summary: 'check the gemini behaviours the project relies on against a binary (drift vs its profile)',
  usage,
  async run(argv: string[], io: Pick<CliIO, 'stdout' | 'stderr'> & Partial<CliIO>): Promise<number> {
    const { values, help } = parseCommandArgs('probe', argv, {
      gemini: { type: 'string' },
      version: { type: 'string' },
      only: { type: 'string' },
      json: { type: 'boolean' },
      list: { type: 'boolean' },
    });
    checkFlagRules('probe', values, [
      { flag: 'gemini', excludes: ['version'], because: 'probe one gemini: a path, or a version to install' },
      { flag: 'list', excludes: ['gemini', 'version', 'only', 'json'], because: 'it lists and runs nothing' },
    ]);
    if (help) {
      io.stdout.write(`${usage}\n`);
      return 0;
    }
    if (values.list) {
      for (const p of PROBES) io.stdout.write(`${p.name}\t${p.behaviour}\n`);
      return 0;
    }
    const probes = probesAsked(values);

    const log = createStreamLogger({ out: io.stderr, err: io.stderr });
    let prefix: string | undefined;
    // Probes start tmux servers and gemini processes: an interrupted suite must not leave them behind.
    const onSigint = () => {
      void abortActiveProbes()
        .then(() => (prefix ? rm(prefix, { recursive: true, force: true }) : undefined))
        .finally(() => process.exit(130));
    };
    process.once('SIGINT', onSigint);
    try {
      const gemini = await probedGemini(values, io.cwd ?? process.cwd(), log, (p) => (prefix = p));
      const version = await geminiVersion(gemini);
      if (version === undefined) {
        throw new UserError(
          `'${gemini}' does not run ('--version' failed); point --gemini at a gemini executable`,
        );
      }
      // Any version gets a drift table: an unchecked one against the nearest checked profile.
      const profile = profileFor(version, { allowUnchecked: true });
      const against = `the ${profile.checked} profile${profile.unchecked ? ' (nearest checked)' : ''}`;
      io.stderr.write(
        `Probing ${gemini} (version ${version}) against ${against} with ${probes.length} probe(s)\n`,
      );
      const results = await runProbes({
        gemini,
        probes,
        profile,
        onResult: (r) =>
          io.stderr.write(
            `${r.pass ? 'pass ' : 'DRIFT'} ${r.name} (${(r.durationMs / 1000).toFixed(1)}s): ${r.observed}\n`,
          ),
      });
      io.stdout.write(
        values.json
          ? `${JSON.stringify({ gemini, version, profile: profile.checked, unchecked: profile.unchecked, results }, null, 2)}\n`
          : `gemini ${version} vs ${against}\n\n${renderDriftTable(results, profile.checked)}\n`,
      );
      return results.every((r) => r.pass) ? 0 : 1;
    } finally {
      process.off('SIGINT', onSigint);
      if (prefix) await rm(prefix, { recursive: true, force: true });
    }
  },
};

export default probeCommand;
