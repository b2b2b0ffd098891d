/**
 * The download's progress bar, on a terminal only (stderr, so stdout stays the report's): one line redrawn in
 * place, at most every 100 ms and at the end. Off a terminal it draws nothing; the command says what it did once.
 */
import type { Progress } from './gather.js';

const WIDTH = 30;

export function terminalProgress(out: NodeJS.WritableStream & { isTTY?: boolean }, label: string): Progress {
  if (!out.isTTY) return { start() {}, tick() {}, done() {} };
  let total = 0;
  let done = 0;
  let drawnAt = 0;
  const draw = () => {
    drawnAt = Date.now();
    const filled = total ? Math.round((done / total) * WIDTH) : WIDTH;
    out.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total}`);
  };
  return {
    start(n) {
      total = n;
      draw();
    },
    tick() {
      done++;
      if (done === total || Date.now() - drawnAt >= 100) draw();
    },
    done() {
      draw();
      out.write('\n');
    },
  };
}
