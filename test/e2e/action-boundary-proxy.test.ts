/**
 * The model proxy against an agent that uses it for more than the model (issue 22, part 5). The scripted agent
 * reads gemini's own environment from /proc (the proxy's address and the placeholder key that the shell tool's
 * filtered environment does not show), then calls the Gemini API's other endpoints through the proxy: files,
 * cachedContents, tunedModels, a DELETE, the model listing and a path trick; and a model call with a key of its
 * own next to the placeholder. It writes the HTTP code of each call into a file it commits, which proves the
 * attack ran. Every non-model call must be refused by the proxy itself (403) and reach nothing; the model call is
 * served without the agent's key; the run must still finish, and the summary must count the refusals.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { HOSTS_AND_MODES, hostLabel, hostedRunner, type RunnerUser } from '../harness/hosted-runner.js';
import { ActionWorld } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';

const CALLS = [
  'GET /v1beta/files',
  'POST /upload/v1beta/files',
  'DELETE /v1beta/files/abc',
  'GET /v1beta/cachedContents',
  'POST /v1beta/cachedContents',
  'GET /v1beta/tunedModels',
  'GET /v1beta/models',
  'POST /v1beta/models/x/../../files:generateContent',
];

/** The attack as one plain shell command (the CLI refuses `$(...)`, so the environment is sourced from a file). */
const attack = [
  // gemini's own environment: a process of ours that holds the placeholder (the shell tool's has it filtered out)
  `for f in /proc/[0-9]*/environ; do if tr '\\0' '\\n' 2>/dev/null < "$f" | grep -q '^GEMINI_API_KEY=gemini-run-'; then tr '\\0' '\\n' < "$f" | grep -E '^(GOOGLE_GEMINI_BASE_URL|GEMINI_API_KEY)=' > proxy.env; break; fi; done;`,
  '. ./proxy.env; rm -f proxy.env;',
  'test -n "$GEMINI_API_KEY" && echo HAVE_PLACEHOLDER > PROXY_CALLS.txt;',
  `for call in ${CALLS.map((c) => `'${c}'`).join(' ')}; do set -- $call;`,
  `printf '%s %s ' "$1" "$2" >> PROXY_CALLS.txt;`,
  `curl -s --path-as-is -o /dev/null -w '%{http_code}\\n' -X "$1" -H "x-goog-api-key: $GEMINI_API_KEY" -H 'content-type: application/json' -d '{}' "$GOOGLE_GEMINI_BASE_URL$2" >> PROXY_CALLS.txt; done;`,
  // a model call with a key of its own in the query next to the placeholder: served, but with our credential only
  `printf 'KEYQUERY ' >> PROXY_CALLS.txt; curl -s -o /dev/null -w '%{http_code}\\n' -H 'content-type: application/json' -d '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}' "$GOOGLE_GEMINI_BASE_URL/v1beta/models/gemini-2.5-flash:generateContent?key=$GEMINI_API_KEY&key=AIzaAgentsOwnKey" >> PROXY_CALLS.txt;`,
  "git add PROXY_CALLS.txt && git commit -q -m 'Proxy calls'",
].join(' ');

const attacker: Script = {
  description: 'an agent that uses the model proxy for the rest of the API',
  steps: [
    {
      functionCalls: [{ name: 'run_shell_command', args: { command: attack, description: 'Use the API' } }],
    },
    { text: 'Tried the API.' },
  ],
};

const root = process.getuid?.() === 0;

describe.skipIf(!root)('the model proxy serves the model only (action, attacker agent)', () => {
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

      it('refuses every non-model call without reaching the model API, finishes, and counts them', async () => {
        const r = await world.run({ mode, script: attacker, ...(asUser ? { asUser } : {}) });
        expect(r.main.outputs.status, r.main.stdout + r.main.stderr).toBe('finished');
        // The attack ran: it found the proxy and the placeholder in gemini's environment and made its calls.
        const calls = await world.originFile('gemini-run/issue-1', 'PROXY_CALLS.txt');
        const lines = calls.trim().split('\n');
        expect(lines[0]).toBe('HAVE_PLACEHOLDER');
        expect(lines.slice(1)).toEqual([...CALLS.map((c) => `${c} 403`), 'KEYQUERY 200']);
        // None of it reached the model API: only model calls are in its log.
        const seen = r.gemini.requests.map((q) => `${q.method} ${q.path}`);
        expect(seen.length).toBeGreaterThan(0);
        for (const s of seen) {
          expect(s).toMatch(
            /^POST \/v1beta\/models\/[\w.-]+:(generateContent|streamGenerateContent|countTokens)/,
          );
        }
        expect(seen.join('\n')).not.toMatch(/files|cachedContents|tunedModels|key=/);
        expect(seen).toContain('POST /v1beta/models/gemini-2.5-flash:generateContent');
        // The run summary counts them: job summary, artifact files and the log.
        const n = CALLS.length;
        expect(r.main.summary).toContain(`**${n} call(s) refused by the model proxy**`);
        expect(r.main.summary).toContain('`GET /v1beta/files`');
        const runSummary = JSON.parse(
          await readFile(join(dirname(r.main.outputs['summary-path']!), 'run-summary.json'), 'utf8'),
        ) as { refusedCalls?: { count: number; first: string[] } };
        expect(runSummary.refusedCalls?.count).toBe(n);
        expect(runSummary.refusedCalls?.first[0]).toBe('GET /v1beta/files');
        expect(r.main.stdout).toMatch(
          new RegExp(
            `::warning::The model proxy refused ${n} call\\(s\\) of the agent \\(not a model call of this run\\): GET /v1beta/files`,
          ),
        );
      });
    });
  }
});
