/**
 * An error caused by the user's input or environment. Its message is one line that says what is wrong and
 * what to do; entry points print it without a stack trace.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
}

/** The message of anything thrown, including non-Error throws (a thrown string must not leave a step green). */
export function getErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** First line only: user-facing errors are single lines. */
export function oneLine(message: string): string {
  const line = message.split(/\r?\n/).find((l) => l.trim() !== '') ?? message;
  return line.trim();
}
