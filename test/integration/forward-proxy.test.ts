/**
 * The forward proxy against an agent that turns allowed names inwards (issue 39): a plain-HTTP request for an
 * allowed host that names another in its Host header (domain fronting), allowed names that resolve to loopback,
 * link-local (cloud metadata), private addresses — through the real resolver (`localhost`, literals in the forms
 * getaddrinfo reads: `0177.0.0.1`, `2130706433`, `[::ffff:127.0.0.1]`) and through the resolver hook — and a name
 * only the proxy's one lookup knows (the connection makes no second one). Real sockets on loopback; no iptables.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardProxy, type ForwardProxy } from '../../src/proxy/forward-proxy.js';

const reached: string[] = [];
const servers: Server[] = [];
const proxies: ForwardProxy[] = [];
let port = 0;
let port3 = 0;

async function listen(host: string): Promise<number> {
  const s = createServer((req: IncomingMessage, res) => {
    reached.push(`${host} ${req.headers.host ?? '-'} ${req.url ?? ''}`);
    res.end('REACHED');
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, host, r));
  return (s.address() as AddressInfo).port;
}

async function proxy(allowed: string[], resolve?: (h: string) => string | undefined): Promise<ForwardProxy> {
  const p = await startForwardProxy({ allowed, ...(resolve ? { resolve } : {}) });
  proxies.push(p);
  return p;
}

/** One raw request on a fresh socket to the proxy; the whole answer as text. */
function raw(p: ForwardProxy, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect({ host: '127.0.0.1', port: p.port }, () => s.write(text));
    s.on('data', (c: Buffer) => {
      chunks.push(c);
      // A CONNECT that was let through stays open: its status line is all there is to read.
      if (Buffer.concat(chunks).toString().startsWith('HTTP/1.1 200 Connection Established')) s.destroy();
    });
    s.on('close', () => resolve(Buffer.concat(chunks).toString()));
    s.on('error', reject);
  });
}

const get = (url: string, ...headers: string[]) =>
  `GET ${url} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`;
/** A well-formed request: its Host header is its URL's authority. */
const fetchOf = (url: string) => get(url, `Host: ${new URL(url).host}`);
const connectTo = (authority: string) => `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`;
const status = (answer: string) => answer.split('\r\n')[0];

beforeAll(async () => {
  port = await listen('127.0.0.1');
  port3 = await listen('127.0.0.3');
});

afterAll(async () => {
  for (const p of proxies) await p.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

describe('forward proxy: the Host header is the URL’s host', () => {
  it('refuses a request for an allowed host that names another in Host, or two; lets the same one through', async () => {
    const p = await proxy(['allowed.test', '127.0.0.1'], (h) =>
      h === 'allowed.test' ? '127.0.0.1' : undefined,
    );
    const url = `http://allowed.test:${port}/x`;
    const before = reached.length;
    for (const headers of [
      ['Host: evil.example'],
      [`Host: evil.example:${port}`],
      ['Host: allowed.test'],
      [`Host: allowed.test:${port}`, 'Host: evil.example'],
      [`Host: allowed.test:${port}@evil.example`],
      [`Host: 127.0.0.1:${port}`],
    ]) {
      const a = await raw(p, get(url, ...headers));
      expect(status(a), headers.join(' + ')).toBe('HTTP/1.1 403 Forbidden');
      expect(a).toContain('may not name another host in its Host header');
    }
    expect(reached.length).toBe(before);
    expect(p.blocked()).toEqual([
      expect.objectContaining({ host: 'allowed.test', port, why: 'host header', count: 6 }),
    ]);
    // The same authority, spelled another way, or none at all (HTTP/1.0): passed on, with the URL's authority.
    for (const request of [
      get(url, `Host: ALLOWED.test:${port}`),
      get(url, `host:  allowed.test.:${port} `),
      `GET ${url} HTTP/1.0\r\n\r\n`,
    ]) {
      const a = await raw(p, request);
      expect(a, request).toMatch(/^HTTP\/1\.[01] 200 OK/);
      expect(reached.at(-1)).toBe(`127.0.0.1 allowed.test:${port} /x`);
    }
  });

  it('takes port 80 as the default on both sides', async () => {
    const p = await proxy(['allowed.test'], () => '127.0.0.1');
    expect(status(await raw(p, get('http://allowed.test/', 'Host: other.test')))).toBe(
      'HTTP/1.1 403 Forbidden',
    );
    // Past the Host check; then refused for its (loopback) address.
    const a = await raw(p, get('http://allowed.test/', 'Host: allowed.test:80'));
    expect(a).toContain('resolves to 127.0.0.1 (loopback)');
  });
});

describe('forward proxy: allowed names are connected only outwards', () => {
  it('refuses names the real resolver puts on loopback, in every form it reads, unless the address is named', async () => {
    const p = await proxy(['localhost', '0177.0.0.1', '2130706433', '::ffff:127.0.0.2']);
    const before = reached.length;
    for (const authority of [`localhost:${port}`, `0177.0.0.1:${port}`, `2130706433:${port}`]) {
      const a = await raw(p, connectTo(authority));
      expect(status(a), authority).toBe('HTTP/1.1 403 Forbidden');
      expect(a).toMatch(/resolves to 127\.0\.0\.1 \(loopback\)/);
    }
    const plain = await raw(p, fetchOf(`http://localhost:${port}/`));
    expect(status(plain)).toBe('HTTP/1.1 403 Forbidden');
    expect(reached.length).toBe(before);
    expect(p.blocked().map((b) => `${b.host} ${b.why} ${b.count}`)).toEqual(
      expect.arrayContaining(['localhost inward address 2', '2130706433 inward address 1']),
    );
    // A named address is the workflow's choice: `127.0.0.1` lets `localhost` reach it.
    const named = await proxy(['localhost', '127.0.0.1', '::1']);
    expect(status(await raw(named, connectTo(`localhost:${port}`)))).toBe(
      'HTTP/1.1 200 Connection Established',
    );
    expect(status(await raw(named, fetchOf(`http://localhost:${port}/named`)))).toBe('HTTP/1.1 200 OK');
    expect(reached.at(-1)).toBe(`127.0.0.1 localhost:${port} /named`);
    // The mapped spelling of a named address is that address.
    expect(status(await raw(named, connectTo(`[::ffff:127.0.0.1]:${port}`)))).toBe(
      'HTTP/1.1 200 Connection Established',
    );
  });

  it('refuses metadata, link-local and private answers of a hostile resolver, and looks up once', async () => {
    const lookups: string[] = [];
    const answers: Record<string, string> = {
      'metadata.test': '169.254.169.254',
      'v6meta.test': 'fd00:ec2::254',
      'private.test': '10.0.0.7',
      'cgnat.test': '100.100.100.200',
      'mapped.test': '::ffff:192.168.0.1',
      'rebind.test': '127.0.0.3',
    };
    const p = await proxy(['*.test', '127.0.0.3'], (h) => {
      lookups.push(h);
      return answers[h];
    });
    for (const name of ['metadata', 'v6meta', 'private', 'cgnat', 'mapped']) {
      const a = await raw(p, connectTo(`${name}.test:80`));
      expect(status(a), name).toBe('HTTP/1.1 403 Forbidden');
      expect(a).toContain(`resolves to ${answers[`${name}.test`]!.replace('::ffff:', '')}`);
    }
    // Only the proxy's lookup knows rebind.test (the system's resolver does not): the connection goes to the
    // address it checked, with no lookup of its own.
    expect(status(await raw(p, connectTo(`rebind.test:${port3}`)))).toBe(
      'HTTP/1.1 200 Connection Established',
    );
    const a = await raw(p, fetchOf(`http://rebind.test:${port3}/r`));
    expect(status(a)).toBe('HTTP/1.1 200 OK');
    expect(reached.at(-1)).toBe(`127.0.0.3 rebind.test:${port3} /r`);
    expect(lookups.filter((h) => h === 'rebind.test')).toHaveLength(2);
  });
});
