/**
 * Builders for synthetic Gemini CLI 0.42.0 telemetry and transcript files, shaped after records captured
 * from the real binary (fixtures/synthetic/headless-probe/): log records carry the serialized OTel resource,
 * spans carry the whole system prompt (tens of KB), metric batches are deep pretty-printed trees. The
 * serialisation is the CLI's own: `JSON.stringify(x, null, 2) + "\n"` for telemetry, one compact line per
 * transcript record.
 */
import { randomUUID } from 'node:crypto';
import { exec } from '../../src/util/exec.js';

const SESSION = '11111111-2222-3333-4444-555555555555';

function resource(): unknown {
  return {
    _rawAttributes: [
      ['host.name', 'vm'],
      ['host.arch', 'amd64'],
      ['host.id', null],
      ['process.pid', 7759],
      ['process.executable.name', '/usr/bin/node'],
      ['process.executable.path', '/usr/bin/node'],
      [
        'process.command_args',
        [
          '/usr/bin/node',
          '--max-old-space-size=12052',
          '/x/bin/gemini',
          '--approval-mode',
          'yolo',
          '--skip-trust',
        ],
      ],
      ['process.runtime.version', '20.20.2'],
      ['process.runtime.name', 'nodejs'],
      ['process.command', '/x/bin/gemini'],
      ['process.owner', 'runner'],
      ['service.name', 'gemini-cli'],
      ['service.version', 'v20.20.2'],
      ['session.id', SESSION],
    ],
    _asyncAttributesPending: false,
  };
}

/** One OTel log record as the FileLogExporter writes it. */
export function logRecord(name: string, atMs: number, attrs: Record<string, unknown>, body = ''): string {
  const sec = Math.floor(atMs / 1000);
  const ns = (atMs % 1000) * 1e6;
  const rec = {
    hrTime: [sec, ns],
    hrTimeObserved: [sec, ns],
    resource: resource(),
    instrumentationScope: { name: 'gemini-cli' },
    attributes: {
      'session.id': SESSION,
      'installation.id': '270b0228-ee62-4692-b7d5-2b491ac8d460',
      interactive: true,
      auth_type: 'gemini-api-key',
      'event.name': name,
      'event.timestamp': new Date(atMs).toISOString(),
      ...attrs,
    },
    _body: body,
    totalAttributesCount: 8 + Object.keys(attrs).length,
    _isReadonly: true,
    _logRecordLimits: { attributeCountLimit: 128, attributeValueLengthLimit: null },
  };
  return JSON.stringify(rec, null, 2) + '\n';
}

const SYSTEM_PROMPT =
  'You are an interactive CLI agent specializing in software engineering tasks. {"not": "a record"} ' +
  'Use "quotes" and \\backslashes\\ and braces { } like code: function f() { return "}"; } ünïcødé ✓ 😀\n';

/** A span as the FileSpanExporter writes it: big (the system prompt), with braces and quotes in strings. */
export function span(atMs: number, promptCopies = 120): string {
  const text = SYSTEM_PROMPT.repeat(promptCopies);
  const rec = {
    _spanContext: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 },
    kind: 0,
    attributes: {
      'gen_ai.request.model': 'gemini-2.5-flash',
      'gen_ai.system_instructions': JSON.stringify(text),
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ text: 'event.name": "gemini_cli.user_prompt' }] },
      ]),
    },
    links: [],
    events: [],
    startTime: [Math.floor(atMs / 1000), 0],
    resource: resource(),
    instrumentationScope: { name: 'gemini-cli' },
    name: 'llm_call',
    status: { code: 0 },
    endTime: [Math.floor(atMs / 1000), 5e8],
    _ended: true,
    _duration: [0, 5e8],
  };
  return JSON.stringify(rec, null, 2) + '\n';
}

/** A metric batch: many small nested objects. */
export function metrics(atMs: number, series = 40): string {
  const points = Array.from({ length: series }, (_, i) => ({
    attributes: { 'session.id': SESSION, model: 'gemini-2.5-flash', type: i % 2 ? 'input' : 'output' },
    startTime: [Math.floor(atMs / 1000), 0],
    endTime: [Math.floor(atMs / 1000), 1],
    value: {
      min: 1,
      max: 100 + i,
      sum: 1000,
      buckets: { boundaries: [0, 5, 10, 25, 50, 75, 100], counts: [0, 1, 2, 3, 4, 5, 6, 7] },
      count: 28,
    },
  }));
  const rec = {
    resource: resource(),
    scopeMetrics: [
      {
        scope: { name: 'gemini-cli', version: '' },
        metrics: [
          {
            descriptor: {
              name: 'gemini_cli.token.usage',
              type: 'COUNTER',
              description: 'Counts tokens',
              unit: '',
              valueType: 0,
            },
            aggregationTemporality: 1,
            dataPointType: 3,
            dataPoints: points,
          },
        ],
      },
    ],
  };
  return JSON.stringify(rec, null, 2) + '\n';
}

export interface TurnOpts {
  at: number;
  turn: number;
  tools?: string[];
  /** Emit a second conversation_finished (the noise the CLI produces when an info item is added). */
  noise?: boolean;
  model?: string;
  bigRecords?: boolean;
}

/** One interactive turn: user_prompt … api/tool records … conversation_finished. Returns text + next time. */
export function interactiveTurn(o: TurnOpts): { text: string; at: number } {
  let t = o.at;
  const model = o.model ?? 'gemini-2.5-flash';
  const promptId = `${SESSION}########${o.turn}`;
  const parts: string[] = [];
  parts.push(
    logRecord(
      'gemini_cli.user_prompt',
      t,
      { prompt_length: 40, prompt_id: promptId },
      'User prompt. Length: 40.',
    ),
  );
  for (const tool of [...(o.tools ?? []), null]) {
    t += 10;
    parts.push(
      logRecord(
        'gemini_cli.api_request',
        t,
        { model, prompt_id: promptId, role: 'main' },
        `API request to ${model}.`,
      ),
    );
    if (o.bigRecords !== false) parts.push(span(t));
    t += 30;
    parts.push(
      logRecord(
        'gemini_cli.api_response',
        t,
        {
          model,
          duration_ms: 30,
          input_token_count: 100,
          output_token_count: 7,
          cached_content_token_count: 3,
          thoughts_token_count: 0,
          tool_token_count: 0,
          total_token_count: 107,
          prompt_id: promptId,
          status_code: 200,
          finish_reasons: ['stop'],
          role: 'main',
          'http.status_code': 200,
        },
        `API response from ${model}. Status: 200. Duration: 30ms.`,
      ),
    );
    if (tool) {
      t += 5;
      parts.push(
        logRecord(
          'gemini_cli.tool_call',
          t,
          {
            function_name: tool,
            duration_ms: 5,
            success: true,
            decision: 'auto_accept',
            prompt_id: promptId,
            tool_type: 'native',
          },
          `Tool call: ${tool}. Decision: auto_accept. Success: true. Duration: 5ms.`,
        ),
      );
    }
  }
  if (o.bigRecords !== false) parts.push(metrics(t));
  t += 5;
  parts.push(logRecord('gemini_cli.conversation_finished', t, { approvalMode: 'yolo', turnCount: 2 }));
  if (o.noise) {
    t += 50;
    parts.push(logRecord('gemini_cli.conversation_finished', t, { approvalMode: 'yolo', turnCount: 3 }));
  }
  return { text: parts.join(''), at: t + 100 };
}

/** A daily-quota 429 as the CLI logs it (error JSON in error.message). */
export function quotaError(at: number, model = 'gemini-3-flash-preview'): string {
  const err = JSON.stringify({
    error: {
      code: 429,
      message: 'Quota exceeded for metric generate_requests per day',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }],
        },
      ],
    },
  });
  return logRecord(
    'gemini_cli.api_error',
    at,
    {
      'error.message': err,
      model_name: model,
      model,
      error: err,
      status_code: 429,
      duration_ms: 19,
      'error.type': 'ApiError',
    },
    `API error for ${model}. Error: ${err}.`,
  );
}

/** A synthetic telemetry file of about `targetBytes`, made of interactive turns. Returns its turn count. */
export function* telemetryChunks(targetBytes: number): Generator<string> {
  let at = Date.UTC(2026, 11, 2, 12, 0, 0);
  let written = 0;
  let turn = 1;
  while (written < targetBytes) {
    const t = interactiveTurn({ at, turn, tools: ['read_file', 'run_shell_command'], noise: turn % 3 === 0 });
    at = t.at;
    turn++;
    written += Buffer.byteLength(t.text);
    yield t.text;
  }
}

/** One transcript turn in the CLI's write order: user, $set, gemini (empty), re-append with toolCalls, … */
/**
 * One turn in the CLI's write order. `shape: '0.61.0'` adds what 0.61.0 writes besides: the tool result again
 * as a `user` record of functionResponse parts, and every 50th turn a `$set.messages` snapshot of the history
 * (0.61.0 writes one when a session is resumed or rolled back, holding every message and tool output so far):
 * here 50 copies of this turn's messages, tool outputs included, and a summary.
 */
export function transcriptTurn(
  turn: number,
  atMs: number,
  bigOutput = 2000,
  shape: '0.42.0' | '0.61.0' = '0.42.0',
): string[] {
  const ts = (d: number): string => new Date(atMs + d).toISOString();
  const lines: string[] = [];
  const user = {
    id: randomUUID(),
    timestamp: ts(0),
    type: 'user',
    content: [{ text: `Turn ${turn}: do the thing.` }],
  };
  lines.push(JSON.stringify(user), JSON.stringify({ $set: { lastUpdated: ts(0) } }));
  const gid = randomUUID();
  const tokens = { input: 100, output: 7, cached: 3, thoughts: 0, tool: 0, total: 110 };
  const base = {
    id: gid,
    timestamp: ts(10),
    type: 'gemini',
    content: 'Let me look {"a":"}\\" at it. ünï',
    thoughts: [{ subject: 'Plan', description: 'Read the file first.', timestamp: ts(5) }],
    tokens,
    model: 'gemini-2.5-flash',
  };
  lines.push(JSON.stringify(base), JSON.stringify({ $set: { lastUpdated: ts(10) } }));
  const output = 'line of tool output with "quotes" and {braces}\n'.repeat(Math.ceil(bigOutput / 48));
  const call = {
    id: `read_file_${atMs}_0`,
    name: 'read_file',
    args: { file_path: 'src/index.ts' },
    result: [{ functionResponse: { id: `read_file_${atMs}_0`, name: 'read_file', response: { output } } }],
    status: 'success',
    timestamp: ts(20),
    resultDisplay: '',
    description: 'src/index.ts',
    displayName: 'ReadFile',
    renderOutputAsMarkdown: true,
  };
  lines.push(JSON.stringify({ ...base, toolCalls: [call] }));
  if (shape === '0.61.0') {
    const toolResult = { id: randomUUID(), timestamp: ts(21), type: 'user', content: call.result };
    lines.push(JSON.stringify(toolResult), JSON.stringify({ $set: { lastUpdated: ts(21) } }));
    if (turn % 50 === 49) {
      const summary = { id: randomUUID(), timestamp: ts(22), type: 'user', content: [{ text: output }] };
      const history = Array.from({ length: 50 }, () => [
        user,
        { ...base, toolCalls: [call] },
        toolResult,
      ]).flat();
      lines.push(JSON.stringify({ $set: { messages: [...history, summary], lastUpdated: ts(22) } }));
    }
  }
  lines.push(
    JSON.stringify({
      id: randomUUID(),
      timestamp: ts(40),
      type: 'gemini',
      content: `Done with turn ${turn}.`,
      thoughts: [],
      tokens,
      model: 'gemini-2.5-flash',
    }),
    JSON.stringify({ $set: { lastUpdated: ts(40) } }),
  );
  return lines;
}

export function transcriptHeader(sessionId = SESSION, at = Date.UTC(2026, 11, 2, 12, 0, 0)): string {
  return JSON.stringify({
    sessionId,
    projectHash: 'a'.repeat(64),
    startTime: new Date(at).toISOString(),
    lastUpdated: new Date(at).toISOString(),
    kind: 'main',
  });
}

/**
 * Prints `# <name>: <how>` (how the figure was measured, one line) and `BENCH <name> <value> <unit> …`. A figure
 * that was not measured (zero, negative or not a number, or such a baseline) is not printed as one: the line says
 * `# <name>: not measured (…)` and no BENCH line follows.
 */
export function bench(
  name: string,
  value: number,
  unit: string,
  how: string,
  extra: { baseline?: number; ratio?: number } = {},
): void {
  const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2));
  const measured = (n: number | undefined): boolean => n === undefined || (Number.isFinite(n) && n > 0);
  console.log(`# ${name}: ${how}`);
  if (!measured(value) || !measured(extra.baseline) || !measured(extra.ratio)) {
    const got = [`value=${value}`, ...Object.entries(extra).map(([k, v]) => `${k}=${v}`)].join(' ');
    console.log(`# ${name}: not measured (${got} ${unit}: not a positive finite figure)`);
    return;
  }
  let line = `BENCH ${name} ${fmt(value)} ${unit}`;
  if (extra.baseline !== undefined) line += ` baseline=${fmt(extra.baseline)}`;
  if (extra.ratio !== undefined) line += ` ratio=${fmt(extra.ratio)}`;
  console.log(line);
}

/** The middle of the samples (the mean of the two middle ones for an even count); NaN, "not measured", for none. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  if (s.length === 0) return NaN;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export interface Measured<T> {
  value: T;
  /** Best wall time over the rounds: the machine is shared, and noise only ever adds time. */
  ms: number;
}

/** Runs fn `rounds` times after a GC each (when --expose-gc), returning the best wall time. */
export async function measure<T>(rounds: number, fn: () => Promise<T>): Promise<Measured<T>> {
  let best = Infinity;
  let value: T | undefined;
  for (let r = 0; r < rounds; r++) {
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = performance.now();
    value = await fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { value: value as T, ms: best };
}

const RSS_SIDE = '--rss-side=';

/**
 * In a child started by `peakRssMb`: the side it is to run once (then it calls `printPeakRss`), else undefined.
 */
export function rssSide(): string | undefined {
  return process.argv.find((a) => a.startsWith(RSS_SIDE))?.slice(RSS_SIDE.length);
}

export function printPeakRss(): void {
  console.log(`maxrss-kb ${process.resourceUsage().maxRSS}`);
}

/** How peakRssMb measures, for the benchmark's `how` line. */
export const PEAK_RSS_HOW =
  'peak RSS growth: getrusage maxrss of a fresh process that runs the side once, less that of one that only starts (same imports)';

/**
 * The peak RSS growth of running `side` once, in MB: the benchmark file `file` is started again as a fresh process
 * in `--rss-side=<side>` mode and the kernel's high-water mark (getrusage maxrss) is compared with that of a fresh
 * process started in `--rss-side=idle` mode. In-process sampling cannot do this: a streaming reader reuses heap
 * the process already grew (writing the input, an earlier round), so its growth reads as 0.
 */
export async function peakRssMb(file: string, side: string, args: string[]): Promise<number> {
  return (await runRssSide(file, side, args)).mb - (await runRssSide(file, 'idle', args)).mb;
}

/** Runs one side of `file` in a fresh process: its maxrss in MB, and what it printed. */
export async function runRssSide(
  file: string,
  side: string,
  args: string[],
): Promise<{ mb: number; stdout: string }> {
  const r = await exec(process.execPath, ['--import', 'tsx', file, `${RSS_SIDE}${side}`, ...args], {
    env: process.env,
    timeoutMs: 600_000,
  });
  const kb = /^maxrss-kb (\d+)$/m.exec(r.stdout)?.[1];
  if (kb === undefined) throw new Error(`${file} ${RSS_SIDE}${side} printed no maxrss-kb line`);
  return { mb: (Number(kb) * 1024) / 1e6, stdout: r.stdout };
}
