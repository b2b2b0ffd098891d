import { readAuthStatus, type AuthStatus } from '../../gemini/auth-status.js';
import { UsageError, geminiHomeFrom, parseCommandArgs, write, type CliIO, type Command } from '../args.js';

const USAGE = `usage: gemini-run auth status [--json] [--home <dir>]

Shows whether this host's Gemini login (oauth-personal) can be used by runs: creds present, access-token
expiry, refresh token, account e-mail and the auth type in settings. Reads files only; contacts nobody.
Exit code 0 when the creds are usable (a run can start or refresh them silently), 1 otherwise.

Options:
  --json         print the status as JSON
  --home <dir>   the Gemini home to inspect (default: $GEMINI_CLI_HOME, else $HOME)
  -h, --help     show this help

Examples:
  gemini-run auth status
  gemini-run auth status --json --home /home/runner
`;

const UNITS: [name: string, ms: number][] = [
  ['year', 365.25 * 24 * 3600_000],
  ['month', 30.44 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/**
 * Pure: a span of time as people say it — its largest whole unit ("3 years", "1 hour", "45 minutes"), or
 * "a moment" below a second. Exported for tests.
 */
export function humanDuration(ms: number): string {
  const span = Math.abs(ms);
  for (const [name, size] of UNITS) {
    // Two of a unit before it is used ("36 hours", not "1 day"), except for seconds and the largest units.
    const n = Math.floor(span / size);
    if (n >= (name === 'second' || name === 'minute' || name === 'year' ? 1 : 2)) {
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return 'a moment';
}

function renderStatus(s: AuthStatus, now: number = Date.now()): string {
  const lines = [
    `home:           ${s.home}`,
    `creds:          ${s.credsPresent ? (s.credsError ? 'damaged' : 'present') : 'missing'} (${s.credsFile})`,
  ];
  if (s.accessTokenExpiry) {
    const left = Date.parse(s.accessTokenExpiry) - now;
    const rel = s.accessTokenExpired
      ? `expired ${humanDuration(left)} ago`
      : `valid for ${humanDuration(left)}`;
    lines.push(`access token:   ${rel} (${s.accessTokenExpiry})`);
  }
  if (s.credsPresent && !s.credsError)
    lines.push(`refresh token:  ${s.refreshTokenPresent ? 'present' : 'missing'}`);
  lines.push(`account:        ${s.account ?? '(unknown)'}`);
  lines.push(`auth type:      ${s.authType ?? '(not set in settings)'}`);
  lines.push(`usable:         ${s.usable ? 'yes' : 'no'}`);
  for (const p of s.problems) lines.push(`problem:        ${p}`);
  return lines.join('\n');
}

export const authCommand: Command = {
  name: 'auth',
  summary: "Show this host's Gemini login status (auth status)",
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals, help } = parseCommandArgs(
      'auth',
      argv,
      { json: { type: 'boolean' }, home: { type: 'string' } },
      { maxPositionals: 1 },
    );
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    if (positionals[0] !== 'status') {
      throw new UsageError(
        positionals[0] ? `unknown subcommand '${positionals[0]}'` : "missing subcommand 'status'",
        'auth',
      );
    }
    const status = await readAuthStatus(geminiHomeFrom(values.home, io.env));
    write(io.stdout, values.json ? JSON.stringify(status, null, 2) : renderStatus(status));
    return status.usable ? 0 : 1;
  },
};
