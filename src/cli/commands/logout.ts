import { logout } from '../../gemini/auth-status.js';
import { geminiHomeFrom, parseCommandArgs, write, type CliIO, type Command } from '../args.js';

const USAGE = `usage: gemini-run logout [--home <dir>]

Signs this host out of Gemini the way the CLI's own /auth signout does: removes .gemini/oauth_creds.json and
clears the active account in .gemini/google_accounts.json. Runs on this host then have no OAuth creds until
'gemini-run login'. Does not revoke the token at Google (do that at https://myaccount.google.com/permissions).

Options:
  --home <dir>   the Gemini home (default: $GEMINI_CLI_HOME, else $HOME)
  -h, --help     show this help

Examples:
  gemini-run logout
  gemini-run logout --home /home/runner
`;

export const logoutCommand: Command = {
  name: 'logout',
  summary: 'Remove the Gemini login from this host',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, help } = parseCommandArgs('logout', argv, { home: { type: 'string' } });
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    const home = geminiHomeFrom(values.home, io.env);
    const r = await logout(home);
    if (!r.removedCreds) write(io.stdout, `Not logged in (no creds in ${home}/.gemini); nothing to remove.`);
    else
      write(
        io.stdout,
        `Logged out${r.account ? ` ${r.account}` : ''}: removed ${home}/.gemini/oauth_creds.json.`,
      );
    return 0;
  },
};
