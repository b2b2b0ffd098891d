import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bodyText } from '../fake.js';
import type { ProbeProfile } from '../expectations.js';
import type { Probe } from '../types.js';
import { brief, isRecord, parseJsonLines, postureArgs, probeSessionId, shortNames } from './util.js';

export const versionProbe: Probe = {
  name: 'version',
  behaviour: '`gemini --version` prints the version on the last stdout line',
  expected: (p) => p.checked,
  async run(ctx) {
    const res = await ctx.headless(['--version']);
    const version = res.stdout.trim().split('\n').pop()?.trim() ?? '';
    return {
      observed: `${version || '(none)'} (exit ${res.exitCode})`,
      pass: res.exitCode === 0 && version === ctx.profile.checked,
    };
  },
};

const STREAM_SHAPE =
  'init{session_id,model} → message{role:user} → tool_use{tool_name,tool_id,parameters} → tool_result{tool_id,status} → message{role:assistant,delta} → result{status:success,stats{total_tokens,input_tokens,output_tokens,cached,duration_ms,tool_calls,models}}; exit 0';

export const streamJsonProbe: Probe = {
  name: 'headless-stream-json',
  behaviour:
    'Headless `-p --output-format stream-json`: one JSON event per stdout line, in this order and shape',
  expected: STREAM_SHAPE,
  async run(ctx) {
    await ctx.startFake([
      { functionCalls: [{ name: 'list_directory', args: { dir_path: '.' } }] },
      { text: 'STREAM-DONE' },
    ]);
    const sid = probeSessionId('stream');
    const res = await ctx.headless([
      '--prompt=list the files',
      '--output-format',
      'stream-json',
      ...postureArgs(sid),
    ]);
    const events = parseJsonLines(res.stdout).filter(isRecord);
    const seq = events.map((e) => (e.type === 'message' ? `message:${String(e.role)}` : String(e.type)));
    const byType = (t: string) => events.find((e) => e.type === t) ?? {};
    const init = byType('init');
    const toolUse = byType('tool_use');
    const toolResult = byType('tool_result');
    const result = byType('result');
    const stats = isRecord(result.stats) ? result.stats : {};
    const assistant = events.find((e) => e.type === 'message' && e.role === 'assistant') ?? {};
    const checks: [string, boolean][] = [
      ['exit 0', res.exitCode === 0],
      ['order', seq.join(',') === 'init,message:user,tool_use,tool_result,message:assistant,result'],
      ['init.session_id', init.session_id === sid && typeof init.model === 'string'],
      [
        'tool_use',
        toolUse.tool_name === 'list_directory' &&
          typeof toolUse.tool_id === 'string' &&
          isRecord(toolUse.parameters),
      ],
      [
        'tool_result',
        toolResult.tool_id === toolUse.tool_id &&
          toolResult.status === 'success' &&
          !('tool_name' in toolResult),
      ],
      ['assistant delta', assistant.delta === true && assistant.content === 'STREAM-DONE'],
      [
        'result.stats',
        result.status === 'success' &&
          [
            'total_tokens',
            'input_tokens',
            'output_tokens',
            'cached',
            'duration_ms',
            'tool_calls',
            'models',
          ].every((k) => k in stats) &&
          stats.tool_calls === 1,
      ],
      ['timestamps', events.every((e) => typeof e.timestamp === 'string')],
    ];
    const failed = checks.filter(([, ok]) => !ok).map(([n]) => n);
    return {
      observed: `${seq.join(' → ')}; exit ${res.exitCode}${failed.length ? `; mismatched: ${failed.join(', ')}` : ''}`,
      pass: failed.length === 0,
    };
  },
};

export const quotaHeadlessProbe: Probe = {
  name: 'quota-headless',
  behaviour:
    "Headless run hitting a daily-quota 429 (QuotaFailure …PerDay…): terminal, no retry, the profile's exit code",
  expected: (p) =>
    `exit ${p.quotaExitCode}${p.httpStatusExitCodes ? ' (HTTP 429 & 0xFF)' : ''}; last stream-json line result{status:error, error.message "…exhausted your daily quota…"}; 1 model request`,
  async run(ctx) {
    const fake = await ctx.startFake([
      { error: { status: 429, kind: 'daily-quota' } },
      { text: 'SHOULD-NOT-BE-ASKED' },
    ]);
    const res = await ctx.headless([
      '--prompt=hello',
      '--output-format',
      'stream-json',
      ...postureArgs(probeSessionId('quota')),
    ]);
    const events = parseJsonLines(res.stdout).filter(isRecord);
    const last = events[events.length - 1] ?? {};
    const err = isRecord(last.error) ? last.error : {};
    const message = typeof err.message === 'string' ? err.message : '';
    const asked = fake.modelRequests().length;
    return {
      observed: `exit ${res.exitCode}; last=${String(last.type)}{status:${String(last.status)}, error.type:${String(err.type)}, message:"${brief(message, 80)}"}; ${asked} model request(s)`,
      pass:
        res.exitCode === ctx.profile.quotaExitCode &&
        last.type === 'result' &&
        last.status === 'error' &&
        /exhausted your daily quota/.test(message) &&
        asked === 1,
    };
  },
};

export const transient429Probe: Probe = {
  name: 'transient-429-retry',
  behaviour: 'A per-minute 429 (retryable) is retried with backoff and the turn succeeds; telemetry shows it',
  expected:
    'exit 0; answer arrives; 2 model requests; telemetry api_error{status_code:429} then api_response; no flash_fallback (explicit -m)',
  async run(ctx) {
    const fake = await ctx.startFake([
      { error: { status: 429, kind: 'rate-limit', retryDelaySeconds: 1 } },
      { text: 'RECOVERED' },
    ]);
    const res = await ctx.headless([
      '--prompt=hello',
      '--output-format',
      'stream-json',
      ...postureArgs(probeSessionId('retry')),
    ]);
    const events = await ctx.telemetry();
    const names = shortNames(events).filter((n) =>
      ['api_error', 'api_response', 'flash_fallback'].includes(n),
    );
    const apiError = events.find((e) => e.name === 'gemini_cli.api_error');
    const status = apiError?.attributes.status_code;
    const answered = res.stdout.includes('RECOVERED');
    const asked = fake.modelRequests().length;
    return {
      observed: `exit ${res.exitCode}; answer ${answered ? 'arrived' : 'missing'}; ${asked} model requests; telemetry ${names.join(' → ') || '(none)'} (api_error.status_code=${String(status)}); ${Math.round(res.durationMs / 100) / 10}s`,
      pass:
        res.exitCode === 0 &&
        answered &&
        asked === 2 &&
        names.join(',') === 'api_error,api_response' &&
        String(status) === '429',
    };
  },
};

export const sessionCollisionProbe: Probe = {
  name: 'session-id-collision',
  behaviour: 'Starting with a `--session-id` whose transcript already exists in the project fails',
  expected: 'second start exits 42 with "Session ID "…" already exists" on stderr',
  async run(ctx) {
    await ctx.startFake([{ text: 'first' }, { text: 'second' }]);
    const sid = probeSessionId('collide');
    const first = await ctx.headless(['--prompt=one', ...postureArgs(sid)]);
    const second = await ctx.headless(['--prompt=two', ...postureArgs(sid)]);
    const said = /Session ID "[^"]+" already exists/.test(second.stderr);
    return {
      observed: `first exit ${first.exitCode}; second exit ${second.exitCode}; stderr ${said ? 'says "already exists"' : `"${brief(second.stderr, 80)}"`}`,
      pass: first.exitCode === 0 && second.exitCode === 42 && said,
    };
  },
};

export const invalidSettingsProbe: Probe = {
  name: 'invalid-settings-json',
  behaviour: 'A settings.json that is not valid JSON (here the workspace one a repo could commit) is fatal',
  expected:
    'exit 52; stderr "Error in <path>/.gemini/settings.json: …" + "Please fix the configuration file(s) and try again."',
  async run(ctx) {
    await mkdir(join(ctx.worktree, '.gemini'), { recursive: true });
    await writeFile(join(ctx.worktree, '.gemini', 'settings.json'), '{ "ui": { "theme": ');
    const res = await ctx.headless(['--prompt=hello', ...postureArgs()], { env: { NO_COLOR: '1' } });
    const ok =
      /Error in .*\.gemini\/settings\.json/.test(res.stderr) &&
      /Please fix the configuration file\(s\)/.test(res.stderr);
    return {
      observed: `exit ${res.exitCode}; stderr ${ok ? 'names the file and asks to fix it' : `"${brief(res.stderr, 100)}"`}`,
      pass: res.exitCode === 52 && ok,
    };
  },
};

export const argvLeakProbe: Probe = {
  name: 'argv-prompt-leak',
  behaviour:
    'The positional prompt is copied into telemetry (resource attribute process.command_args) even with LOG_PROMPTS=false',
  expected:
    'present in process.command_args (so task text must never ride argv); user_prompt has no prompt attribute',
  async run(ctx) {
    await ctx.startFake([{ text: 'ok' }]);
    const marker = `ARGV-MARKER-${Date.now().toString(36)}`;
    // Piped stdio makes the positional prompt headless; the resource attributes are the same either way.
    const res = await ctx.headless([...postureArgs(probeSessionId('argv')), `say ${marker}`]);
    const text = await readFile(ctx.telemetryFile, 'utf8').catch(() => '');
    let inArgs = false;
    for (
      let i = text.indexOf('process.command_args');
      i >= 0;
      i = text.indexOf('process.command_args', i + 1)
    ) {
      if (text.slice(i, i + 2000).includes(marker)) inArgs = true;
    }
    const copies = text.split(marker).length - 1;
    const prompt = (await ctx.telemetry()).find((e) => e.name === 'gemini_cli.user_prompt');
    const promptLogged = prompt !== undefined && 'prompt' in prompt.attributes;
    return {
      observed: `exit ${res.exitCode}; ${inArgs ? 'present' : 'absent'} in process.command_args (${copies} copies in the file); user_prompt ${prompt ? (promptLogged ? 'HAS a prompt attribute' : 'has no prompt attribute') : 'missing'}`,
      pass: res.exitCode === 0 && inArgs && prompt !== undefined && !promptLogged,
    };
  },
};

export const contextFilesProbe: Probe = {
  name: 'context-file-list',
  behaviour:
    'With context.fileName=["GEMINI.local.md","GEMINI.md","AGENTS.md"] every matching file is sent, not the first match',
  expected:
    'GEMINI.local.md and AGENTS.md both in the first request as "--- Context from: <path> ---" blocks; the excluded GEMINI.local.md is not in git status',
  async run(ctx) {
    const fake = await ctx.startFake([{ text: 'ok' }]);
    await writeFile(join(ctx.worktree, 'GEMINI.local.md'), 'CTX-LOCAL-MARKER: the task\n');
    await writeFile(join(ctx.worktree, 'AGENTS.md'), 'CTX-AGENTS-MARKER: repo conventions\n');
    await ctx.git(ctx.worktree, ['add', 'AGENTS.md']);
    await ctx.git(ctx.worktree, ['commit', '-q', '-m', 'agents']);
    await writeFile(join(ctx.worktree, '.git', 'info', 'exclude'), 'GEMINI.local.md\n', { flag: 'a' });
    const res = await ctx.headless([
      '--prompt=Read GEMINI.local.md and do the task.',
      ...postureArgs(probeSessionId('context')),
    ]);
    const first = fake.modelRequests()[0];
    const body = first ? bodyText(first) : '';
    const local = body.indexOf('CTX-LOCAL-MARKER');
    const agents = body.indexOf('CTX-AGENTS-MARKER');
    const blocks = (body.match(/--- Context from: /g) ?? []).length;
    const status = (await ctx.git(ctx.worktree, ['status', '--porcelain'])).stdout.trim();
    const order =
      local >= 0 && agents >= 0 ? (agents < local ? 'AGENTS.md first' : 'GEMINI.local.md first') : 'n/a';
    return {
      observed: `exit ${res.exitCode}; GEMINI.local.md ${local >= 0 ? 'sent' : 'NOT sent'}, AGENTS.md ${agents >= 0 ? 'sent' : 'NOT sent'} (${order}); ${blocks} "Context from" blocks; git status ${status ? `"${brief(status, 60)}"` : 'clean'}`,
      pass:
        res.exitCode === 0 && local >= 0 && agents >= 0 && blocks >= 2 && !status.includes('GEMINI.local.md'),
    };
  },
};

/** How late a record may be read: the profile's batch delay plus the poll and write slack. */
function latencyBound(p: ProbeProfile): number {
  return Math.max(1000, p.telemetryLagMs + 1000);
}

export const latencyProbe: Probe = {
  name: 'telemetry-latency',
  behaviour:
    'OTEL_BLRP_SCHEDULE_DELAY=50 makes telemetry events reach the outfile promptly (default batch delay: 5000 ms)',
  expected: (p) =>
    p.telemetryLagMs < 1000
      ? 'api_request readable in the file < 1000 ms after its event.timestamp'
      : `api_request readable in the file < ${latencyBound(p)} ms after its event.timestamp (the ${p.telemetryLagMs} ms batch delay ignores OTEL_BLRP_SCHEDULE_DELAY)`,
  async run(ctx) {
    await ctx.startFake([{ text: 'slow answer', delayMs: 4000 }]);
    const started = ctx.headless(['--prompt=hello', ...postureArgs(probeSessionId('latency'))]);
    let seenAt: number | undefined;
    let at: number | undefined;
    for (let i = 0; ctx.remainingMs() > 0 && i < 1000; i++) {
      const req = (await ctx.telemetry()).find((e) => e.name === 'gemini_cli.api_request');
      if (req) {
        seenAt = Date.now();
        at = req.at;
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const res = await started;
    const latency = seenAt !== undefined && at !== undefined ? seenAt - at : undefined;
    return {
      observed:
        latency === undefined
          ? `api_request never seen (exit ${res.exitCode})`
          : `api_request read ${latency} ms after it happened (exit ${res.exitCode})`,
      pass: latency !== undefined && latency < latencyBound(ctx.profile) && res.exitCode === 0,
    };
  },
};

export const commitAttributionProbe: Probe = {
  name: 'commit-attribution',
  behaviour:
    'A commit the model makes through the shell tool carries exactly its message: the CLI adds no attribution',
  expected:
    'message "probe: add probe.txt" unchanged; no Co-authored-by / Generated-with / gemini lines; author from the git env',
  async run(ctx) {
    await ctx.startFake([
      {
        functionCalls: [
          {
            name: 'run_shell_command',
            args: {
              command:
                "echo probe > probe.txt && git add probe.txt && git commit -q -m 'probe: add probe.txt'",
              description: 'commit',
            },
          },
        ],
      },
      { text: 'COMMITTED' },
    ]);
    const res = await ctx.headless(['--prompt=commit a file', ...postureArgs(probeSessionId('commit'))]);
    const log = await ctx.git(ctx.worktree, ['log', '-1', '--format=%an <%ae>%n%B']);
    const [author, ...body] = log.stdout.trim().split('\n');
    const message = body.join('\n').trim();
    const marker = body.some((l) => /co-authored-by|generated with|gemini/i.test(l));
    return {
      observed: `exit ${res.exitCode}; message "${brief(message, 60)}"${body.length > 1 ? ` (+${body.length - 1} lines)` : ''}; ${marker ? 'ATTRIBUTION FOUND' : 'no attribution'}; author ${author ?? '?'}`,
      pass:
        res.exitCode === 0 &&
        message === 'probe: add probe.txt' &&
        !marker &&
        author === 'Probe Author <probe@example.invalid>',
    };
  },
};
