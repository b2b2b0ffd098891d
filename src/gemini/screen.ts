/**
 * What the Gemini CLI 0.42.0 says on its screen, in one place: every text the project matches (the login's
 * prompts, the auth dialog, the quota dialog, fatal errors), one box stripper and one wrap-aware reader. Pure.
 *
 * The TUI wraps a dialog's text inside its box by itself (tmux's `capture-pane -J` cannot join those lines), so
 * on a narrow pane a phrase may span two or three lines: findOnScreen also reads each line joined with the ones
 * below it. The proofs of these texts (captured screens, the bundle's literals) are in src/run/walls.ts.
 */

export const SCREEN_TEXTS = {
  /** The authorization URL google-auth-library builds (accounts.google.com/o/oauth2/v2/auth?...). */
  loginUrl: /https:\/\/accounts\.google\.com\/o\/oauth2\/[^\s"'<>]+/g,
  /** readline's question in the paste-the-code login; the code is read right after it. */
  codePrompt: /Enter the authorization code:/,
  /** The token endpoint refused the code; group 1 is the server's reason (e.g. invalid_grant). */
  codeRefused: /Failed to authenticate with authorization code:\s*(.*)$/,
  /** An empty code. */
  codeRequired: /Authorization code is required\./,
  /** The login gave up (after the second failure; the first one adds " Retrying..."). */
  gaveUp: /Failed to authenticate with user code\.(?!\s*Retrying)/,
  loginTimedOut: /Authorization timed out after 5 minutes\./,
  /** The AuthDialog's title: the cached credentials were refused at start, or a refresh failed. */
  authDialog: /How would you like to authenticate for this project\?/,
  /** The AuthDialog's error line; group 1 is the server's reason, which may go on over the next lines. */
  signInFailed: /Failed to sign in\. Message:\s*(.*)$/,
  /** ProQuotaDialog / OverageMenuDialog; group 1 is the model. */
  quota: /Usage limit reached for (.+?)\.?\s*$/,
  /** Code Assist refusing the account at start-up; group 1 is the server's reason. */
  accountRefused: /(?:IneligibleTierError|ProjectIdRequiredError): (.+?)\s*$/,
  /** Printed before exit 42 when --session-id is already taken. */
  sessionExists: /Session ID "?[A-Za-z0-9_-]*"? already exists/,
  /** The TUI's input prompt: the CLI is past loadCodeAssist and ready for a message. */
  ready: /Type your message or @path\/to\/file/,
  /** The plan label the TUI shows once signed in; group 1 is the plan. */
  plan: /Plan:\s+(.+?)(?:\s+\/upgrade)?\s*$/,
} as const;

/** Removes the TUI's box-drawing borders and padding from a screen line. */
export function stripBox(line: string): string {
  return line
    .replace(/[│╭╮╰╯─┃━]/g, ' ')
    .replace(/^\s*\|+|\|+\s*$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface ScreenMatch {
  /** The matched text, box stripped, its wrapped lines joined with a space. */
  text: string;
  /** Group 1 of the pattern, trimmed (a model, the server's reason); for `toParagraphEnd`, read to the paragraph's end. */
  detail?: string;
  /** The screen line the text starts on. */
  index: number;
}

/** The most screen lines one phrase is read across: a narrow pane (50 columns) wraps the longest dialog line twice. */
const MAX_WRAPPED_LINES = 3;

/**
 * The newest place `pattern` is on screen, scanning from the bottom: each line alone first, then joined with the
 * next lines of its paragraph (a blank line ends a paragraph). With `toParagraphEnd`, the detail is group 1 of the
 * pattern over the rest of the paragraph (a server message that goes on over several box lines).
 */
export function findOnScreen(
  lines: readonly string[],
  pattern: RegExp,
  opts: { toParagraphEnd?: boolean } = {},
): ScreenMatch | undefined {
  const plain = lines.map(stripBox);
  const once = new RegExp(pattern.source, pattern.flags.replace('g', ''));
  for (let i = plain.length - 1; i >= 0; i--) {
    if (plain[i] === '') continue;
    for (let n = 1; n <= MAX_WRAPPED_LINES && i + n <= plain.length; n++) {
      if (n > 1 && plain[i + n - 1] === '') break;
      const text = plain.slice(i, i + n).join(' ');
      const m = once.exec(text);
      if (!m) continue;
      let detail = m[1];
      if (opts.toParagraphEnd) detail = once.exec(paragraphFrom(plain, i))?.[1] ?? detail;
      const match: ScreenMatch = { text, index: i };
      if (detail !== undefined) match.detail = detail.replace(/\s+/g, ' ').trim();
      return match;
    }
  }
  return undefined;
}

/** The stripped lines from `start` up to the next blank one, joined. */
function paragraphFrom(plain: readonly string[], start: number): string {
  const parts: string[] = [];
  for (let i = start; i < plain.length && plain[i] !== ''; i++) parts.push(plain[i] as string);
  return parts.join(' ');
}
