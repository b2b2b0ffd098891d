/**
 * `gemini-run demo | head -3`: the reader closes its end after three lines, and the next write fails with EPIPE.
 * Node turns that into an unhandled 'error' event (a 25-line stack, exit 1) in the middle of whatever the command
 * was doing — a demo stopped half-way leaves its artifact directory empty. A closed reader ends our output, not
 * the command: later writes to that stream are dropped, and the command runs to its end, cleaning up as always.
 */

const CLOSED_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

type AnyWrite = (...args: unknown[]) => boolean;

/** Makes `stream` drop its writes, quietly, once its reader has gone. */
export function dropWritesOnceClosed(stream: NodeJS.WriteStream): void {
  let closed = false;
  const write = stream.write.bind(stream) as AnyWrite;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (!CLOSED_CODES.has(error.code ?? '')) throw error;
    closed = true;
  });
  const dropping: AnyWrite = (chunk, encoding, callback) => {
    if (!closed) return write(chunk, encoding, callback);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  };
  stream.write = dropping;
}
