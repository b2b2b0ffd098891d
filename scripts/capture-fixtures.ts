/**
 * Captures fixtures from a REAL gemini (0.42.0, or the 0.61.0 devDependency alias) playing fake-model scripts
 * (`npm run fixtures:capture`). Writes fixtures/gemini-<version>/<name>/{transcript.jsonl, telemetry.json,
 * stream.jsonl, stderr.txt, exit-code, screen.txt, README.md}.
 * Usage: `node --import tsx scripts/capture-fixtures.ts [--version 0.61.0] [name ...]` (default: 0.42.0, all).
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec } from '../src/util/exec.js';
import { FakeGemini } from '../test/harness/fake-gemini.js';
import {
  GEMINI_BIN,
  GEMINI_LATEST_BIN,
  findTranscripts,
  headlessArgs,
  interactiveArgs,
  prepareGeminiEnv,
  waitForTelemetryEvent,
  withExitFile,
} from '../test/harness/gemini-launcher.js';
import { createWorkRepo } from '../test/harness/repo.js';
import { TmuxSession } from '../test/harness/tmux-session.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Each checked version: the bundle the tests run and the package.json that says what it is. */
const BINARIES = {
  '0.42.0': { bin: GEMINI_BIN, pkg: join(ROOT, 'node_modules', '@google', 'gemini-cli', 'package.json') },
  '0.61.0': { bin: GEMINI_LATEST_BIN, pkg: join(ROOT, 'node_modules', 'gemini-cli-latest', 'package.json') },
} as const;
type Version = keyof typeof BINARIES;
let VERSION: Version = '0.42.0';
let BIN: string = GEMINI_BIN;
let OUT = join(ROOT, 'fixtures', 'gemini-0.42.0');
const PROMPT = 'Read GEMINI.local.md and do the task.';

interface Capture {
  name: string;
  script: string;
  mode: 'interactive' | 'headless';
  /** Follow-up user turns typed into the TUI after each idle edge. */
  followUps?: string[];
  /** The interactive run ends in a blocking dialog, not an idle edge: wait for this text instead. */
  waitForText?: string;
  model?: string;
  /** The model call hangs: once the fake has seen it, press Escape (the timeout recipe), then /quit. */
  cancelHungRequest?: boolean;
  /** Headless: after the first run, a second headless run `--resume <session id>` (same home) with this prompt. */
  resumePrompt?: string;
  notes: string;
}

const CAPTURES: Capture[] = [
  {
    name: 'plain-answer-interactive',
    script: 'plain-answer',
    mode: 'interactive',
    notes: 'One text-only turn, then /quit.',
  },
  {
    name: 'tool-heavy-interactive',
    script: 'tool-heavy',
    mode: 'interactive',
    notes: 'Six tool calls in one turn, then /quit.',
  },
  { name: 'plain-answer-headless', script: 'plain-answer', mode: 'headless', notes: 'One text-only turn.' },
  {
    name: 'tool-heavy-headless',
    script: 'tool-heavy',
    mode: 'headless',
    notes: 'Six tool calls in one turn.',
  },
  {
    name: 'two-turn-interactive',
    script: 'two-turn',
    mode: 'interactive',
    followUps: ['Where does greet live?'],
    notes:
      'First turn from the positional prompt; after its idle edge a second prompt is pasted (tmux bracketed paste, ' +
      'then Enter after 300 ms); then /quit.',
  },
  {
    name: 'quota-daily-interactive',
    script: 'quota-daily',
    mode: 'interactive',
    waitForText: 'Usage limit reached',
    notes:
      'The first model call gets a daily-quota 429. screen.txt is the blocking quota dialog; the process was then ' +
      'killed by the harness (the dialog never exits on its own), so exit-code is not meaningful.',
  },
  {
    name: 'transient-then-ok-headless',
    script: 'transient-then-ok',
    mode: 'headless',
    notes:
      'The first model call gets a 503; the CLI backs off (~5 s) and retries; the retry gets text. Exit 0.',
  },
  {
    name: 'hang-escape-interactive',
    script: 'hang',
    mode: 'interactive',
    cancelHungRequest: true,
    notes:
      'The model call never answers. One second after the fake received it, a single Escape is sent (the ' +
      'timeout recipe): "Request cancelled.", api_error, conversation_finished; then /quit.',
  },
  {
    name: 'resumed-headless',
    script: 'two-turn',
    mode: 'headless',
    resumePrompt: 'Now say where greet lives.',
    notes:
      'Two headless runs in the same GEMINI_CLI_HOME: the first answers (stream.jsonl), the second is ' +
      '`--resume <session id>` with a follow-up prompt (stream-resumed.jsonl); its model request carried the ' +
      'first question and answer, and the CLI appended the second turn to the same transcript.jsonl.',
  },
  {
    name: 'quota-daily-headless',
    script: 'quota-daily',
    mode: 'headless',
    notes:
      'Headless run hitting daily quota: exit 1 on 0.42.0, 173 (HTTP 429 & 0xFF) on 0.61.0; see exit-code.',
  },
];

async function captureOne(c: Capture): Promise<void> {
  const started = new Date();
  const fake = await FakeGemini.start(c.script);
  const repo = await createWorkRepo({ name: 'sample' });
  const runDir = await mkdtemp(join(tmpdir(), 'gr-capture-'));
  const dest = join(OUT, c.name);
  const sessionId = randomUUID();
  let argv: string[] = [];
  let resumeArgv: string[] | undefined;
  try {
    const g = await prepareGeminiEnv({ fakeUrl: fake.url, runDir });
    // The task travels in the context file, as the product does it (ignored by git through info/exclude).
    await writeFile(join(repo.dir, 'GEMINI.local.md'), '# Task\n\nFollow the fixture script.\n');
    await writeFile(join(repo.dir, '.git', 'info', 'exclude'), 'GEMINI.local.md\n', { flag: 'a' });
    await rm(dest, { recursive: true, force: true });
    await mkdir(dest, { recursive: true });
    const opts = { prompt: PROMPT, sessionId, ...(c.model ? { model: c.model } : {}) };
    if (c.mode === 'headless') {
      argv = headlessArgs(opts);
      const r = await exec(BIN, argv, {
        cwd: repo.dir,
        env: g.env,
        allowAllExitCodes: true,
        timeoutMs: 120_000,
      });
      await writeFile(join(dest, 'stream.jsonl'), r.stdout);
      await writeFile(join(dest, 'stderr.txt'), r.stderr);
      await writeFile(join(dest, 'exit-code'), `${r.exitCode}\n`);
      if (c.resumePrompt !== undefined) {
        if (r.exitCode !== 0) throw new Error(`${c.name}: the first run exited ${r.exitCode}`);
        const first = fake.modelRequests().length;
        resumeArgv = resumeArgs(argv, sessionId, c.resumePrompt);
        const r2 = await exec(BIN, resumeArgv, {
          cwd: repo.dir,
          env: g.env,
          allowAllExitCodes: true,
          timeoutMs: 120_000,
        });
        await writeFile(join(dest, 'stream-resumed.jsonl'), r2.stdout);
        await writeFile(join(dest, 'stderr-resumed.txt'), r2.stderr);
        await writeFile(join(dest, 'exit-code-resumed'), `${r2.exitCode}\n`);
        // A resume that silently started afresh would still exit 0: the model must have been shown turn one.
        const resumed = JSON.stringify(fake.modelRequests()[first]?.body ?? '');
        // The fake streams an answer in chunks, which history may keep as separate parts: match the first one.
        const firstAnswer = (fake.script.steps[0]?.text ?? '').slice(0, 12);
        if (r2.exitCode !== 0 || !resumed.includes(PROMPT) || !resumed.includes(firstAnswer)) {
          throw new Error(`${c.name}: the resumed run (exit ${r2.exitCode}) did not carry the first turn`);
        }
      }
    } else {
      argv = interactiveArgs(opts);
      const exitFile = join(runDir, 'exit-code');
      const [cmd, args] = withExitFile(exitFile, BIN, argv);
      const tmux = await TmuxSession.start({ command: cmd, args, cwd: repo.dir, env: g.env });
      try {
        if (c.waitForText) {
          const text = c.waitForText;
          await tmux.waitForScreen((s) => s.includes(text), 60_000);
          await sleep(1000); // let telemetry flush the api_error
          await writeFile(join(dest, 'screen.txt'), await tmux.capture());
        } else {
          if (c.cancelHungRequest) {
            const end = Date.now() + 60_000;
            while (fake.modelRequests().length === 0 && Date.now() < end) await sleep(100);
            await sleep(1000);
            await tmux.sendKeys('Escape');
          }
          let turns = 1;
          await waitForTelemetryEvent(g.telemetryFile, 'gemini_cli.conversation_finished', turns, 90_000);
          for (const text of c.followUps ?? []) {
            // Pasted, not typed: typed literally, the TUI swallows the `?` (shortcuts-help toggle).
            await tmux.pasteLine(text);
            turns++;
            await waitForTelemetryEvent(g.telemetryFile, 'gemini_cli.conversation_finished', turns, 90_000);
          }
          await tmux.sendLine('/quit');
          await tmux.waitForExit(30_000);
          await writeFile(join(dest, 'screen.txt'), await tmux.capture());
        }
      } finally {
        await tmux.dispose();
      }
      const code = await readFile(exitFile, 'utf8').catch(() => 'killed\n');
      await writeFile(join(dest, 'exit-code'), code);
    }
    const transcripts = await findTranscripts(g.home);
    if (transcripts[0]) await copyFile(transcripts[0], join(dest, 'transcript.jsonl'));
    await copyFile(g.telemetryFile, join(dest, 'telemetry.json')).catch(() => undefined);
    const requests = fake.requests.map((r) => ({
      path: r.path,
      kind: r.kind,
      answeredWith: r.answeredWith,
      status: r.status,
    }));
    await writeFile(join(dest, 'requests.json'), `${JSON.stringify(requests, null, 2)}\n`);
    const log = await repo.git(['log', '--format=%s%n%b', 'main']);
    await writeFile(
      join(dest, 'README.md'),
      readme(c, argv, sessionId, started, runDir, repo.dir, transcripts.length, log, resumeArgv),
    );
    console.log(`captured ${c.name}`);
  } finally {
    await fake.close();
    await repo[Symbol.asyncDispose]();
    await rm(runDir, { recursive: true, force: true });
  }
}

function readme(
  c: Capture,
  argv: string[],
  sessionId: string,
  at: Date,
  runDir: string,
  worktree: string,
  transcripts: number,
  log: string,
  resumeArgv?: string[],
): string {
  const files =
    c.mode === 'headless'
      ? resumeArgv
        ? 'stream.jsonl, stderr.txt, exit-code (first run); stream-resumed.jsonl, stderr-resumed.txt, ' +
          'exit-code-resumed (the `--resume` run); transcript.jsonl (both turns), telemetry.json (both runs ' +
          'append to one outfile), requests.json'
        : 'stream.jsonl (stdout), stderr.txt, exit-code, transcript.jsonl, telemetry.json, requests.json'
      : 'screen.txt (final screen), exit-code (from a sh wrapper), transcript.jsonl, telemetry.json, requests.json';
  const show = (args: string[]): string => args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ');
  return `# ${c.name}

Captured ${at.toISOString()} from the real \`@google/gemini-cli@${VERSION}\` (\`${relative(ROOT, BIN)}\`) by
\`npm run fixtures:capture${VERSION === '0.42.0' ? '' : ` -- --version ${VERSION}`}\` (scripts/capture-fixtures.ts), against the local fake API (test/harness/fake-gemini.ts)
playing \`fixtures/scripts/${c.script}.json\`. ${c.notes}

- mode: ${c.mode}${c.mode === 'interactive' ? ' (tmux 200x50, own socket; follow-ups pasted with `paste-buffer -p` + Enter after 300 ms; `/quit` typed literally)' : ''}
- command (cwd = the worktree): \`gemini ${show(argv)}\`${resumeArgv ? `\n- then, same home and worktree: \`gemini ${show(resumeArgv)}\`` : ''}
- session id: \`${sessionId}\`
- model: ${c.model ?? 'none given (Auto: the router classifier call goes to gemini-2.5-flash-lite first)'}
- worktree: \`${worktree}\` (a throw-away repo: README.md, src/greet.js; \`GEMINI.local.md\` holds the task
  and is listed in .git/info/exclude); GEMINI_CLI_HOME and TMPDIR under \`${runDir}\`. Temp paths were left as
  they were.
- env: allow-listed (test/harness/gemini-launcher.ts): GEMINI_API_KEY=fake, GOOGLE_GEMINI_BASE_URL=<fake>,
  GEMINI_TELEMETRY_ENABLED=true, GEMINI_TELEMETRY_TARGET=local, GEMINI_TELEMETRY_LOG_PROMPTS=false,
  OTEL_BLRP_SCHEDULE_DELAY=50, TERM=xterm-256color; no CI/GITHUB_ACTIONS.
- transcript files found: ${transcripts}${transcripts === 0 && c.mode === 'interactive' ? ' (the CLI deleted its session file at exit: the cancel rolled the prompt back and left nothing resumable; compat.md K15)' : ''}
- files: ${files}
- requests.json: every request the fake received (path, kind, what it answered, HTTP status)
- git log of the worktree after the run:

\`\`\`
${log.trim()}
\`\`\`
`;
}

/** The first run's argv with its prompt replaced and `--session-id <id>` turned into `--resume <id>`. */
function resumeArgs(argv: string[], sessionId: string, prompt: string): string[] {
  const out = argv.map((a) => (a.startsWith('--prompt=') ? `--prompt=${prompt}` : a));
  const i = out.indexOf('--session-id');
  if (i === -1 || out[i + 1] !== sessionId) throw new Error('resume: the first run had no --session-id');
  out.splice(i, 2, '--resume', sessionId);
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const vi = argv.indexOf('--version');
  if (vi !== -1) {
    const v = argv[vi + 1];
    if (v !== '0.42.0' && v !== '0.61.0')
      throw new Error(`--version: one of ${Object.keys(BINARIES).join(', ')}`);
    VERSION = v;
    BIN = BINARIES[v].bin;
    OUT = join(ROOT, 'fixtures', `gemini-${v}`);
    argv.splice(vi, 2);
  }
  const wanted = argv;
  const list = wanted.length > 0 ? CAPTURES.filter((c) => wanted.includes(c.name)) : CAPTURES;
  if (list.length === 0) throw new Error(`unknown capture; known: ${CAPTURES.map((c) => c.name).join(', ')}`);
  // Read from the package, not `gemini --version`: starting the CLI outside an isolated home is what we avoid.
  const pkg = JSON.parse(await readFile(BINARIES[VERSION].pkg, 'utf8')) as { version?: string };
  const version = pkg.version;
  if (version !== VERSION) throw new Error(`expected gemini ${VERSION} at ${BIN}, got ${version}`);
  for (const c of list) await captureOne(c);
  await writeFile(join(OUT, 'README.md'), indexReadme());
}

function indexReadme(): string {
  const rows = CAPTURES.map(
    (c) => `| [${c.name}](${c.name}/README.md) | ${c.mode} | \`${c.script}\` | ${c.notes} |`,
  );
  const cmd = `npm run fixtures:capture${VERSION === '0.42.0' ? '' : ` -- --version ${VERSION}`}`;
  return `# Captures from the real gemini ${VERSION}

Each directory was written by \`${cmd}\` (scripts/capture-fixtures.ts): the real
\`@google/gemini-cli@${VERSION}\` in an isolated GEMINI_CLI_HOME, playing a fake-model script from
\`fixtures/scripts/\` served by test/harness/fake-gemini.ts. Each directory's README.md says exactly how
(command, session id, date, git log after the run). Re-capture one: \`${cmd}${VERSION === '0.42.0' ? ' --' : ''} <name>\`.

Files: \`transcript.jsonl\` (the session file from \`<home>/.gemini/tmp/<slug>/chats/\`), \`telemetry.json\`
(the local telemetry outfile: concatenated pretty-printed JSON objects, not JSONL), \`stream.jsonl\` (headless
stdout), \`stderr.txt\`, \`exit-code\`, \`screen.txt\` (last interactive screen), \`requests.json\` (what the fake
API received and answered). Temp paths (/tmp/gr-capture-*, /tmp/gemini-run-repo-*) are left as captured.

| capture | mode | script | what happens |
|---|---|---|---|
${rows.join('\n')}
`;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exitCode = 1;
});
