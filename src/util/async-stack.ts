/**
 * The part of AsyncDisposableStack a run needs, on the Node 20 the tests run on (the action runs on Node 24,
 * which has the real one): whatever was opened is closed in reverse order, every closer runs even when an
 * earlier one throws, and the body's own error is the one that surfaces.
 */
export class AsyncStack {
  private readonly closers: (() => Promise<void> | void)[] = [];

  /** `close` runs when the stack closes, before everything deferred earlier. */
  defer(close: () => Promise<void> | void): void {
    this.closers.push(close);
  }

  /** Runs every closer, last deferred first, each once; the first error is thrown after all of them ran. */
  async close(): Promise<void> {
    const errors: unknown[] = [];
    for (let close = this.closers.pop(); close; close = this.closers.pop()) {
      try {
        await close();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}

/**
 * Runs `body` with a fresh stack and closes the stack on every path. When the body throws, its error wins over
 * a closer's (which is dropped, as the body's failure is the one to report).
 */
export async function withStack<T>(body: (stack: AsyncStack) => Promise<T>): Promise<T> {
  const stack = new AsyncStack();
  let value: T;
  try {
    value = await body(stack);
  } catch (error) {
    await stack.close().catch(() => undefined);
    throw error;
  }
  await stack.close();
  return value;
}
