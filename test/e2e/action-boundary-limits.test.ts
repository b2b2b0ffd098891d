/**
 * Limits where the traffic flows (issue 39), against an agent that goes around the CLI. One gemini run per case
 * covers all of it:
 * - the budget: the agent reads the model proxy's address and placeholder from gemini's environment (/proc), asks
 *   for a model the run may not use, then calls a helper model directly 60 times with a large prompt under
 *   `max-tokens: 60000`. The proxy counts every answer, refuses the calls past the budget, and the run ends
 *   `budget-exceeded` with the proxy's count (never the CLI's smaller telemetry) in the outputs and the summary;
 * - the forward proxy: a stand-in server on non-loopback addresses of a network namespace this file makes (and
 *   removes). Reached through its address, which `allowed-hosts` names; a plain-HTTP request to that address
 *   naming another host in `Host:` (fronting) is refused; an allowed name the runner's resolver points at the
 *   namespace's other address (private, not named) is refused, plain and through CONNECT. The action runs in a
 *   mount namespace of its own whose /etc/hosts holds that name (nothing of the machine's changes).
 * As root (interactive) and as a hosted runner's sudo user (headless).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { exec } from '../../src/util/exec.js';
import { ACTION_NODE, ActionWorld, type StepLauncher } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { HOSTS_AND_MODES, hostLabel, hostedRunner, type RunnerUser } from '../harness/hosted-runner.js';

const root = process.getuid?.() === 0;
const BUDGET = 60_000;
/** Each direct call's prompt: ~10,000 tokens by the fake's count (4 characters a token). */
const PROMPT_CHARS = 40_000;
const CALLS = 60;

/** A network namespace with two addresses on a veth pair, and an HTTP server in it that records what it served. */
interface StandIn {
  ns: string;
  hostSide: string;
  /** Named in allowed-hosts. */
  named: string;
  /** Where the runner's resolver (in the action's mount namespace) puts `inward.test`; not named. */
  unnamed: string;
  port: number;
  hits: string[];
  server: ChildProcess;
}

async function ip(...args: string[]): Promise<void> {
  await exec('ip', args, { timeoutMs: 10_000 });
}

async function standIn(): Promise<StandIn> {
  const tag = randomBytes(3).toString('hex');
  const ns = `grlim-${tag}`;
  const hostSide = `grl${tag}h`;
  const nsSide = `grl${tag}n`;
  const net = `10.213.${randomInt(1, 254)}`;
  await ip('netns', 'add', ns);
  await ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide);
  await ip('link', 'set', nsSide, 'netns', ns);
  await ip('addr', 'add', `${net}.1/24`, 'dev', hostSide);
  await ip('link', 'set', hostSide, 'up');
  for (const a of [`${net}.2/24`, `${net}.3/24`])
    await ip('netns', 'exec', ns, 'ip', 'addr', 'add', a, 'dev', nsSide);
  await ip('netns', 'exec', ns, 'ip', 'link', 'set', nsSide, 'up');
  await ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
  const code =
    "const s=require('http').createServer((q,r)=>{console.log(q.method+' '+q.url+' '+(q.headers.host||''));r.end('STAND-IN')});" +
    "s.listen(0,'0.0.0.0',()=>console.log('PORT '+s.address().port))";
  const server = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const hits: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    createInterface({ input: server.stdout }).on('line', (line) => {
      const p = /^PORT (\d+)$/.exec(line);
      if (p) resolve(Number(p[1]));
      else hits.push(line);
    });
  });
  return { ns, hostSide, named: `${net}.2`, unnamed: `${net}.3`, port, hits, server };
}

async function removeStandIn(s: StandIn | undefined): Promise<void> {
  if (!s) return;
  s.server.kill('SIGKILL');
  await exec('ip', ['netns', 'del', s.ns], { allowAllExitCodes: true });
  // The pair goes with the namespace, asynchronously; make sure.
  await exec('ip', ['link', 'del', s.hostSide], { allowAllExitCodes: true });
}

/**
 * The step's entry behind a bootstrap that bind-mounts `hosts` over /etc/hosts (the mount namespace is the step's
 * own), then becomes the runner user if one is given, and loads the entry. A shell in between would drop the
 * runner's `INPUT_*` variables: their names hold dashes.
 */
const BOOTSTRAP = `
import { execFileSync } from 'node:child_process';
const [hosts, script, uid, gid] = process.argv.slice(2);
execFileSync('mount', ['--bind', hosts, '/etc/hosts']);
if (uid) {
  process.initgroups(Number(uid), Number(gid));
  process.setgid(Number(gid));
  process.setuid(Number(uid));
}
process.argv = [process.argv[0], script];
await import(script);
`;

/** Runs each step in a mount namespace whose /etc/hosts is `hosts`, as root or as `user`. */
function inMountNamespace(bootstrap: string, hosts: string, user: RunnerUser | undefined): StepLauncher {
  return (script, env) => ({
    command: '/usr/bin/unshare',
    args: [
      '--mount',
      '--propagation',
      'private',
      '--',
      ACTION_NODE,
      bootstrap,
      hosts,
      script,
      ...(user ? [String(user.uid), String(user.gid)] : []),
    ],
    env,
  });
}

function attack(s: StandIn): Script {
  const out = '.git/gr-out.txt';
  const big = '.git/gr-big.json';
  const base = `http://${s.named}:${s.port}`;
  const inward = `inward.test:${s.port}`;
  const command = [
    // The forward proxy: the named address (reached), fronted (refused), an inward name (refused, twice).
    `curl -s -m 5 -o /dev/null -w 'NAMED %{http_code}\\n' ${base}/named >> ${out};`,
    `curl -s -m 5 -o /dev/null -w 'FRONTED %{http_code}\\n' -H 'Host: evil.example' ${base}/fronted >> ${out};`,
    `curl -s -m 5 -o /dev/null -w 'INWARD %{http_code}\\n' http://${inward}/inward >> ${out};`,
    `curl -s -m 5 -o /dev/null https://${inward}/tls; echo "INWARD-TLS $?" >> ${out};`,
    // The model proxy: its address and placeholder from gemini's own environment.
    `for f in /proc/[0-9]*/environ; do if tr '\\0' '\\n' 2>/dev/null < "$f" | grep -q '^GEMINI_API_KEY=gemini-run-'; then tr '\\0' '\\n' < "$f" | grep -E '^(GOOGLE_GEMINI_BASE_URL|GEMINI_API_KEY)=' > .git/gr-proxy.env; break; fi; done;`,
    '. ./.git/gr-proxy.env;',
    `printf '{"contents":[{"role":"user","parts":[{"text":"' > ${big}; head -c ${PROMPT_CHARS} /dev/zero | tr '\\0' a >> ${big}; printf '"}]}]}' >> ${big};`,
    `curl -s -o /dev/null -w 'OTHER-MODEL %{http_code}\\n' -H "x-goog-api-key: $GEMINI_API_KEY" -H 'content-type: application/json' --data-binary @${big} "$GOOGLE_GEMINI_BASE_URL/v1beta/models/gemini-3.1-pro-preview:generateContent" >> ${out};`,
    `for i in ${Array.from({ length: CALLS }, (_, i) => i + 1).join(' ')}; do`,
    `curl -s -o /dev/null -w 'CALL %{http_code}\\n' -H "x-goog-api-key: $GEMINI_API_KEY" -H 'content-type: application/json' --data-binary @${big} "$GOOGLE_GEMINI_BASE_URL/v1beta/models/gemini-2.5-flash-lite:generateContent" >> ${out}; done`,
  ].join(' ');
  return {
    description: 'an agent that calls the model behind the CLI and turns allowed names inwards',
    steps: [
      { functionCalls: [{ name: 'run_shell_command', args: { command, description: 'Call around' } }] },
      { text: 'Called around.' },
    ],
  };
}

describe.skipIf(!root)('limits where the traffic flows (action, attacker agent)', () => {
  let stand: StandIn | undefined;
  beforeAll(async () => {
    stand = await standIn();
  });
  afterAll(async () => {
    await removeStandIn(stand);
  });

  for (const [host, mode] of HOSTS_AND_MODES) {
    describe(`${hostLabel(host)}, ${mode}`, () => {
      let world: ActionWorld;
      let asUser: RunnerUser | undefined;
      let release: (() => Promise<void>) | undefined;
      const worldOf = useActionWorld({ shared: true });
      beforeAll(async () => {
        world = worldOf();
        if (host === 'hosted') ({ user: asUser, release } = await hostedRunner(world));
      });
      afterAll(async () => {
        await release?.();
      });

      it('stops the agent at the budget by the proxy’s own count; refuses fronting and inward names', async () => {
        const s = stand!;
        const hosts = join(world.tmp, 'hosts');
        await writeFile(hosts, `${await readFile('/etc/hosts', 'utf8')}\n${s.unnamed} inward.test\n`, {
          mode: 0o644,
        });
        const bootstrap = join(world.tmp, 'bootstrap.mjs');
        await writeFile(bootstrap, BOOTSTRAP, { mode: 0o644 });
        const hitsBefore = s.hits.length;
        const r = await world.run({
          mode,
          script: attack(s),
          inputs: { 'max-tokens': String(BUDGET), 'allowed-hosts': `${s.named} inward.test` },
          launch: inMountNamespace(bootstrap, hosts, asUser),
          ...(asUser ? { asUser } : {}),
        });
        const log = r.main.stdout + r.main.stderr;
        expect(r.main.outputs.status, log).toBe('budget-exceeded');

        // The proxy's count: past the budget, in the summary and the outputs; total-tokens never below it.
        // Whether the agent's next call reaches the proxy before the run is stopped is a race (under load the stop
        // wins): a refusal, when there is one, is counted; the proxy's refusal itself is pinned in model-proxy.test.ts.
        const served =
          /\| Served by the model proxy \| ([\d,]+) tokens in \d+ answer\(s\)(?:; (\d+) model call\(s\) refused at the budget)? \|/.exec(
            r.main.summary,
          );
        expect(served, r.main.summary).not.toBeNull();
        const tokens = Number(served![1]!.replace(/,/g, ''));
        expect(tokens).toBeGreaterThanOrEqual(BUDGET);
        expect(Number(r.main.outputs['total-tokens'])).toBeGreaterThanOrEqual(tokens);
        const usage = JSON.parse(r.main.outputs.usage!) as {
          servedTokens: number;
          refusedAtLimit: number;
          models: { totalTokens: number }[];
        };
        expect(usage.servedTokens).toBe(tokens);
        expect(usage.refusedAtLimit).toBe(Number(served![2] ?? 0));
        // The CLI's own telemetry saw far less: the agent's calls went around it.
        const byCli = usage.models.reduce((n, m) => n + m.totalTokens, 0);
        expect(byCli).toBeLessThan(BUDGET);

        // Past the budget nothing reached the model: fewer of the agent's calls than it made, none for the other model.
        const direct = r.gemini.requests.filter(
          (q) => q.model === 'gemini-2.5-flash-lite' && JSON.stringify(q.body).length > PROMPT_CHARS,
        );
        expect(direct.length).toBeGreaterThanOrEqual(1);
        expect(direct.length).toBeLessThan(CALLS);
        // The call that crossed the budget is the last one served.
        expect(tokens).toBeLessThan(BUDGET + 2 * (PROMPT_CHARS / 4 + 1000));
        expect(r.gemini.requests.some((q) => q.model === 'gemini-3.1-pro-preview')).toBe(false);
        expect(r.main.summary).toContain('`POST /v1beta/models/gemini-3.1-pro-preview:generateContent`');

        // The stand-in served the named address only.
        expect(s.hits.slice(hitsBefore)).toEqual([`GET /named ${s.named}:${s.port}`]);
        expect(r.main.summary).toMatch(
          new RegExp(
            `\\| \`${s.named.replace(/\./g, '\\.')}\` \\| ${s.port} \\| 1 \\| [^|]+ \\| Host header names another host \\|`,
          ),
        );
        expect(r.main.summary).toMatch(
          new RegExp(
            `\\| \`inward\\.test\` \\| ${s.port} \\| 2 \\| [^|]+ \\| resolves inside the runner \\|`,
          ),
        );
        expect(log).toContain(
          `network: refused inward.test:${s.port} (it resolves to an address inside the runner)`,
        );
      });
    });
  }
});
