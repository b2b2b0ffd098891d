import { loginWithCode } from '../../gemini/login.js';
import { UserError } from '../../util/errors.js';
import {
  UsageError,
  createLineReader,
  geminiHomeFrom,
  parseCommandArgs,
  write,
  type CliIO,
  type Command,
} from '../args.js';
import { locateGemini } from '../host-config.js';

const USAGE = `usage: gemini-run login [--home <dir>] [--code <code>] [--gemini <path>] [--force]

Logs this host in to Gemini with a Google account (the CLI's "Login with Google", oauth-personal), without a
browser on the host: it merges gemini-run's settings into the Gemini home, starts gemini in its own tmux
session with NO_BROWSER=true, and prints the authorization URL. Open it anywhere, sign in, and paste the code
Google shows. Done when .gemini/oauth_creds.json appears; runs on this host then use it (and keep it fresh).
A wrong code prints a new URL to try again; gemini gives up after the second wrong code.

Success means Code Assist accepted the account too: gemini-run waits for the CLI to get past its account
check, and reports Google's message (and removes the new creds) when the account is refused.

Note: Google refuses consumer accounts for the Gemini CLI since 2026-06; this works for Code Assist
Standard/Enterprise and Workspace accounts. Otherwise use an API key or Vertex AI.

Options:
  --home <dir>     the Gemini home to log in (default: $GEMINI_CLI_HOME, else $HOME)
  --code <code>    paste this code instead of prompting (one try). Each URL carries its own PKCE
                   challenge, so only a code issued for the URL this same login prints can work:
                   meant for automation (e.g. a test server that accepts a known code)
  --gemini <path>  the gemini executable (default: $GEMINI_RUN_GEMINI_PATH, PATH, the tool cache)
  --force          log in again even if creds exist (the old ones come back if this login fails)
  --timeout <s>    give up after this many seconds (default 600)
  -h, --help       show this help

Examples:
  gemini-run login
  sudo -u runner gemini-run login --home /home/runner
`;

export const loginCommand: Command = {
  name: 'login',
  summary: 'Log this host in to Gemini (paste-the-code OAuth, no browser needed)',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, help } = parseCommandArgs('login', argv, {
      home: { type: 'string' },
      code: { type: 'string' },
      gemini: { type: 'string' },
      force: { type: 'boolean' },
      timeout: { type: 'string' },
    });
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    const timeoutS = values.timeout === undefined ? 600 : Number(values.timeout);
    if (!Number.isFinite(timeoutS) || timeoutS <= 0)
      throw new UsageError(`--timeout must be a positive number of seconds`, 'login');
    const home = geminiHomeFrom(values.home, io.env);
    const gemini = await locateGemini(values.gemini, io.env);
    if (!gemini) throw new UserError("gemini not found: run 'gemini-run setup', or pass --gemini <path>");

    const lines = values.code === undefined ? createLineReader(io.stdin) : undefined;
    // Ctrl-C must still stop the login's tmux session and gemini (they would outlive us otherwise). 'on', not
    // 'once': with 'once' the process still died of the same SIGINT (live, node 20), skipping the cleanup.
    const abort = new AbortController();
    let signalled: NodeJS.Signals | undefined;
    const onSignal = (sig: NodeJS.Signals) => {
      signalled = sig;
      abort.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
    try {
      const result = await loginWithCode({
        geminiPath: gemini.path,
        home,
        sourceEnv: io.env,
        replace: values.force,
        timeoutMs: timeoutS * 1000,
        signal: abort.signal,
        async askCode(url, attempt, refusal) {
          // A given code is good for the first URL only (each URL carries its own PKCE challenge): a later URL is
          // of no use to it, so it is not shown, and the refusal ends the login.
          if (values.code !== undefined) {
            if (attempt > 1) return undefined;
            write(io.stderr, 'Trying the given code against this URL:');
            write(io.stdout, `\n${url}\n`);
            return values.code;
          }
          if (refusal) write(io.stderr, `The code was refused (${refusal}). gemini made a new URL:`);
          else
            write(io.stderr, 'Open this URL in a browser, sign in with the Google account for this runner:');
          write(io.stdout, `\n${url}\n`);
          io.stderr.write('Paste the authorization code: ');
          const code = await lines?.next();
          return code?.trim() || undefined;
        },
      });
      write(io.stdout, `Logged in${result.account ? ` as ${result.account}` : ''}: ${result.credsFile}`);
      if (result.plan) write(io.stdout, `Plan: ${result.plan}`);
      if (!result.verified) {
        write(
          io.stderr,
          'warning: gemini did not confirm the account with Code Assist in time; a run will tell.',
        );
      }
      write(io.stdout, "Check it with 'gemini-run auth status'.");
      return 0;
    } catch (error) {
      if (signalled) {
        write(io.stderr, `gemini-run login: cancelled (${signalled}); the login session was stopped.`);
        return signalled === 'SIGINT' ? 130 : 143;
      }
      throw error;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
      lines?.close();
    }
  },
};
