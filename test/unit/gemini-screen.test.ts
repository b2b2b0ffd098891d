/**
 * The screen vocabulary on a narrow pane. The TUI wraps a dialog's text inside its box by itself, so at 60
 * columns the auth dialog's title, its server message and the quota line each span several lines, which
 * `capture-pane -J` does not join. Both readers — the login's (detectAuthWall) and the engine's walls — must still
 * see them. The boxes are drawn the way 0.42.0 draws them (captured at 160 and 220 columns), word-wrapped at 50.
 */
import { describe, expect, it } from 'vitest';
import { detectAuthWall } from '../../src/gemini/login.js';
import { SCREEN_TEXTS, findOnScreen, stripBox } from '../../src/gemini/screen.js';
import { decideWall, matchDialog } from '../../src/run/walls.js';

const COLUMNS = 50;
const REFUSAL =
  'Gemini Code Assist for individuals is no longer available for this account. Use a Gemini API key or a Code Assist Standard or Enterprise subscription.';

/** Word-wraps `text` to the box's inner width after `indent`, as ink does. */
function wrap(text: string, indent: string): string[] {
  const width = COLUMNS - 4 - indent.length;
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) out.push(line);
  return out.map((l) => indent + l);
}

/** A rounded box of COLUMNS columns around paragraphs (each wrapped, a blank line between them). */
function box(paragraphs: { text: string; indent?: string }[]): string[] {
  const inner = COLUMNS - 4;
  const rows = paragraphs.flatMap((p, i) => [...(i > 0 ? [''] : []), ...wrap(p.text, p.indent ?? '')]);
  return [
    `╭${'─'.repeat(COLUMNS - 2)}╮`,
    `│ ${' '.repeat(inner)} │`,
    ...rows.map((r) => `│ ${r.padEnd(inner)} │`),
    `│ ${' '.repeat(inner)} │`,
    `╰${'─'.repeat(COLUMNS - 2)}╯`,
  ];
}

const AUTH_DIALOG_50 = box([
  { text: '? Get started' },
  { text: 'How would you like to authenticate for this project?', indent: '  ' },
  { text: '● 1. Sign in with Google', indent: '  ' },
  { text: `Failed to sign in. Message: ${REFUSAL}`, indent: '  ' },
  { text: '(Use Enter to select)', indent: '  ' },
]);

const BARE_AUTH_DIALOG_50 = box([
  { text: '? Get started' },
  { text: 'How would you like to authenticate for this project?', indent: '  ' },
  { text: '● 1. Sign in with Google', indent: '  ' },
]);

const QUOTA_50 = box([
  { text: 'Usage limit reached for gemini-3-flash-preview-with-a-long-name.' },
  { text: '● 1. Keep trying' },
]);

const pane = { dead: false, exitCode: null };
const wallOf = (screen: string[]) =>
  decideWall({ events: [], pane, screen, elapsedMs: 1000, timeoutMs: 60_000, sessionRetries: 0 });

describe('the screen texts on a 50-column pane', () => {
  it('the phrases really are wrapped: no single line holds them', () => {
    expect(AUTH_DIALOG_50.every((l) => l.length === COLUMNS || l.length === 0)).toBe(true);
    for (const pattern of [SCREEN_TEXTS.authDialog, SCREEN_TEXTS.signInFailed]) {
      expect(AUTH_DIALOG_50.map(stripBox).some((l) => pattern.test(l))).toBe(
        pattern === SCREEN_TEXTS.signInFailed,
      );
    }
    expect(QUOTA_50.map(stripBox).some((l) => SCREEN_TEXTS.quota.test(l))).toBe(false);
  });

  it("the login's reader sees the refusal with the whole server message, and the bare dialog", () => {
    expect(detectAuthWall(AUTH_DIALOG_50)).toEqual({ kind: 'sign-in-failed', message: REFUSAL });
    expect(detectAuthWall(BARE_AUTH_DIALOG_50)).toEqual({ kind: 'auth-dialog' });
  });

  it("the engine's walls see the same: auth-failed with the server's words, and the quota's model", () => {
    expect(wallOf(AUTH_DIALOG_50)).toEqual({
      action: 'stop',
      status: 'auth-failed',
      message: REFUSAL,
      fromScreen: true,
    });
    expect(wallOf(BARE_AUTH_DIALOG_50)).toMatchObject({ action: 'stop', status: 'auth-failed' });
    expect(matchDialog(QUOTA_50)?.detail).toBe('gemini-3-flash-preview-with-a-long-name');
    expect(wallOf(QUOTA_50)).toMatchObject({ action: 'stop', status: 'quota-exhausted' });
  });

  it('reads the newest occurrence and stops a wrapped phrase at a blank line', () => {
    expect(findOnScreen(['Usage limit reached for', '', 'x.'], SCREEN_TEXTS.quota)).toBeUndefined();
    expect(
      findOnScreen(['│ Usage limit reached for a. │', '│ Usage limit reached for b. │'], SCREEN_TEXTS.quota),
    ).toEqual({ text: 'Usage limit reached for b.', detail: 'b', index: 1 });
  });
});
