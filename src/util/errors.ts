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

/** A service that could not be reached (DNS, a refused or reset connection, a timeout, a refused tunnel). */
const UNREACHABLE =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b|upstream unreachable|Could not reach|fetch failed|bad port|socket hang up|tunneling socket could not be established/i;

/** Whether a message says a service could not be reached at all (nobody refused anything). */
export function isUnreachable(message: string | undefined): boolean {
  return UNREACHABLE.test(message ?? '');
}
