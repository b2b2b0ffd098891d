/**
 * Cleaning user-written GitHub text before it reaches the agent. GitHub hides some content when rendering
 * (HTML comments, `[//]: #` reference "comments") and some characters are invisible (zero-width, bidi controls,
 * Unicode tag characters). A person reading the issue cannot see them, so the agent must not act on them:
 * they are the usual carriers of hidden prompt injection. Text inside fenced code blocks is rendered
 * verbatim, so it is left alone apart from invisible characters.
 */

// Zero-width and joiner characters, bidi embeddings/overrides/isolates and marks, soft hyphen, invisible math
// operators, BOM, Mongolian vowel separator, interlinear annotations, Hangul fillers, C0/C1 controls (except
// tab and newlines), Unicode tag characters (U+E0000–E007F, "ASCII smuggling") and the variation selectors
// supplement (U+E0100–E01EF, another byte-smuggling channel).
/* eslint-disable no-control-regex, no-misleading-character-class -- matching these characters is the point */
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0E\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u{1D173}-\u{1D17A}]/gu;
/* eslint-enable no-control-regex, no-misleading-character-class */

/** Removes invisible and control characters (keeps tab, LF, CR). */
function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Strips content GitHub does not render outside code fences; see the module comment. */
function stripHiddenMarkup(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | undefined;
  const flush = (): void => {
    if (prose.length) out.push(...stripProse(prose.join('\n')).split('\n'));
    prose = [];
  };
  for (const line of lines) {
    const m = FENCE.exec(line);
    if (fence === undefined) {
      if (m?.[1]) {
        flush();
        fence = m[1];
        out.push(line);
      } else {
        prose.push(line);
      }
    } else {
      out.push(line);
      if (m?.[1] && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1])
        fence = undefined;
    }
  }
  flush();
  return out.join('\n');
}

function stripProse(text: string): string {
  return (
    text
      // An unterminated `<!--` hides everything after it on GitHub, so it is stripped to the end.
      .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
      // Reference definitions pointing at `#` are the markdown "comment" idiom: `[//]: # (hidden)`.
      .replace(
        /^ {0,3}\[[^\]\n]+\]:[ \t]*(?:#|<>)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$/gm,
        '',
      )
  );
}

/**
 * The text a reader of the rendered GitHub page sees, as markdown: hidden markup and invisible characters
 * removed, trailing spaces trimmed, runs of blank lines collapsed.
 */
export function sanitizeUserText(text: string | null | undefined): string {
  if (!text) return '';
  const normalized = stripInvisible(text.replace(/\r\n?/g, '\n'));
  return stripHiddenMarkup(normalized)
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
