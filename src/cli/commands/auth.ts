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

function renderStatus(s: AuthStatus, now: number = Date.now()): string {
  const lines = [
    `home:           ${s.home}`,
    `creds:          ${s.credsPresent ? (s.credsError ? 'damaged' : 'present') : 'missing'} (${s.credsFile})`,
  ];
  if (s.accessTokenExpiry) {
    const mins = Math.round((Date.parse(s.accessTokenExpiry) - now) / 60_000);
    const rel = s.accessTokenExpired ? `expired ${-mins} min ago` : `valid for ${mins} min`;
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
