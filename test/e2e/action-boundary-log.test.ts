/**
 * Nothing the agent, the model or an issue's author wrote becomes a workflow command in the job log. The runner
 * reads every line a step prints (stdout and stderr, split on CR as well as LF) for `::command::` and the legacy
 * `##[command]`: a CR or LF in an issue title or a tool's command would let its author start a line of their own,
 * and `::add-mask::`, `::error::`, `::stop-commands::` would be obeyed. The step's raw output is read here the
 * way the runner reads it (test/harness/runner-commands.ts): no command may carry the attacker's words, and the
 * words must still be there as text (so the test can fail).
 *
 * `node dist/index.js` with real gemini against a scripted model, both modes, as root.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { HOSTS_AND_MODES, hostLabel, hostedRunner, type RunnerUser } from '../harness/hosted-runner.js';
import { ActionWorld } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { runnerCommands } from '../harness/runner-commands.js';

/** An issue title a hostile author wrote: a CR and an LF, each followed by a command. */
const TITLE = 'Add notes\r::error title=pwned-title::X\n::add-mask::visible-word';

/** The first line of the command is what the progress line shows: a lone CR then a command; LF lines after. */
const TOOL_COMMAND = [
  'echo notes > NOTES.md; git add NOTES.md; git commit -q -m notes; echo pwned-tool-marker\r::error::pwned-tool-cr',
  '::error::pwned-tool',
  '::add-mask::pwned-tool-mask',
  'true',
].join('\n');

/**
 * The telemetry outfile is the agent's to write (gemini runs as the agent's user and its shell inherits
 * GEMINI_TELEMETRY_OUTFILE): a forged api_response record whose model name carries a CR and an LF (JSON escapes,
 * so the record parses) reaches the progress line `model <name>: … tokens`.
 */
const FORGED_TELEMETRY = [
  "printf '%s\\n'",
  "'{'",
  '\'  "attributes": {\'',
  '\'    "event.name": "gemini_cli.api_response",\'',
  '\'    "model": "forged-model\\r::error::pwned-telemetry\\n::add-mask::pwned-telemetry-mask",\'',
  '\'    "input_token_count": 1,\'',
  '\'    "output_token_count": 1,\'',
  '\'    "total_token_count": 2\'',
  "'  }'",
  "'}'",
  '>> "$GEMINI_TELEMETRY_OUTFILE"',
].join(' ');

const ANSWER = [
  'Added NOTES.md.',
  '::warning::pwned-answer',
  '::add-mask::pwned-answer-mask\r::error::pwned-answer-cr',
].join('\n');

const script: Script = {
  description: 'a model and an agent that write workflow commands into everything that reaches the log',
  steps: [
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: { command: TOOL_COMMAND, description: 'Write notes\r::error::pwned-description' },
        },
      ],
    },
    { functionCalls: [{ name: 'run_shell_command', args: { command: FORGED_TELEMETRY } }] },
    { text: ANSWER },
  ],
};

/** Words only the attacker wrote: no command the runner would obey may contain one. */
const ATTACKER_WORDS = /pwned|visible-word/;

describe.skipIf(process.getuid?.() !== 0)(
  'the job log obeys nothing the agent, the model or the issue wrote',
  () => {
    for (const [host, mode] of HOSTS_AND_MODES) {
      describe(`${hostLabel(host)}, ${mode}`, () => {
        let world: ActionWorld;
        let issue: number;
        let asUser: RunnerUser | undefined;
        let release: (() => Promise<void>) | undefined;
        const worldOf = useActionWorld({ shared: true });
        beforeAll(async () => {
          world = worldOf();
          issue = world.github.addIssue({ title: TITLE, body: 'Please add NOTES.md.', user: 'alice' });
          if (host === 'hosted') ({ user: asUser, release } = await hostedRunner(world));
        });
        afterAll(async () => {
          await release?.();
        });

        it('prints the hostile title, tool command and answer as text, never as a command', async () => {
          const r = await world.run({
            mode,
            script,
            payload: world.labeledPayload('gemini-run', 'alice', issue),
            ...(asUser ? { asUser } : {}),
          });
          const log = `${r.main.stdout}\n${r.main.stderr}\n${r.post.stdout}\n${r.post.stderr}`;
          expect(r.main.outputs.status, log).toBe('finished');

          // The attack ran: the title and the tool's command reached the log, the answer reached the action.
          expect(r.main.stdout).toContain('pwned-title');
          expect(r.main.stdout).toContain('visible-word');
          expect(r.main.stdout).toContain('pwned-tool-marker');
          expect(r.main.stdout).toContain('pwned-tool-cr');
          expect(await world.originFile(`gemini-run/issue-${issue}`, 'NOTES.md')).toContain('notes');
          expect(r.gemini.modelRequests().length).toBeGreaterThanOrEqual(3);

          const obeyed = runnerCommands(log);
          // The reader works: the action's own commands are seen (groups, the masks of its secrets).
          expect(obeyed.map((c) => c.name)).toContain('group');
          expect(obeyed.map((c) => c.name)).toContain('add-mask');
          expect(obeyed.filter((c) => ATTACKER_WORDS.test(c.line))).toEqual([]);
          // No attacker line starts a line of its own: the title stays on the action's `Task:` line, escaped
          // (the CR shows as \r, or as \n where the task's text has had its line endings normalised).
          expect(r.main.stdout).toMatch(
            /^Task: Add notes\\[rn]::error title=pwned-title::X\\n::add-mask::visible-word /m,
          );
          // The tool line shows the command's first line (the TUI's adds ' …' for the lines it leaves out).
          expect(r.main.stdout).toMatch(
            /^tool run_shell_command \[[a-z]+\]: .*pwned-tool-marker\\r::error::pwned-tool-cr( …)?$/m,
          );
          // The forged telemetry record was read (this line comes from telemetry alone), its model name escaped.
          expect(r.main.stdout).toMatch(
            /^model forged-model\\r::error::pwned-telemetry\\n::add-mask::pwned-telemetry-mask: 1 in \/ 1 out tokens/m,
          );
        });
      });
    }
  },
);
