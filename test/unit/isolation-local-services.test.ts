/**
 * Local services' sockets and the agent (issue 39), the pure parts: which bound names a /proc/net/unix listing
 * holds, which sockets the agent could connect to by their modes, how the agent's processes start in a mount
 * namespace of their own, and what the job summary says when something stays within its reach. The namespace
 * itself, with a stand-in resolver daemon, is tested in test/integration/local-services.test.ts and end to end in
 * test/e2e/action-boundary-network.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { boundSockets, coveredRunAs, reachableByMode } from '../../src/isolation/local-services.js';
import { renderSummary } from '../../src/run/report.js';
import type { RunResult } from '../../src/run/types.js';

const LISTING = `Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 20117 /run/systemd/resolve/io.systemd.Resolve
0000000000000000: 00000003 00000000 00000000 0001 03 20200 /run/systemd/resolve/io.systemd.Resolve
0000000000000000: 00000002 00000000 00010000 0001 01 18880 /run/dbus/system_bus_socket
0000000000000000: 00000002 00000000 00000000 0002 01 12345 /run/systemd/journal/dev-log
0000000000000000: 00000002 00000000 00010000 0001 01 30000 @/containerd-shim/abc.sock@
0000000000000000: 00000002 00000000 00010000 0001 01 30001 /tmp/a dir/with space.sock
0000000000000000: 00000003 00000000 00000000 0001 03 30002
0000000000000000: 00000002 00000000 00010000 0001 01 30003 relative.sock
0000000000000000: 00000002 00000000 00010000 0001 01 30004 @padded@@@@@@@@
`;

describe('local services (pure)', () => {
  it('reads every bound path and abstract name of a /proc/net/unix listing once', () => {
    expect(boundSockets(LISTING)).toEqual({
      paths: [
        '/run/systemd/resolve/io.systemd.Resolve',
        '/run/dbus/system_bus_socket',
        '/run/systemd/journal/dev-log',
        '/tmp/a dir/with space.sock',
      ],
      abstract: ['@/containerd-shim/abc.sock', '@padded'],
    });
    expect(boundSockets('')).toEqual({ paths: [], abstract: [] });
  });

  it('counts a socket as within reach when its group or other class may write and every directory be passed', () => {
    expect(reachableByMode(0o140666, [0o40755, 0o40755])).toBe(true);
    // docker's: root:docker 0660; the agent is not in the group, but an ACL entry would show in the group class.
    expect(reachableByMode(0o140660, [0o40755])).toBe(true);
    expect(reachableByMode(0o140600, [0o40755])).toBe(false);
    expect(reachableByMode(0o140666, [0o40700, 0o40755])).toBe(false);
  });

  it('starts the agent in a mount namespace made as root, the sockets covered, then setpriv with no_new_privs', () => {
    const user = { name: 'gemini-agent-3', uid: 997, gid: 993 };
    const sockets = ['/run/dbus/system_bus_socket', '/tmp/x y.sock'];
    const root = coveredRunAs(user, 'root', sockets);
    expect(root.slice(0, 8)).toEqual([
      'unshare',
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      root[7],
    ]);
    expect(root.slice(8)).toEqual([
      'gemini-run-cover',
      ...sockets,
      '--',
      'setpriv',
      '--reuid=997',
      '--regid=993',
      '--clear-groups',
      '--no-new-privs',
      '--',
    ]);
    expect(root[7]).toContain('mount --bind /dev/null "$1"');
    const sudo = coveredRunAs(user, 'sudo', sockets);
    expect(sudo.slice(0, 3)).toEqual(['sudo', '-n', 'unshare']);
    // The groups sudo -u would have given (gemini-agents): the agent reaches what the group was granted.
    expect(sudo).toContain('--init-groups');
    expect(sudo.at(-2)).toBe('--no-new-privs');
  });
});

describe('renderSummary: local services', () => {
  const base = (o: Partial<RunResult>): RunResult => ({
    status: 'finished',
    mode: 'interactive',
    sessionId: 's',
    transcript: { messages: [], toolCalls: [], tokensByModel: {}, finalAnswer: '', models: [] },
    usage: { models: [], totalTokens: 0, toolCalls: 0, turns: 0, durationMs: 0 },
    exitCode: 0,
    startedAt: '2026-12-04T14:00:00.000Z',
    durationMs: 1000,
    geminiLifetimeMs: 1000,
    baseSha: 'a',
    headSha: 'a',
    commits: [],
    filesChanged: [],
    leftoverCommitted: false,
    ...o,
  });
  const egress = { mode: 'restricted' as const, blocked: [], droppedPackets: 0, droppedTo: [] };

  it('says which sockets stay within reach and why, and the abstract ones; nothing when all are hidden', () => {
    const md = renderSummary(
      base({
        egress,
        localServices: {
          hidden: 0,
          reachable: ['/run/systemd/resolve/io.systemd.Resolve', '/run/dbus/system_bus_`socket'],
          unavailable: "the runner may start the agent's user but not become root",
          abstract: ['@/containerd-shim/x.sock'],
        },
      }),
    );
    expect(md).toContain(
      "**Local services: the agent could reach 2 local service socket(s)** (`/run/systemd/resolve/io.systemd.Resolve`, `/run/dbus/system_bus_?socket`): the runner may start the agent's user but not become root.",
    );
    expect(md).toContain(
      "**Local services: 1 abstract unix socket(s) on this host stay within the agent's reach** (`@/containerd-shim/x.sock`)",
    );
    const hidden = { hidden: 3, reachable: [], abstract: [] };
    expect(renderSummary(base({ egress, localServices: hidden }))).not.toContain('Local services');
    // Under `network: open` the agent reaches the network anyway: no line.
    const open = { ...hidden, reachable: ['/run/dbus/system_bus_socket'], unavailable: 'no root' };
    expect(renderSummary(base({ localServices: open }))).not.toContain('Local services');
  });
});
