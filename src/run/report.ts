/**
 * The run summary in Markdown: used by the demo, the PR comment and the job summary. It renders only what the
 * run produced (status, usage, tool calls, commits, the model's final answer) plus, when given, the task's
 * title — never the context file, the fixed instruction or anything else the user did not write.
 */
import type { Task, ToolKind } from '../domain/types.js';
import { codeSpan, plainInline, publishedBlock, type PublishContext } from '../markdown/publish.js';
import { statusLine } from '../domain/status.js';
import type { ServedTokens } from '../proxy/usage-meter.js';
import type { EgressSummary, LocalServicesSummary, RunResult } from './types.js';

export interface SummaryOptions {
  task?: Task;
  /** First heading; default "Gemini run". */
  heading?: string;
  /** Longest final answer rendered, in characters (GitHub comments stop at 65536). */
  maxAnswerChars?: number;
  /** Where the summary is published (what it may link); without it no reference stays live. */
  publishOn?: PublishContext;
  /** The command that continues this session where it was kept (default: gemini's own `--resume`). */
  resumeCommand?: string;
}

/** A summary printed where no repository is known (the toolkit's local run): nothing in it links anywhere. */
const NOWHERE: PublishContext = { serverUrl: 'https://github.com', owner: '', repo: '' };

/** Token shapes that must never be printed, whatever the model wrote. Exported for tests. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /AIza[0-9A-Za-z_-]{35}/g,
  /ya29\.[0-9A-Za-z._-]{20,}/g,
  /1\/\/0[0-9A-Za-z_-]{30,}/g,
  /gh[pousr]_[A-Za-z0-9]{30,}/g,
  /github_pat_[A-Za-z0-9_]{30,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((t, re) => t.replace(re, '***'), text);
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const formatTokens = (n: number): string => n.toLocaleString('en-US');

export interface ToolRow {
  kind: ToolKind;
  name: string;
  count: number;
  failures: number;
}

/** Tool calls grouped by (kind, name), most used first. Exported for tests. */
export function toolRows(result: RunResult): ToolRow[] {
  const rows = new Map<string, ToolRow>();
  for (const call of result.transcript.toolCalls) {
    const key = `${call.kind}\u0000${call.name}`;
    const row = rows.get(key) ?? { kind: call.kind, name: call.name, count: 0, failures: 0 };
    row.count++;
    if (call.status !== 'success') row.failures++;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** Rows of refused hosts shown; the rest is counted in the heading. */
const MAX_BLOCKED_ROWS = 20;

/** Why the forward proxy refused a host, in the table's words. */
const WHY: Record<EgressSummary['blocked'][number]['why'], string> = {
  'not allowed': 'not allowed',
  'inward address': 'resolves inside the runner',
  'host header': 'Host header names another host',
};

/** What `network` refused the agent: hosts through the forward proxy, packets of direct connections. */
function egressLines(e: EgressSummary): string[] {
  const requests = e.blocked.reduce((n, b) => n + b.count, 0);
  if (requests === 0 && e.droppedPackets === 0) {
    return [`**Network \`${e.mode}\`:** nothing the agent tried was refused.`, ''];
  }
  const out = [
    `**Network \`${e.mode}\`: ${requests} request(s) to ${e.blocked.length} host(s) refused, ${e.droppedPackets} direct packet(s) dropped** (raw sockets, DNS, IPv6 and other ports are refused by a packet filter; add a host the agent needs to \`allowed-hosts\`).`,
    '',
  ];
  if (e.blocked.length > 0) {
    out.push('| Refused host | Port | Times | First | Why |', '|---|---:|---:|---|---|');
    for (const b of e.blocked.slice(0, MAX_BLOCKED_ROWS)) {
      out.push(
        `| ${codeSpan(b.host, { table: true })} | ${b.port} | ${b.count} | ${b.first} | ${WHY[b.why]} |`,
      );
    }
    if (e.blocked.length > MAX_BLOCKED_ROWS)
      out.push(`| … ${e.blocked.length - MAX_BLOCKED_ROWS} more | | | | |`);
    out.push('');
  }
  if (e.droppedTo.length > 0) {
    // Addresses the kernel printed (digits, hex, dots, colons only): nothing the agent could shape into markup.
    out.push('| Dropped direct destination | Port | Attempts |', '|---|---:|---:|');
    for (const d of e.droppedTo)
      out.push(`| ${codeSpan(d.address, { table: true })} | ${d.port} | ${d.count} |`);
    out.push('');
  }
  return out;
}

/** The model proxy's own count: what it forwarded, whoever called (the CLI, or the agent behind its back). */
function servedFact(s: ServedTokens): [string, string] {
  const refused = s.refusedAtLimit > 0 ? `; ${s.refusedAtLimit} model call(s) refused at the budget` : '';
  return [
    'Served by the model proxy',
    `${formatTokens(s.tokens)} tokens in ${s.answers} answer(s)${refused}`,
  ];
}

/** Socket names shown (host paths and abstract names: only plain characters, the rest as `?`). */
function socketNames(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => codeSpan(n.replace(/[^A-Za-z0-9@/._-]/g, '?').slice(0, 120)));
  return `${shown.join(', ')}${names.length > 5 ? ', …' : ''}`;
}

/**
 * What the network policy cannot see: local services the agent could still ask to go out for it. Said only when
 * there is something (hidden sockets are in the log).
 */
function localServiceLines(s: LocalServicesSummary): string[] {
  const out: string[] = [];
  if (s.unavailable !== undefined && s.reachable.length > 0) {
    out.push(
      `**Local services: the agent could reach ${s.reachable.length} local service socket(s)** (${socketNames(s.reachable)}): ${s.unavailable}. A daemon behind one (systemd-resolved, D-Bus, docker) can make network requests for the agent that the packet filter does not see; run the action as root or with passwordless sudo to hide them.`,
      '',
    );
  }
  if (s.abstract.length > 0) {
    out.push(
      `**Local services: ${s.abstract.length} abstract unix socket(s) on this host stay within the agent's reach** (${socketNames(s.abstract)}): they are not files, and the agent shares the host's network namespace.`,
      '',
    );
  }
  return out;
}

function isTask(x: SummaryOptions | Task): x is Task {
  return 'instruction' in x && 'source' in x;
}

/** `renderSummary(result, task)` (the API plan's form) and `renderSummary(result, opts)` both work. */
export function renderSummary(result: RunResult, options: SummaryOptions | Task = {}): string {
  const opts: SummaryOptions = isTask(options) ? { task: options } : options;
  const on = opts.publishOn ?? NOWHERE;
  const out: string[] = [];
  out.push(`## ${opts.heading ?? 'Gemini run'}: ${statusLine(result.status)}`, '');
  if (opts.task?.title) out.push(`**Task:** ${plainInline(redactSecrets(opts.task.title), on)}`, '');
  if (result.message && result.status !== 'finished')
    out.push(`> ${plainInline(redactSecrets(result.message), on)}`, '');
  out.push(...factLines(result));
  if (result.egress) out.push(...egressLines(result.egress));
  if (result.egress && result.localServices) out.push(...localServiceLines(result.localServices));
  out.push(...toolLines(result), ...modelLines(result), ...changeLines(result, on));
  const answer = result.transcript.finalAnswer.trim();
  if (answer) {
    const max = opts.maxAnswerChars ?? 20_000;
    const text = redactSecrets(answer);
    // A block of its own: nothing the answer opens (a fence, a list, HTML) reaches the summary's text after it.
    const shown = publishedBlock(text.length > max ? `${text.slice(0, max)}\n\n…(truncated)` : text, on);
    out.push('### Final answer', '', shown, '');
  }
  if (result.sessionId) {
    const command = opts.resumeCommand ?? `gemini --resume ${result.sessionId}`;
    out.push('### Resume', '', '```sh', command, '```', '');
  }
  return out.join('\n');
}

/** The facts table, and the calls the model proxy refused. */
function factLines(result: RunResult): string[] {
  const usage = result.usage;
  const facts: [string, string][] = [
    ['Status', `\`${result.status}\``],
    ['Mode', result.mode],
    ['Duration', formatDuration(result.durationMs)],
    ['Turns', String(usage.turns)],
    ['Tool calls', String(Math.max(usage.toolCalls, result.transcript.toolCalls.length))],
    ['Total tokens', formatTokens(usage.totalTokens)],
    ...(result.maxTokens
      ? ([['Token budget', `${formatTokens(usage.totalTokens)} of ${formatTokens(result.maxTokens)}`]] as [
          string,
          string,
        ][])
      : []),
    ...(result.served ? [servedFact(result.served)] : []),
  ];
  const out = ['| | |', '|---|---|', ...facts.map(([k, v]) => `| ${k} | ${v} |`), ''];
  const refused = result.refusedCalls;
  if (refused && refused.count > 0) {
    const shown = refused.first.map((c) => codeSpan(c)).join(', ');
    out.push(
      `**${refused.count} call(s) refused by the model proxy** (the agent's credential serves only this run's model calls: its model and the CLI's helper models): ${shown}${refused.count > refused.first.length ? ', …' : ''}`,
      '',
    );
  }
  return out;
}

function toolLines(result: RunResult): string[] {
  const tools = toolRows(result);
  if (tools.length === 0) return [];
  return [
    '### Tool calls',
    '',
    '| Kind | Tool | Calls | Failed |',
    '|---|---|---:|---:|',
    ...tools.map((t) => `| ${t.kind} | ${codeSpan(t.name, { table: true })} | ${t.count} | ${t.failures} |`),
    '',
  ];
}

function modelLines(result: RunResult): string[] {
  const { models } = result.usage;
  if (models.length === 0) return [];
  const out = [
    '### Models',
    '',
    '| Model | Requests | Input | Output | Cached | Total |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const m of models) {
    const mark = m.fallback ? ' (fallback)' : m.utility ? ' (router)' : '';
    const name = `${codeSpan(m.model, { table: true })}${mark}`;
    out.push(
      `| ${name} | ${m.requests} | ${formatTokens(m.inputTokens)} | ${formatTokens(m.outputTokens)} | ` +
        `${formatTokens(m.cachedTokens)} | ${formatTokens(m.totalTokens)} |`,
    );
  }
  if (models.some((m) => m.fallback)) {
    out.push('', '_A model marked (fallback) served because the requested one was unavailable._');
  }
  out.push('');
  return out;
}

function changeLines(result: RunResult, on: PublishContext): string[] {
  const out = ['### Changes', ''];
  if (result.commits.length === 0 && result.filesChanged.length > 0) {
    // The branch moved to commits the remote has already (taken from another branch, or one another run pushed).
    out.push(
      `No commits of the run's own: its branch is at \`${result.headSha.slice(0, 7)}\`, already on GitHub.`,
    );
  } else if (result.commits.length === 0) {
    out.push('No commits.');
  } else {
    out.push(
      `${result.commits.length} commit(s)${result.leftoverCommitted ? ', the last one made by gemini-run from uncommitted work' : ''}:`,
      '',
    );
    for (const c of result.commits)
      out.push(`- \`${c.sha.slice(0, 7)}\` ${plainInline(redactSecrets(c.subject), on)}`);
  }
  if (result.filesChanged.length > 0) {
    out.push('', '<details><summary>Files changed (' + result.filesChanged.length + ')</summary>', '');
    for (const f of result.filesChanged) out.push(`- ${codeSpan(f)}`);
    out.push('', '</details>');
  }
  out.push('');
  return out;
}
