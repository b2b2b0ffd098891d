import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOAuthCreds } from '../../gemini/creds.js';
import { OAUTH_CREDS_FILE, homeAt } from '../../gemini/home.js';
import { UserError } from '../../util/errors.js';
import { geminiHomeFrom, parseCommandArgs, write, type CliIO, type Command } from '../args.js';

const USAGE = `usage: gemini-run export-creds [--home <dir>] [--force]

Prints this host's oauth_creds.json as one base64 line: the value of the action's 'gemini-oauth-creds' input,
kept in a repository or organization secret. It is a credential: the command refuses to print it to a
terminal (shoulder-surfing, scrollback) unless --force; pipe it instead. How to store it is printed on stderr.

Options:
  --home <dir>   the Gemini home (default: $GEMINI_CLI_HOME, else $HOME)
  --force        print to a terminal anyway
  -h, --help     show this help

Examples:
  gemini-run export-creds | gh secret set GEMINI_OAUTH_CREDS --repo owner/repo
  gemini-run export-creds > creds.b64 && gh secret set GEMINI_OAUTH_CREDS --org my-org < creds.b64 && rm creds.b64
`;

const HOW_TO = [
  'Store it as a secret, e.g.:',
  '  gemini-run export-creds | gh secret set GEMINI_OAUTH_CREDS --repo <owner>/<repo>',
  'and pass it to the action:',
  '  with:',
  '    gemini-oauth-creds: ${{ secrets.GEMINI_OAUTH_CREDS }}',
  'The CLI rotates the access token on every refresh; the refresh token in the secret keeps working until revoked.',
].join('\n');

export const exportCredsCommand: Command = {
  name: 'export-creds',
  summary: "Print the login as the 'gemini-oauth-creds' secret value (base64)",
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, help } = parseCommandArgs('export-creds', argv, {
      home: { type: 'string' },
      force: { type: 'boolean' },
    });
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    if (io.stdout.isTTY && !values.force) {
      throw new UserError(
        'refusing to print a credential to a terminal: pipe it (gemini-run export-creds | gh secret set GEMINI_OAUTH_CREDS) or pass --force',
      );
    }
    const file = join(homeAt(geminiHomeFrom(values.home, io.env)).geminiDir, OAUTH_CREDS_FILE);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw new UserError(`no creds at ${file}: run 'gemini-run login' first`);
    }
    // Refuse to export what a run could not use; the message names fields only, never values.
    const creds = parseOAuthCreds(text, Date.now(), { source: file });
    write(io.stdout, Buffer.from(JSON.stringify(creds), 'utf8').toString('base64'));
    write(io.stderr, HOW_TO);
    return 0;
  },
};
