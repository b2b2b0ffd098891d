/**
 * network: restricted / none with the real parts: the forward proxy, the iptables/ip6tables chain of the run, and
 * an attacker running as the agent's uid through the sandbox. "Outside" is 127.0.0.2 and ::1 (not the proxies'
 * address); host names resolve through the forward proxy's own hook. Only agent uids are ever matched by a rule,
 * and every chain is removed after each test, so a failure here cannot cut this machine's network.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEgress, type Egress } from '../../src/host/egress.js';
import { openSandbox, type AgentSandbox } from '../../src/isolation/sandbox.js';
import { exec } from '../../src/util/exec.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { ACTION_NODE, ROOT } from '../harness/action-job.js';

const asRoot = process.getuid?.() === 0;

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as AddressInfo).port;
}

function hello(text: string): Server {
  return createServer((_, res) => res.end(text));
}

async function iptablesListing(): Promise<string> {
  const v4 = await exec('iptables', ['-w', '10', '-S'], { allowAllExitCodes: true });
  const v6 = await exec('ip6tables', ['-w', '10', '-S'], { allowAllExitCodes: true });
  return v4.stdout + v6.stdout;
}

/** A UDP "resolver" that answers anything: a reply means the query got out. */
async function fakeResolver(): Promise<{ socket: UdpSocket; port: number; queries: () => number }> {
  const socket = createSocket('udp4');
  let n = 0;
  socket.on('message', (msg, from) => {
    n++;
    socket.send(msg, from.port, from.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.2', r));
  return { socket, port: socket.address().port, queries: () => n };
}

const DNS_QUERY = (port: number) =>
  `const s=require('dgram').createSocket('udp4');s.on('message',()=>{console.log('ANSWERED');process.exit(0)});s.on('error',e=>{console.log('ERR '+e.code);process.exit(1)});s.send(Buffer.from('q'),${port},'127.0.0.2');setTimeout(()=>{console.log('TIMEOUT');process.exit(1)},1500)`;

describe.skipIf(!asRoot)('egress (as root: iptables on the agent uid)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  });

  async function sandbox(): Promise<AgentSandbox> {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-run-egress-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const s = await openSandbox({
      parentDir: dir,
      worktree: dir,
      reach: [process.execPath],
      log: createMemoryLogger(),
      privilege: 'root',
    });
    cleanups.push(() => s.close());
    return s;
  }

  async function asAgent(s: AgentSandbox, argv: string[], env: Record<string, string> = {}) {
    const [file, ...args] = [
      ...s.runAs,
      'env',
      '-i',
      `PATH=${process.env.PATH ?? ''}`,
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      ...argv,
    ];
    return exec(file as string, args, { allowAllExitCodes: true, timeoutMs: 20_000 });
  }

  const curl = (url: string, extra: string[] = []) => ['curl', '-sS', '--max-time', '5', ...extra, url];

  it('restricted: allowed names through the proxy, everything else refused and listed; rules gone after', async () => {
    const outside = hello('OUTSIDE-REACHED');
    const outsidePort = await listen(outside, '127.0.0.2');
    const allowedSrv = hello('ALLOWED-REACHED');
    const allowedPort = await listen(allowedSrv, '127.0.0.2');
    const otherLoopback = hello('LOOPBACK-REACHED');
    const otherPort = await listen(otherLoopback, '127.0.0.1');
    const v6 = hello('IPV6-REACHED');
    const v6Port = await listen(v6, '::1');
    const model = hello('MODEL-REACHED');
    const modelPort = await listen(model, '127.0.0.1');
    const resolver = await fakeResolver();
    for (const s of [outside, allowedSrv, otherLoopback, v6, model])
      cleanups.push(() => new Promise((r) => s.close(r)));
    cleanups.push(() => new Promise<void>((r) => resolver.socket.close(() => r())));

    const agent = await sandbox();
    const log = createMemoryLogger();
    const egress: Egress = await openEgress({
      policy: {
        mode: 'restricted',
        // 127.0.0.2 stands in for the internet: named, as a workflow names an address inside the runner.
        allowedHosts: ['allowed.test', '127.0.0.2'],
        resolve: (h) => (h.endsWith('.test') ? '127.0.0.2' : undefined),
      },
      sandbox: agent,
      modelPort,
      log,
    });
    cleanups.push(() => egress.close());
    const proxy = egress.proxyUrl as string;
    const env = { https_proxy: proxy, http_proxy: proxy, no_proxy: '127.0.0.1' };

    const allowed = await asAgent(agent, curl(`http://allowed.test:${allowedPort}/`), env);
    expect(allowed.stdout).toBe('ALLOWED-REACHED');
    const tunnelled = await asAgent(
      agent,
      curl(`http://allowed.test:${allowedPort}/`, ['--proxytunnel']),
      env,
    );
    expect(tunnelled.stdout).toBe('ALLOWED-REACHED');

    const evil = await asAgent(agent, curl(`http://evil.test:${outsidePort}/`, ['-w', '%{http_code}']), env);
    expect(evil.stdout).toContain('not an allowed host');
    expect(evil.stdout).toContain('403');
    const evilTls = await asAgent(agent, curl(`https://evil.test:${outsidePort}/`), env);
    expect(evilTls.exitCode).not.toBe(0);

    const raw = await asAgent(agent, curl(`http://127.0.0.2:${outsidePort}/`, ['--noproxy', '*']));
    expect(raw.stdout).not.toContain('OUTSIDE-REACHED');
    expect(raw.exitCode).not.toBe(0);
    const loop = await asAgent(agent, curl(`http://127.0.0.1:${otherPort}/`, ['--noproxy', '*']));
    expect(loop.stdout).not.toContain('LOOPBACK-REACHED');
    const ipv6 = await asAgent(agent, curl(`http://[::1]:${v6Port}/`, ['-g', '--noproxy', '*']));
    expect(ipv6.stdout).not.toContain('IPV6-REACHED');
    const dns = await asAgent(agent, [process.execPath, '-e', DNS_QUERY(resolver.port)]);
    expect(dns.stdout).not.toContain('ANSWERED');
    expect(resolver.queries()).toBe(0);

    const modelCall = await asAgent(agent, curl(`http://127.0.0.1:${modelPort}/`, ['--noproxy', '*']));
    expect(modelCall.stdout).toBe('MODEL-REACHED');
    // A client that sends everything to HTTP_PROXY still reaches the model proxy.
    const modelViaProxy = await asAgent(agent, curl(`http://127.0.0.1:${modelPort}/`, ['-x', proxy]));
    expect(modelViaProxy.stdout).toBe('MODEL-REACHED');

    expect(egress.blockedCount()).toBe(2);
    // This run's chain: the listing is the host's, where other runs (other test files) may have theirs.
    const chain = (await iptablesListing()).match(new RegExp(`GEMINI-RUN-${agent.user.uid}-[0-9a-f]+`))?.[0];
    expect(chain).toBeDefined();
    const report = await egress.close();
    expect(report?.blocked).toEqual([
      expect.objectContaining({ host: 'evil.test', port: outsidePort, count: 2 }),
    ]);
    // raw, other loopback, IPv6: one reset each; DNS: one ICMP-refused datagram.
    expect(report?.droppedPackets).toBeGreaterThanOrEqual(4);
    // And each of them by name: address, port, attempts.
    expect(report?.droppedTo).toEqual(
      expect.arrayContaining([
        { address: '127.0.0.2', port: outsidePort, count: 1 },
        { address: '127.0.0.1', port: otherPort, count: 1 },
        { address: '::1', port: v6Port, count: 1 },
        { address: '127.0.0.2', port: resolver.port, count: 1 },
      ]),
    );
    expect(report?.droppedTo).toHaveLength(4);
    expect(await iptablesListing()).not.toContain(chain);
  });

  it('none: only the model proxy answers; two runs keep their own rules', async () => {
    const model = hello('MODEL-REACHED');
    const modelPort = await listen(model, '127.0.0.1');
    const outside = hello('OUTSIDE-REACHED');
    const outsidePort = await listen(outside, '127.0.0.2');
    for (const s of [model, outside]) cleanups.push(() => new Promise((r) => s.close(r)));
    const [a, b] = [await sandbox(), await sandbox()];
    const log = createMemoryLogger();
    const ea = await openEgress({ policy: { mode: 'none', allowedHosts: [] }, sandbox: a, modelPort, log });
    cleanups.push(() => ea.close());
    const eb = await openEgress({ policy: { mode: 'none', allowedHosts: [] }, sandbox: b, modelPort, log });
    cleanups.push(() => eb.close());
    expect(ea.proxyUrl).toBeUndefined();

    expect((await asAgent(a, curl(`http://127.0.0.1:${modelPort}/`))).stdout).toBe('MODEL-REACHED');
    expect((await asAgent(a, curl(`http://127.0.0.2:${outsidePort}/`))).stdout).not.toContain('OUTSIDE');

    const before = await iptablesListing();
    const chains = [...new Set(before.match(/GEMINI-RUN-\d+-[0-9a-f]+/g))];
    expect(chains.filter((c) => c.startsWith(`GEMINI-RUN-${a.user.uid}-`))).toHaveLength(1);
    expect(chains.filter((c) => c.startsWith(`GEMINI-RUN-${b.user.uid}-`))).toHaveLength(1);

    await ea.close();
    const after = await iptablesListing();
    expect(after).not.toContain(`GEMINI-RUN-${a.user.uid}-`);
    expect(after).toContain(`GEMINI-RUN-${b.user.uid}-`);
    // b is still fenced after a's rules went.
    expect((await asAgent(b, curl(`http://127.0.0.2:${outsidePort}/`))).stdout).not.toContain('OUTSIDE');
    expect((await asAgent(a, curl(`http://127.0.0.2:${outsidePort}/`))).stdout).toBe('OUTSIDE-REACHED');
  });
});

describe.skipIf(!asRoot)('egress: the post step after a main step that died', () => {
  it("removes the dead run's chain (and only it) from the saved state", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-run-egress-post-'));
    const agent = await openSandbox({
      parentDir: dir,
      worktree: dir,
      reach: [process.execPath],
      log: createMemoryLogger(),
      privilege: 'root',
    });
    let saved = '';
    // A second run's filter, which the post step must leave alone.
    const other = await openSandbox({
      parentDir: dir,
      worktree: dir,
      reach: [process.execPath],
      log: createMemoryLogger(),
      privilege: 'root',
    });
    const log = createMemoryLogger();
    const dead = await openEgress({
      policy: { mode: 'none', allowedHosts: [] },
      sandbox: agent,
      modelPort: 9,
      log,
      onFilter: (s) => (saved = s ? JSON.stringify(s) : ''),
    });
    const alive = await openEgress({
      policy: { mode: 'none', allowedHosts: [] },
      sandbox: other,
      modelPort: 9,
      log,
    });
    try {
      const chain = (JSON.parse(saved) as { chain: string }).chain;
      expect(await iptablesListing()).toContain(chain);
      const post = await exec(ACTION_NODE, [join(ROOT, 'dist', 'post.js')], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, STATE_egress: saved },
        allowAllExitCodes: true,
      });
      expect(post.exitCode, post.stderr).toBe(0);
      expect(post.stdout).toContain(`Removed the agent's packet filter (${chain}).`);
      const after = await iptablesListing();
      expect(after).not.toContain(chain);
      expect(after).toContain(`GEMINI-RUN-${other.user.uid}-`);
    } finally {
      await dead.close();
      await alive.close();
      await agent.close();
      await other.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
