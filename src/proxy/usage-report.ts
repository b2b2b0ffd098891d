/**
 * The model proxy's count of the tokens it served, as the answers go by: told to the action after each answer (at
 * most every USAGE_REPORT_MS), at once at the run's limit, where every other answer still streaming is cut.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { oneLine } from '../util/errors.js';
import { AnswerUsage, type ServedTokens, type TokenLedger } from './usage-meter.js';

/** How often at most the served count is told while answers flow (see UsageReport.soon). */
const USAGE_REPORT_MS = 250;

/** A stream that decodes an answer's content-encoding for the usage reader; null: none; undefined: unknown. */
function usageDecoder(
  encoding: string | undefined,
): zlib.Gunzip | zlib.BrotliDecompress | zlib.Unzip | null | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
    case 'deflate':
      return zlib.createUnzip();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

export class UsageReport {
  /** Model calls in flight (sent upstream, answer not yet over): cut when the limit is reached. */
  readonly inFlight = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ledger: TokenLedger,
    private readonly onUsage: ((served: ServedTokens) => void) | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** Tells the count now (at the limit, at a refusal there, at the end). */
  now(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      this.onUsage?.({ ...this.ledger.served });
    } catch {
      // Reporting must not take the answer down with it.
    }
  }

  /**
   * Tells the count after an answer, at most every USAGE_REPORT_MS: the proxy holds the limit itself, so the action
   * needs the count for its summary and its stop, not per chunk; fewer lines are less work on both sides.
   */
  soon(): void {
    this.timer ??= setTimeout(() => this.now(), USAGE_REPORT_MS);
  }

  /** The final count, if one is still to be told. */
  flush(): void {
    if (this.timer) this.now();
  }

  /** The answer to `crossing` reached the limit: every other model call still in flight ends here. */
  private limitReached(crossing: ServerResponse): void {
    this.log(
      `token limit reached: ${this.ledger.served.tokens} tokens served of ${this.ledger.limit ?? 0}; refusing further model calls`,
    );
    for (const other of this.inFlight) if (other !== crossing) other.destroy();
    this.now();
  }

  /**
   * Counts the answer `up` to a model call as its bytes go by. Each chunk is read once the loop turn that forwarded
   * it is over: the response flushes its writes on the next tick, so reading at once would delay the first byte.
   */
  meter(up: IncomingMessage, res: ServerResponse, onClose: (fn: () => void) => void): void {
    this.ledger.served.answers++;
    const usage = new AnswerUsage();
    let counted = 0;
    const feed = (chunk: Buffer): void => {
      usage.write(chunk);
      if (usage.tokens <= counted) return;
      const delta = usage.tokens - counted;
      counted = usage.tokens;
      if (this.ledger.add(delta)) this.limitReached(res);
    };
    const pending: Buffer[] = [];
    const drain = (): void => {
      for (const chunk of pending.splice(0)) feed(chunk);
    };
    const later = (chunk: Buffer): void => {
      if (pending.push(chunk) === 1) setImmediate(drain);
    };
    const decoder = usageDecoder(up.headers['content-encoding']);
    if (decoder === null) up.on('data', later);
    else if (decoder === undefined) {
      this.log(
        `an answer in content-encoding ${oneLine(String(up.headers['content-encoding'])).slice(0, 40)} is not counted`,
      );
    } else {
      // zlib works off the loop already.
      up.on('data', (c: Buffer) => decoder.write(c));
      up.once('end', () => decoder.end());
      up.once('close', () => decoder.end());
      decoder.on('data', feed);
      decoder.on('error', () => this.log('an encoded answer could not be decoded for counting'));
      decoder.once('end', () => this.soon());
    }
    // After the last chunk was read (setImmediate callbacks run in order).
    onClose(() => setImmediate(() => this.soon()));
  }
}
