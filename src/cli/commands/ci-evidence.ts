import { collectCiEvidence, renderCiEvidence, type CiSource } from '../../github/ci-evidence.js';
import { describeTally, emptyTally } from '../../markdown/visible.js';
import { createStreamLogger } from '../../util/log.js';
import { parseCommandArgs, UsageError, write, type CliIO, type Command } from '../args.js';
import { gitHubFromEnv } from '../github-env.js';

const usage = `usage: gemini-run ci-evidence <owner/repo> <run-id>
       gemini-run ci-evidence <owner/repo> --check-suite <suite-id>

Prints what gemini-run reads of a failed workflow run to fix it: each failed job's failing step with the log
lines that matter (at most 200 lines and 16 KB a job, 48 KB in all), and the check annotations. The log is read
as a stream and never held whole. With --check-suite, another CI's check suite: each failed check run's output
(title, summary, text) through the same cut, and its annotations.
  GITHUB_TOKEN (or GH_TOKEN)  a token that can read the repository's Actions (actions: read, checks: read)

Options:
  --check-suite <id>  read another CI's check suite instead of a workflow run
  -h, --help          show this help

Environment:
  GITHUB_TOKEN (or GH_TOKEN)  a token that can read the repository's Actions (actions: read, checks: read)
  GITHUB_API_URL              the API (default https://api.github.com; GitHub Enterprise Server: its /api/v3)

Examples:
  GITHUB_TOKEN=$(gh auth token) gemini-run ci-evidence octo-org/app 9876543210
  gemini-run ci-evidence octo-org/app --check-suite 123456 | less
`;

interface Parsed {
  owner: string;
  repo: string;
  ci: CiSource;
  help: boolean;
}

function parse(argv: string[]): Parsed {
  const { values, positionals, help } = parseCommandArgs(
    'ci-evidence',
    argv,
    { 'check-suite': { type: 'string' } },
    { maxPositionals: 2 },
  );
  const suite = values['check-suite'];
  if (help) return { owner: '', repo: '', ci: { source: 'workflow-run', id: 0 }, help };
  const [full = '', runId] = positionals;
  const id = suite ?? runId ?? '';
  const [owner = '', repo = ''] = full.split('/');
  if (!owner || !repo || positionals.length !== (suite === undefined ? 2 : 1) || !/^\d+$/.test(id))
    throw new UsageError(
      'give the repository as owner/repo and the run id (or --check-suite <id>) as a number',
      'ci-evidence',
    );
  const source = suite === undefined ? 'workflow-run' : 'check-suite';
  return { owner, repo, ci: { source, id: Number(id) }, help };
}

export const ciEvidenceCommand: Command = {
  name: 'ci-evidence',
  summary: 'print what gemini-run reads of a failed workflow run (failing steps, log excerpts, annotations)',
  usage,
  async run(argv: string[], io: Pick<CliIO, 'stdout' | 'stderr'> & Partial<CliIO>): Promise<number> {
    const { owner, repo, ci, help } = parse(argv);
    if (help) {
      write(io.stdout, usage);
      return 0;
    }
    const logger = createStreamLogger({ out: io.stderr, err: io.stderr });
    const gh = gitHubFromEnv(io.env ?? process.env, logger, "the repository's Actions").client;
    const hidden = emptyTally();
    const evidence = await collectCiEvidence(gh, { owner, repo }, ci, hidden, logger);
    const removed = describeTally(hidden);
    if (removed) io.stderr.write(`${removed}\n`);
    io.stdout.write(`${renderCiEvidence(evidence)}\n`);
    return 0;
  },
};
