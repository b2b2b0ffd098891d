/** GitHub's limit on an issue, pull request or comment body, in characters. */
const MAX_BODY_CHARS = 65_536;

/**
 * A body GitHub will accept: unchanged when it fits, else cut (never inside a surrogate pair) with a last line
 * that says so, and where the rest is. Pure.
 */
export function capBody(text: string, limit = MAX_BODY_CHARS): string {
  if (text.length <= limit) return text;
  const note = `\n\n…\n\n> [!NOTE]\n> Cut here: this text was ${text.length.toLocaleString('en-US')} characters, over GitHub's limit of ${limit.toLocaleString('en-US')}. The full text is in the job summary and the run's artifact.`;
  let end = Math.max(0, limit - note.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // do not split a surrogate pair
  return `${text.slice(0, end)}${note}`;
}
