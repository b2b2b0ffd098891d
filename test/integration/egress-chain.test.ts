/**
 * The forward proxy behind a corporate proxy (issue 28): on a runner that may only go out through HTTPS_PROXY /
 * HTTP_PROXY, an allowed host is reached through it — CONNECT inside its CONNECT, plain HTTP in absolute form —
 * with the credentials of its URL; NO_PROXY goes direct; a refused host never reaches it; a tunnel it refuses is
 * the agent's 502 with its status. Real curl as the agent, a real corporate proxy stand-in on loopback.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardProxy, type ForwardProxy } from '../../src/proxy/forward-proxy.js';
import { exec } from '../../src/util/exec.js';

const AUTH = `Basic ${Buffer.from('corp:s3cret').toString('base64')}`;
const servers: Server[] = [];
const seen: string[] = [];
let targetPort = 0;
let corpPort = 0;

async function listen(s: Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

/** The corporate proxy stand-in: it knows the `.example` names (they are the target), and wants its credentials. */
function corporateProxy(): Server {
  const resolve = (host: string) => (host.endsWith('.example') ? '127.0.0.1' : host);
  const s = createServer((req: IncomingMessage, res) => {
    seen.push(`GET ${req.url} ${req.headers['proxy-authorization'] === AUTH ? 'auth' : 'no-auth'}`);
    if (req.headers['proxy-authorization'] !== AUTH) return void res.writeHead(407).end();
    const url = new URL(req.url ?? '');
    const up = request({ host: resolve(url.hostname), port: url.port, path: url.pathname }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.end();
  });
  s.on('connect', (req: IncomingMessage, client: Socket) => {
    seen.push(`CONNECT ${req.url} ${req.headers['proxy-authorization'] === AUTH ? 'auth' : 'no-auth'}`);
    if (req.headers['proxy-authorization'] !== AUTH)
      return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
    const [host = '', port = ''] = (req.url ?? '').split(':');
    const up = connect({ host: resolve(host), port: Number(port) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.pipe(client);
      client.pipe(up);
    });
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  return s;
}

const proxies: ForwardProxy[] = [];
async function forward(env: NodeJS.ProcessEnv): Promise<ForwardProxy> {
  const p = await startForwardProxy({
    // The target is a loopback server: its address is named, as a workflow would name an inward one.
    allowed: ['allowed.example', 'direct.example', '127.0.0.1'],
    env,
    resolve: (h) => (h === 'direct.example' ? '127.0.0.1' : undefined),
  });
  proxies.push(p);
  return p;
}

async function curl(proxy: ForwardProxy, url: string, tunnel = false): Promise<string> {
  const r = await exec(
    'curl',
    ['-s', '-m', '10', ...(tunnel ? ['-p'] : []), '-x', proxy.url, '-w', ' %{http_code}', url],
    { allowAllExitCodes: true, env: { PATH: process.env.PATH ?? '' } },
  );
  return r.stdout.trim();
}

/** The proxy's whole answer to a CONNECT, as the agent's socket reads it. */
function rawConnect(port: number, authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect({ host: '127.0.0.1', port }, () =>
      s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('end', () => resolve(Buffer.concat(chunks).toString()));
    s.on('error', reject);
  });
}

beforeAll(async () => {
  targetPort = await listen(createServer((req, res) => res.end(`REACHED ${req.url}`)));
  corpPort = await listen(corporateProxy());
});
afterAll(async () => {
  for (const p of proxies) await p.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

describe('the forward proxy behind a corporate proxy', () => {
  it('passes allowed hosts through it with its credentials, NO_PROXY direct, refused ones never', async () => {
    const corp = `http://corp:s3cret@127.0.0.1:${corpPort}`;
    const p = await forward({ HTTPS_PROXY: corp, HTTP_PROXY: corp, NO_PROXY: 'direct.example' });
    seen.length = 0;
    expect(await curl(p, `http://allowed.example:${targetPort}/tunnel`, true)).toBe('REACHED /tunnel 200');
    expect(await curl(p, `http://allowed.example:${targetPort}/plain`)).toBe('REACHED /plain 200');
    expect(await curl(p, `http://direct.example:${targetPort}/direct`, true)).toBe('REACHED /direct 200');
    // A refused CONNECT: curl gives no HTTP code of its own (000); the proxy counted it.
    expect(await curl(p, 'http://evil.example/', true)).toBe('000');
    expect(await curl(p, 'http://evil.example/')).toMatch(/not an allowed host of this run.* 403$/s);
    expect(seen).toEqual([
      `CONNECT allowed.example:${targetPort} auth`,
      `GET http://allowed.example:${targetPort}/plain auth`,
    ]);
    expect(p.blocked()).toMatchObject([{ host: 'evil.example', port: 80, count: 2 }]);
  });

  it("a tunnel the corporate proxy refuses is the agent's 502, with its status", async () => {
    const p = await forward({ HTTPS_PROXY: `http://corp:wrong@127.0.0.1:${corpPort}` });
    seen.length = 0;
    const answer = await rawConnect(p.port, `allowed.example:${targetPort}`);
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(answer).toContain("the runner's proxy answered 407 to the tunnel");
    expect(answer).not.toContain('wrong');
    expect(seen).toEqual([`CONNECT allowed.example:${targetPort} no-auth`]);
  });
});
