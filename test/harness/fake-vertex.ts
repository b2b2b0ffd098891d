/**
 * A fake Vertex AI endpoint for the REAL gemini 0.42.0 (GOOGLE_VERTEX_BASE_URL, vertex-ai auth). It records
 * every request with its headers and plays a FakeGemini script: the Vertex publisher-model paths the CLI calls
 * (measured: `POST /v1beta1/projects/<p>/locations/<l>/publishers/google/models/<m>:streamGenerateContent?alt=sse`,
 * plus `:generateContent` and `:countTokens`) are rewritten to the Gemini API paths FakeGemini serves; the
 * response shapes are the same on both APIs.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { FakeGemini, type Script } from '../../src/fake/gemini-api.js';

export interface VertexRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The FakeGemini path it was served as; undefined when it was not a Vertex model call (404). */
  servedAs?: string;
}

const MODEL_PATH =
  /^\/v1(?:beta1)?\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:?]+):([A-Za-z]+)(\?.*)?$/;

/** The Gemini API path for a Vertex publisher-model path, or undefined. Exported for tests. */
export function geminiPathFor(vertexPath: string): string | undefined {
  const m = MODEL_PATH.exec(vertexPath);
  return m ? `/v1beta/models/${m[3]}:${m[4]}${m[5] ?? ''}` : undefined;
}

export class FakeVertex {
  private constructor(
    private readonly server: http.Server,
    readonly gemini: FakeGemini,
    readonly url: string,
    /** Every request, in order. */
    readonly requests: VertexRequest[],
  ) {}

  static async start(script: Script): Promise<FakeVertex> {
    const gemini = await FakeGemini.start(script);
    const target = new URL(gemini.url);
    const agent = new http.Agent({ keepAlive: false });
    const requests: VertexRequest[] = [];
    const server = http.createServer((req, res) => {
      const rec: VertexRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers };
      requests.push(rec);
      const path = geminiPathFor(rec.path);
      if (!path) {
        req.resume();
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 404, message: `not a model call: ${rec.path}`, status: 'NOT_FOUND' },
          }),
        );
        return;
      }
      rec.servedAs = path;
      const up = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path,
          agent,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          pipeline(r, res, () => undefined);
        },
      );
      up.on('error', () => res.destroy());
      pipeline(req, up, () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return new FakeVertex(
      server,
      gemini,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests,
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
    await this.gemini.close();
  }
}
