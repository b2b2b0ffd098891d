/**
 * No local daemon as the agent's proxy (issue 39), with real sandboxes: a stand-in resolver daemon (an HTTP server on
 * a unix socket, mode 0666 in a directory anyone may pass, as systemd-resolved's varlink socket is) is out of the
 * agent's reach when the action is root, and when it has passwordless sudo; under the narrow sudoers rule of
 * `gemini-run setup` it cannot be hidden, and the sandbox says so. An abstract socket (`@name`: not a file) stays
 * within reach wherever the agent runs, and is reported. Each test checks the daemon first answers the action
 * itself, so a daemon that never answers cannot pass for a hidden one.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SwitchingPrivilege } from '../../src/isolation/agent-user.js';
import { localServicesCheck } from '../../src/isolation/local-services.js';
import { openSandbox, type AgentSandbox } from '../../src/isolation/sandbox.js';
import { exec } from '../../src/util/exec.js';
import { createMemoryLogger } from '../../src/util/log.js';

const asRoot = process.getuid?.() === 0;

/** A request to the abstract socket named by argv[1], its answer's body on stdout. */
const ABSTRACT_CLIENT = `require('http').get({ socketPath: '\\0' + process.argv[1], path: '/lookup?q=secret' }, (r) => r.pipe(process.stdout))`;

describe.skipIf(!asRoot)("local services' sockets and the agent", () => {
  let dir: string;
  let socket: string;
  const abstract = `gemini-run-it-resolver-${process.pid}`;
  const reached: string[] = [];
  const servers: Server[] = [];
  const listenOn = async (path: string, name: string): Promise<void> => {
    const s = createServer((req, res) => {
      reached.push(`${name} ${req.url ?? ''}`);
      res.end('RESOLVED\n');
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(path, r));
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-run-resolver-'));
    await chmod(dir, 0o755);
    socket = join(dir, 'io.systemd.Resolve');
    await listenOn(socket, 'resolver');
    await chmod(socket, 0o666);
    await listenOn(`\0${abstract}`, 'abstract');
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  const curl = (target: string[]) => ['curl', '-s', '-m', '3', ...target, 'http://resolver/lookup?q=secret'];
  /** The action's own request to the daemon. */
  const ours = () => exec('curl', curl(['--unix-socket', socket]).slice(1));

  async function asAgent(s: AgentSandbox, argv: string[]) {
    const [file, ...args] = [...s.runAs, 'env', '-i', `PATH=${process.env.PATH ?? ''}`, ...argv];
    return exec(file as string, args, { allowAllExitCodes: true, timeoutMs: 20_000 });
  }

  async function withSandbox(
    privilege: SwitchingPrivilege,
    fn: (s: AgentSandbox, log: string[]) => Promise<void>,
  ) {
    const parent = await mkdtemp(join(tmpdir(), 'gemini-run-services-'));
    const log = createMemoryLogger();
    const s = await openSandbox({
      parentDir: parent,
      worktree: parent,
      reach: [process.execPath],
      log,
      privilege,
    });
    try {
      await fn(s, log.lines);
    } finally {
      await s.close();
      await rm(parent, { recursive: true, force: true });
    }
  }

  for (const privilege of ['root', 'sudo'] as const) {
    it(`as ${privilege === 'root' ? 'root' : 'a user with passwordless sudo'}: the resolver's socket is hidden, the abstract one is reported`, async () => {
      // The daemon answers whoever reaches it: the action itself, here.
      expect((await ours()).stdout).toBe('RESOLVED\n');
      reached.length = 0;
      await withSandbox(privilege, async (s, log) => {
        expect(s.localServices.hidden).toContain(socket);
        expect(s.localServices.unavailable).toBeUndefined();
        expect(s.localServices.abstract).toContain(`@${abstract}`);
        expect(log.join('\n')).toMatch(
          /mount namespace of their own with \d+ local service socket\(s\) hidden/,
        );
        expect(log.join('\n')).toContain(`abstract unix socket(s) are bound on this host`);

        const path = await asAgent(s, [
          'sh',
          '-c',
          `${curl(['--unix-socket', socket]).join(' ')}; echo "exit $?"`,
        ]);
        expect(path.stdout).toBe('exit 7\n');
        // Covered by /dev/null in its namespace: the agent cannot see a socket there at all.
        expect((await asAgent(s, ['test', '-S', socket])).exitCode).toBe(1);
        // The agent is who it should be, and the cover is not the host's: the action still reaches the daemon.
        expect((await asAgent(s, ['id', '-u'])).stdout.trim()).toBe(String(s.user.uid));
        expect((await ours()).stdout).toBe('RESOLVED\n');
        // Out of reach of a mount namespace, and said so: the agent reaches the abstract socket (with node, which
        // pads the name the way the server's node bound it).
        const abs = await asAgent(s, [process.execPath, '-e', ABSTRACT_CLIENT, abstract]);
        expect(abs.stdout).toBe('RESOLVED\n');
      });
      // The action's own second request and the abstract one: never the agent's through the covered socket.
      expect(reached).toEqual(['resolver /lookup?q=secret', 'abstract /lookup?q=secret']);
    });
  }

  it('under the narrow sudoers rule nothing can be hidden: the sandbox says which sockets stay reachable', async () => {
    reached.length = 0;
    await withSandbox('agent-sudo', async (s, log) => {
      expect(s.localServices.hidden).toEqual([]);
      expect(s.localServices.reachable).toContain(socket);
      expect(s.localServices.unavailable).toMatch(/not become root/);
      expect(log.join('\n')).toMatch(
        /warning: The agent can reach \d+ local service socket\(s\) \(.*io\.systemd\.Resolve/,
      );
      const path = await asAgent(s, curl(['--unix-socket', socket]));
      expect(path.stdout).toBe('RESOLVED\n');
    });
    expect(reached).toEqual(['resolver /lookup?q=secret']);
  });

  it('doctor says whether the sockets would be hidden, and names the abstract ones', async () => {
    const root = await localServicesCheck('root');
    expect(root.status).toBe('warn');
    expect(root.detail).toMatch(
      /^\d+ local service socket\(s\) \(.*\) hidden from the agent in a mount namespace/,
    );
    expect(root.detail).toMatch(/\d+ abstract socket\(s\) \(.*\) stay within its reach/);
    const narrow = await localServicesCheck('agent-sudo');
    expect(narrow.status).toBe('warn');
    expect(narrow.detail).toMatch(
      /^the agent could reach \d+ local service socket\(s\) \(.*\): the runner may start/,
    );
    expect(narrow.fix).toMatch(/root or with passwordless sudo/);
  });

  it('a host that refuses a mount namespace (a container without CAP_SYS_ADMIN): uncovered, and said why', async () => {
    // An unshare that fails as the real one does there, first on the PATH of this test process only.
    const bin = await mkdtemp(join(tmpdir(), 'gemini-run-no-unshare-'));
    await writeFile(
      join(bin, 'unshare'),
      "#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n",
      { mode: 0o755 },
    );
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ''}`;
    try {
      await withSandbox('root', async (s, log) => {
        expect(s.localServices.hidden).toEqual([]);
        expect(s.localServices.reachable).toContain(socket);
        expect(s.localServices.unavailable).toBe(
          'no mount namespace for the agent here (unshare: unshare failed: Operation not permitted)',
        );
        expect(log.join('\n')).toMatch(/warning: The agent can reach \d+ local service socket\(s\)/);
        expect((await asAgent(s, ['id', '-u'])).stdout.trim()).toBe(String(s.user.uid));
      });
    } finally {
      process.env.PATH = path;
      await rm(bin, { recursive: true, force: true });
    }
  });
});
