/**
 * Proves that runs overlap without timing them: each run talks to its fake model through a gate that holds the
 * run's first model request until every run has sent one. Then all of them were alive and waiting on the model
 * at once, however slowly a loaded machine started them; a run that never sends one opens the gate only after
 * `timeoutMs`, and `complete` says so.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class ModelGate implements AsyncDisposable {
  /** How many runs have sent their first model request. */
  arrived = 0;
  private open!: () => void;
  private readonly opened: Promise<void>;
  private readonly servers: Server[] = [];
  /** True once every run sent its first model request while the others waited. */
  complete = false;

  constructor(
    private readonly runs: number,
    timeoutMs: number,
  ) {
    this.opened = new Promise<void>((resolve) => (this.open = resolve));
    const timer = setTimeout(() => this.open(), timeoutMs);
    void this.opened.then(() => clearTimeout(timer));
  }

  private async arrive(): Promise<void> {
    if (++this.arrived === this.runs) {
      this.complete = true;
      this.open();
    }
    await this.opened;
  }

  /** A URL that forwards to `upstream` (http), holding the first generateContent request at the gate. */
  async front(upstream: string): Promise<string> {
    const target = new URL(upstream);
    let first = true;
    const server = createServer((req, res) => {
      const model = req.method === 'POST' && /generatecontent/i.test(req.url ?? '');
      const held = model && first ? this.arrive() : Promise.resolve();
      if (model) first = false;
      void held.then(() => {
        const out = request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
          },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        out.on('error', () => res.destroy());
        req.pipe(out);
      });
    });
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.open();
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.closeAllConnections();
            s.close(() => resolve());
          }),
      ),
    );
  }
}
