import { parseArgs } from 'node:util';
import { collectCiEvidence, renderCiEvidence } from '../../github/ci-evidence.js';
import { createGitHubClient } from '../../github/client.js';
import { describeTally, emptyTally } from '../../github/sanitize.js';
import { UserError } from '../../util/errors.js';
import { createStreamLogger } from '../../util/log.js';
import { UsageError, type CliIO, type Command } from '../args.js';

const usage = `usage: gemini-run ci-evidence <owner/repo> <run-id>

Prints what gemini-run reads of a failed workflow run to fix it: each failed job's failing step with the log
lines that matter (at most 200 lines and 16 KB a job, 48 KB in all), and the check annotations. The log is read
as a stream and never held whole.
  GITHUB_TOKEN (or GH_TOKEN)  a token that can read the repository's Actions (actions: read, checks: read)
  GITHUB_API_URL              the API (default https://api.github.com; GitHub Enterprise Server: its /api/v3)`;

function parse(argv: string[]): { owner: string; repo: string; runId: number; help: boolean } {
  let positionals: string[];
  let help = false;
  try {
    const r = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
    positionals = r.positionals;
    help = r.values.help === true;
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0] ?? 'bad arguments', 'ci-evidence');
  }
  if (help) return { owner: '', repo: '', runId: 0, help };
  const [full = '', id = ''] = positionals;
  const [owner = '', repo = ''] = full.split('/');
  if (!owner || !repo || positionals.length !== 2 || !/^\d+$/.test(id))
    throw new UsageError('give the repository as owner/repo and the run id as a number', 'ci-evidence');
  return { owner, repo, runId: Number(id), help };
}

export const ciEvidenceCommand: Command = {
  name: 'ci-evidence',
  summary: 'print what gemini-run reads of a failed workflow run (failing steps, log excerpts, annotations)',
  usage,
  async run(argv: string[], io: Pick<CliIO, 'stdout' | 'stderr'> & Partial<CliIO>): Promise<number> {
    const { owner, repo, runId, help } = parse(argv);
    if (help) {
      io.stdout.write(`${usage}\n`);
      return 0;
    }
    const env = io.env ?? process.env;
    const token = env.GITHUB_TOKEN || env.GH_TOKEN || '';
    if (!token)
      throw new UserError(
        "No GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the repository's Actions.",
      );
    const logger = createStreamLogger({ out: io.stderr, err: io.stderr });
    const gh = createGitHubClient(token, env.GITHUB_API_URL || 'https://api.github.com', { logger });
    const hidden = emptyTally();
    const evidence = await collectCiEvidence(gh, { owner, repo }, runId, hidden, logger);
    const removed = describeTally(hidden);
    if (removed) io.stderr.write(`${removed}\n`);
    io.stdout.write(`${renderCiEvidence(evidence)}\n`);
    return 0;
  },
};
