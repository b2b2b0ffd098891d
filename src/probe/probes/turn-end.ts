/**
 * End-of-turn signals other than telemetry's `conversation_finished`: the CLI's dynamic window title and its
 * `AfterAgent` hook. Both exist in 0.42.0 and 0.61.0; 0.61.0 ignores OTEL_BLRP_SCHEDULE_DELAY, so telemetry
 * reaches the outfile up to 5 s late there and one of these has to carry the fast idle edge (compat.md, "Fast
 * edges"). Part of PROBES (src/probe/index.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exec } from '../../util/exec.js';
import type { Interactive } from '../context.js';
import type { OtelLogEvent } from '../otel.js';
import type { Probe } from '../types.js';
import { compact, isRecord, postureArgs, probeSessionId, sleep } from './util.js';

/** The title the TUI sets when its streaming state becomes idle (`computeTerminalTitle`, both versions). */
const READY = /^\u25C7 {2}Ready/;
const WORKING = /Working/;
const ACTION = /Action Required/;

interface TitleChange {
  at: number;
  title: string;
}

/**
 * Records every title change of the pane into a file, in order, stamped by the shell in ms. run-shell without
 * -b: tmux waits for it, so two quick changes cannot be written out of order. `q:` escapes the title for sh:
 * the title is program output (a thought subject when `ui.showStatusInTitle` is on), never shell code.
 */
async function recordTitles(tui: Interactive, file: string): Promise<() => Promise<TitleChange[]>> {
  await exec(
    'tmux',
    [
      '-L',
      tui.driver.socket,
      'set-hook',
      '-g',
      'pane-title-changed',
      `run-shell "echo \\"$(date +%s%3N)\\" #{q:pane_title} >> '${file}'"`,
    ],
    { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '' }, timeoutMs: 5000 },
  );
  return async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    return text
      .split('\n')
      .map((l) => /^(\d+) (.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ at: Number(m[1]), title: (m[2] ?? '').trim() }));
  };
}

function stateOf(title: string): string {
  if (READY.test(title)) return 'Ready';
  if (ACTION.test(title)) return 'ActionRequired';
  if (WORKING.test(title)) return 'Working';
  return 'other';
}

/** Collapsed state sequence, repeats dropped (the title is rewritten when unrelated state changes). */
function states(changes: readonly TitleChange[]): { state: string; at: number }[] {
  const out: { state: string; at: number }[] = [];
  for (const c of changes) {
    const s = stateOf(c.title);
    if (out.at(-1)?.state !== s) out.push({ state: s, at: c.at });
  }
  return out;
}

function finishedStamps(events: readonly OtelLogEvent[]): number[] {
  return events.filter((e) => e.name === 'gemini_cli.conversation_finished').map((e) => e.at);
}

async function addUserSettings(home: string, extra: Record<string, unknown>): Promise<void> {
  const path = join(home, '.gemini', 'settings.json');
  const settings = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  await writeFile(path, `${JSON.stringify({ ...settings, ...extra }, null, 2)}\n`);
}

const titleTurnEndProbe: Probe = {
  name: 'window-title-turn-end',
  behaviour:
    'The dynamic window title (OSC 0) turns "◇  Ready" exactly when a turn ends: once per turn, tool-heavy turns included, in step with conversation_finished',
  expected:
    "turn 1 (tool call) and turn 2 (typed): Working → Ready once each, never Ready between a tool call and the next request; each Ready within 250 ms of that turn's conversation_finished event.timestamp",
  timeoutMs: 45_000,
  async run(ctx) {
    await ctx.startFake([
      { functionCalls: [{ name: 'run_shell_command', args: { command: 'echo one > one.txt' } }] },
      { text: 'TITLE-ONE-DONE' },
      { text: 'TITLE-TWO-DONE' },
    ]);
    const tui = await ctx.interactive([...postureArgs(probeSessionId('title')), 'do the title thing']);
    const titles = await recordTitles(tui, join(ctx.root, 'titles.log'));
    const readyAfterWork = async (n: number) =>
      ctx.waitFor(async () => {
        const s = states(await titles());
        const firstWork = s.findIndex((x) => x.state === 'Working');
        return firstWork >= 0 && s.slice(firstWork).filter((x) => x.state === 'Ready').length >= n
          ? true
          : undefined;
      }, 25_000);
    if (!(await readyAfterWork(1)))
      return {
        observed: `turn 1 never Ready: ${compact(states(await titles()).map((x) => x.state))}`,
        pass: false,
      };
    await tui.waitForScreen(/TITLE-ONE-DONE/, 5000);
    await sleep(500);
    await tui.driver.typeText('second turn please');
    await readyAfterWork(2);
    await sleep(1000);
    const s = states(await titles());
    const firstWork = s.findIndex((x) => x.state === 'Working');
    const turnPart = firstWork >= 0 ? s.slice(firstWork) : [];
    const readies = turnPart.filter((x) => x.state === 'Ready').map((x) => x.at);
    // 0.61.0 flushes telemetry up to 5 s late: wait for both idle records to land.
    const events = await ctx.waitForTelemetry((ev) => finishedStamps(ev).length >= 2, 8000);
    const finished = finishedStamps(events);
    const deltas = readies.map((r, i) => (finished[i] === undefined ? NaN : r - finished[i]));
    const inStep = deltas.length === 2 && deltas.every((d) => Math.abs(d) <= 250);
    return {
      observed: `titles ${compact(turnPart.map((x) => x.state))}; ${readies.length} Ready edge(s); Ready − conversation_finished: ${deltas.map((d) => `${d} ms`).join(', ') || 'none'}`,
      pass: readies.length === 2 && inStep,
    };
  },
};

const titleWallsProbe: Probe = {
  name: 'window-title-walls',
  behaviour:
    'The window title does not claim Ready while the daily-quota dialog waits; after one Escape cancels a hung request it turns Ready',
  expected:
    'quota dialog on screen: last title not Ready (Working or Action Required); Escape on a hung request: "Request cancelled." and the title turns Ready',
  timeoutMs: 45_000,
  async run(ctx) {
    await ctx.startFake([{ error: { status: 429, kind: 'daily-quota' } }]);
    const quota = await ctx.interactive([...postureArgs(probeSessionId('titlequo')), 'hello']);
    const quotaTitles = await recordTitles(quota, join(ctx.root, 'titles-quota.log'));
    const dialog = await quota.waitForScreen(/Usage limit reached/, 20_000);
    await sleep(1500);
    const q = states(await quotaTitles());
    const lastQuota = q.at(-1)?.state ?? 'none';
    await quota.driver.stop();

    const fake = await ctx.startFake([{ hang: true }]);
    const esc = await ctx.interactive([...postureArgs(probeSessionId('titleesc')), 'this will hang']);
    const escTitles = await recordTitles(esc, join(ctx.root, 'titles-esc.log'));
    const asked = await ctx.waitFor(
      () => Promise.resolve(fake.modelRequests().length > 0 ? true : undefined),
      20_000,
    );
    await sleep(500);
    await esc.driver.sendEscape();
    const cancelled = await esc.waitForScreen(/Request cancelled\./, 8000);
    await sleep(800);
    const e = states(await escTitles());
    const lastEsc = e.at(-1)?.state ?? 'none';
    return {
      observed: `quota: dialog ${dialog ? 'shown' : 'NOT shown'}, titles ${compact(q.map((x) => x.state)) || 'none'} (last ${lastQuota}); escape: ${asked ? '' : 'no request; '}${cancelled ? 'cancelled' : 'NOT cancelled'}, titles ${compact(e.map((x) => x.state)) || 'none'} (last ${lastEsc})`,
      pass: dialog !== undefined && lastQuota !== 'Ready' && cancelled !== undefined && lastEsc === 'Ready',
    };
  },
};

const afterAgentHookProbe: Probe = {
  name: 'after-agent-hook',
  behaviour:
    "An `AfterAgent` command hook in the home's settings.json (`hooks.AfterAgent`) runs once per turn, after the final reply, just before conversation_finished, with the turn as JSON on stdin",
  expected:
    'turn 1 (tool call) and turn 2: one run each; stdin {hook_event_name:"AfterAgent", session_id:<--session-id>, prompt_response:<final text>}; each run stamped ≤ its conversation_finished',
  timeoutMs: 45_000,
  async run(ctx) {
    const log = join(ctx.root, 'after-agent.log');
    // Silent and exit 0: a hook's stdout/stderr would become a systemMessage, exit 2 a "deny" (the agent goes on).
    await addUserSettings(ctx.home, {
      hooks: {
        AfterAgent: [
          {
            hooks: [
              {
                type: 'command',
                name: 'probe-turn-end',
                command: `{ printf '%s ' "$(date +%s%3N)"; cat; echo; } >> '${log}' 2>/dev/null; exit 0`,
                timeout: 5000,
              },
            ],
          },
        ],
      },
      hooksConfig: { notifications: false },
    });
    await ctx.startFake([
      { functionCalls: [{ name: 'run_shell_command', args: { command: 'echo one > one.txt' } }] },
      { text: 'HOOK-ONE-DONE' },
      { text: 'HOOK-TWO-DONE' },
    ]);
    const sid = probeSessionId('afteragt');
    const tui = await ctx.interactive([...postureArgs(sid), 'do the hook thing']);
    const runs = async () =>
      (await readFile(log, 'utf8').catch(() => ''))
        .split('\n')
        .map((l) => /^(\d+) (.*)$/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => {
          let input: unknown;
          try {
            input = JSON.parse(m[2] ?? '');
          } catch {
            input = undefined;
          }
          return { at: Number(m[1]), input };
        });
    await ctx.waitFor(async () => ((await runs()).length >= 1 ? true : undefined), 25_000);
    await tui.waitForScreen(/HOOK-ONE-DONE/, 5000);
    await sleep(500);
    const screen = await tui.screen();
    await tui.driver.typeText('second turn please');
    await ctx.waitFor(async () => ((await runs()).length >= 2 ? true : undefined), 15_000);
    await sleep(1000);
    const r = await runs();
    const events = await ctx.waitForTelemetry((ev) => finishedStamps(ev).length >= 2, 8000);
    const finished = finishedStamps(events);
    const inputs = r.map((x) => (isRecord(x.input) ? x.input : {}));
    const shapeOk =
      inputs.length === 2 &&
      inputs.every((i) => i.hook_event_name === 'AfterAgent' && i.session_id === sid) &&
      inputs[0]?.prompt_response === 'HOOK-ONE-DONE' &&
      inputs[1]?.prompt_response === 'HOOK-TWO-DONE';
    const leads = r.map((x, i) => (finished[i] === undefined ? NaN : finished[i] - x.at));
    const before = leads.length === 2 && leads.every((d) => d >= -5);
    const keys = inputs[0] ? Object.keys(inputs[0]).sort().join(',') : 'none';
    const shown = screen
      .split('\n')
      .find((l) => /Executing Hook/i.test(l))
      ?.trim();
    return {
      observed: `${r.length} run(s); stdin keys ${keys}; responses ${inputs.map((i) => JSON.stringify(i.prompt_response)).join(', ')}; conversation_finished − hook: ${leads.map((d) => `${d} ms`).join(', ')}${shown ? `; screen "${shown.slice(0, 80)}"` : '; nothing on screen'}`,
      pass: r.length === 2 && shapeOk && before,
    };
  },
};

const quitFlushesProbe: Probe = {
  name: 'quit-flushes-telemetry',
  behaviour:
    'Typing /quit the moment the title turns Ready (before the batch delay ran out) still leaves every record of the turn in the outfile: the CLI flushes telemetry when it exits',
  expected:
    "exit 0 within 10 s; afterwards the outfile holds the turn's user_prompt, api_response, tool_call and conversation_finished",
  timeoutMs: 45_000,
  async run(ctx) {
    await ctx.startFake([
      { functionCalls: [{ name: 'run_shell_command', args: { command: 'echo one > one.txt' } }] },
      { text: 'FLUSH-DONE' },
    ]);
    const tui = await ctx.interactive([...postureArgs(probeSessionId('flushquit')), 'do the flush thing']);
    const titles = await recordTitles(tui, join(ctx.root, 'titles.log'));
    const ready = await ctx.waitFor(async () => {
      const s = states(await titles());
      const firstWork = s.findIndex((x) => x.state === 'Working');
      return firstWork >= 0 && s.slice(firstWork).some((x) => x.state === 'Ready') ? true : undefined;
    }, 25_000);
    if (!ready) return { observed: 'the title never turned Ready', pass: false };
    const before = (await ctx.telemetry()).map((e) => e.name.replace('gemini_cli.', ''));
    await tui.driver.typeText('/quit');
    const code = await tui.waitForExit(10_000);
    await sleep(300);
    const after = (await ctx.telemetry()).map((e) => e.name.replace('gemini_cli.', ''));
    const wanted = ['user_prompt', 'api_response', 'tool_call', 'conversation_finished'];
    const missing = wanted.filter((w) => !after.includes(w));
    const had = wanted.filter((w) => before.includes(w));
    return {
      observed: `at Ready the file held ${had.join(', ') || 'none of them'}; /quit → ${code === undefined ? 'still running' : `exit ${code}`}; afterwards ${missing.length === 0 ? 'all four' : `missing ${missing.join(', ')}`}`,
      pass: code === 0 && missing.length === 0,
    };
  },
};

/** The text 0.61.0's TUI sends by itself after a continuation ended with no visible text (`useGeminiStream`). */
const NUDGE = /You successfully executed a tool but returned an empty response/;

const escapeAfterToolProbe: Probe = {
  name: 'escape-after-tool-call',
  behaviour:
    'One Escape cancels a hung request that follows a tool call; whether the TUI then asks the model again by itself (an "auto-nudge"), and whether a tool call in that answer runs',
  expected: (p) =>
    p.nudgesAfterCancel === 0
      ? 'no model request after the Escape; the answered tool call does not run; the title turns Ready'
      : `the TUI sends a nudge ("You successfully executed a tool but returned an empty response…") right after the Escape, and a tool call in its answer runs; each further Escape is nudged again, at most ${p.nudgesAfterCancel} times, then the title turns Ready`,
  timeoutMs: 60_000,
  async run(ctx) {
    const answer = (file: string) => ({
      functionCalls: [{ name: 'run_shell_command', args: { command: `echo x > ${file}` } }],
    });
    const fake = await ctx.startFake([
      answer('one.txt'),
      { hang: true },
      answer('after1.txt'),
      { hang: true },
      answer('after2.txt'),
      { hang: true },
      answer('after3.txt'),
      { hang: true },
      { text: 'NUDGE-DONE' },
    ]);
    const tui = await ctx.interactive([...postureArgs(probeSessionId('nudge')), 'do the nudge thing']);
    const titles = await recordTitles(tui, join(ctx.root, 'titles.log'));
    const requests = (): number => fake.modelRequests().length;
    // The first wait covers the CLI's start, an answer and a shell tool: 30 s, as seen under load on 2 cores.
    const hung = (n: number, ms = 12_000) =>
      ctx.waitFor(() => Promise.resolve(requests() >= n ? true : undefined), ms);
    // Escape each hung request the way the timeout does; count the requests the TUI makes by itself.
    let escapes = 0;
    let nudges = 0;
    if (!(await hung(2, 30_000)))
      return { observed: `the hung request never came (${requests()} requests)`, pass: false };
    for (let n = 2; escapes < 4; n += 2) {
      await sleep(500);
      await tui.driver.sendEscape();
      escapes++;
      // A nudge answer (a tool call) and its own continuation request: two more requests.
      if (!(await hung(n + 2))) break;
      nudges++;
    }
    await sleep(1500);
    const ran = await Promise.all(
      ['after1.txt', 'after2.txt', 'after3.txt'].map((f) =>
        readFile(join(ctx.worktree, f)).then(
          () => f,
          () => undefined,
        ),
      ),
    );
    const nudgeSeen = fake.modelRequests().some((r) => NUDGE.test(JSON.stringify(r.body) ?? ''));
    const t = states(await titles());
    const last = t.at(-1)?.state ?? 'none';
    const ranAfter = ran.filter((f) => f !== undefined);
    const p = ctx.profile;
    return {
      observed: `${escapes} Escape(s), ${nudges} nudge(s) after them${nudgeSeen ? ' (nudge text seen)' : ''}; tool calls run after an Escape: ${ranAfter.join(', ') || 'none'}; ${requests()} model requests; titles ${compact(t.map((x) => x.state))}`,
      pass:
        nudges === p.nudgesAfterCancel &&
        ranAfter.length === p.nudgesAfterCancel &&
        nudgeSeen === p.nudgesAfterCancel > 0 &&
        last === 'Ready',
    };
  },
};

export const TURN_END_PROBES: readonly Probe[] = [
  titleTurnEndProbe,
  titleWallsProbe,
  afterAgentHookProbe,
  quitFlushesProbe,
  escapeAfterToolProbe,
];
