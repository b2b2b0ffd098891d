import { flagValue, parseCommandArgs, wantsStatusLine, write, type CliIO, type Command } from '../args.js';
import { runModeSchema } from '../../domain/value-schemas.js';
import { ISOLATE_CREATES, runDemo } from '../../demo/demo.js';
import { markdownForTerminal } from '../terminal-markdown.js';

import { createStreamLogger } from '../../util/log.js';
import { tmuxVersion } from '../../tmux/tmux.js';

const USAGE = `usage: gemini-run demo [--mode interactive|headless] [--keep] [--isolate]

Runs the whole gemini-run job on an embedded default, offline and without credentials: a throw-away
repository with an issue, the real gemini 0.42.0 (the project's pinned copy), a built-in fake model that
edits code and commits with attribution lines, and a local fake GitHub. It ends by printing the pull request
it opened (title, body, scrubbed commits) and the transcript summary.

The agent runs as you and nothing on the host changes, unless --isolate asks to see the action's isolation:
then (as root, or with passwordless sudo) the demo creates ${ISOLATE_CREATES}.

Options:
  --mode <m>   interactive (the TUI in tmux, the default) or headless (stream-json)
  --keep       keep the demo's temp directory and print where it is
  --isolate    run the agent as its own user behind a packet filter, as the action does (root or sudo)
  -h, --help   show this help

Examples:
  gemini-run demo
  gemini-run demo --mode headless
  sudo gemini-run demo --isolate
`;

/** A titled block of GitHub markdown, as the terminal shows it. */
function section(title: string, markdown: string): string {
  const rule = '─'.repeat(Math.max(8, 72 - title.length - 4));
  return `\n── ${title} ${rule}\n${markdownForTerminal(markdown).trim()}\n`;
}

/**
 * The summary comment repeats the run summary the pull request's body already holds: shown once, the comment is
 * what it adds (where the transcript is, how to continue).
 */
function commentBeyondBody(comment: string, body: string): string {
  const start = comment.indexOf('## Gemini run');
  const tail = comment.lastIndexOf('\n\nTranscript:');
  if (start < 0 || tail < start || !body.includes(comment.slice(start, tail).trim().split('\n')[0] ?? ''))
    return comment;
  return `_(the run summary, as in the pull request's body above)_${comment.slice(tail)}`;
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'run the whole job offline on a built-in repository, fake model and fake GitHub',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, help } = parseCommandArgs('demo', argv, {
      mode: { type: 'string' },
      keep: { type: 'boolean' },
      isolate: { type: 'boolean' },
    });
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    let mode = flagValue(runModeSchema('--mode'), values.mode ?? 'interactive', 'demo');
    if (mode === 'interactive' && values.mode === undefined && !(await tmuxVersion())) {
      // A newcomer's first command should work on a machine without tmux too.
      write(
        io.stderr,
        'tmux is not installed, so the demo runs headless (apt-get install tmux for the TUI mode).',
      );
      mode = 'headless';
    }
    // Warnings go with the rest, in order (the demo's own notes explain them), not apart on stderr.
    const log = createStreamLogger({
      out: io.stdout,
      err: io.stdout,
      prefix: '  ',
      statusLine: wantsStatusLine(io),
    });
    write(
      io.stdout,
      `gemini-run demo: issue #1 "Add a farewell function" labeled gemini-run (mode: ${mode})`,
    );
    const r = await runDemo({ mode, log, keep: values.keep, isolate: values.isolate === true });
    const out: string[] = [];
    if (r.pull) {
      out.push(
        section(
          `Pull request #${r.pull.number}${r.pull.draft ? ' (draft)' : ''}: ${r.pull.title}`,
          r.pull.body ?? '',
        ),
      );
      out.push(section('Commits on gemini-run/issue-1 (attribution scrubbed)', r.commits));
    }
    if (r.summaryComment)
      out.push(
        section(
          'Summary comment on the pull request',
          commentBeyondBody(r.summaryComment, r.pull?.body ?? ''),
        ),
      );
    if (r.issueComment) out.push(section('Comment on issue #1', r.issueComment));
    if (r.trackingComment) {
      out.push(
        section(
          `Tracking comment on issue #1 (${r.trackingVersions} version(s) seen while the run worked)`,
          r.trackingComment,
        ),
      );
    }
    out.push(
      `\nstatus: ${r.outputs.status}  commits: ${r.outputs['commit-count']}  pr: ${r.outputs['pr-url'] || '-'}  ` +
        `session: ${r.outputs['session-id'] || '-'}  took ${(r.elapsedMs / 1000).toFixed(1)} s`,
    );
    write(io.stdout, out.join(''));
    if (r.failure) {
      write(io.stderr, `gemini-run demo: ${r.failure}`);
      return 1;
    }
    return r.outputs.status === 'finished' ? 0 : 1;
  },
};
