import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exec } from '../../util/exec.js';
import { PROBE_MODEL } from '../context.js';
import { bodyText } from '../fake.js';
import type { Probe } from '../types.js';
import {
  PROMPT_BOX,
  compact,
  count,
  isRecord,
  postureArgs,
  probeSessionId,
  readJsonLines,
  recordKind,
  shortNames,
  sleep,
  turns,
} from './util.js';

const DIALOG =
  /Do you trust|Choose an authentication|Select Theme|Usage limit reached|Update available|Allow execution/i;

export const positionalPromptProbe: Probe = {
  name: 'interactive-positional-prompt',
  behaviour:
    'In a TTY, `gemini --approval-mode yolo --skip-trust --session-id <id> -m <m> "<prompt>"` starts the TUI and runs the prompt as turn 1',
  expected:
    'no dialog; the first model request carries the prompt; the answer is on screen; the TUI stays open',
  async run(ctx) {
    const fake = await ctx.startFake([{ text: 'POSITIONAL-REPLY' }]);
    const marker = `POSITIONAL-${Date.now().toString(36)}`;
    const tui = await ctx.interactive([...postureArgs(probeSessionId('posit')), `Say ${marker}`]);
    const screen = await tui.waitForScreen(/POSITIONAL-REPLY/);
    const first = fake.modelRequests()[0];
    const carried = first !== undefined && bodyText(first).includes(marker);
    const state = await tui.driver.paneState();
    const dialog = screen ? DIALOG.exec(screen)?.[0] : undefined;
    return {
      observed: `answer ${screen ? 'on screen' : 'NOT on screen'}; prompt ${carried ? 'in' : 'NOT in'} the first request; ${dialog ? `dialog "${dialog}"` : 'no dialog'}; TUI ${state.dead ? 'exited' : 'open'}`,
      pass: screen !== undefined && carried && !dialog && !state.dead,
    };
  },
};

export const turnEdgesProbe: Probe = {
  name: 'telemetry-turn-edges',
  behaviour:
    'Interactive telemetry: every turn starts with user_prompt and ends with conversation_finished, tool-heavy turns included',
  expected:
    'turn 1 (2 tool calls): user_prompt … tool_call×2 … conversation_finished; turn 2 (typed reply): user_prompt … conversation_finished',
  timeoutMs: 45_000,
  async run(ctx) {
    await ctx.startFake([
      {
        functionCalls: [
          { name: 'run_shell_command', args: { command: 'echo one > one.txt', description: 'write' } },
        ],
      },
      { functionCalls: [{ name: 'list_directory', args: { dir_path: '.' } }] },
      { text: 'TURN-ONE-DONE' },
      { text: 'TURN-TWO-DONE' },
    ]);
    const tui = await ctx.interactive([...postureArgs(probeSessionId('edges')), 'do the tool-heavy thing']);
    const finished = (n: number) => (ev: Parameters<typeof turns>[0]) =>
      turns(ev).length >= n && turns(ev)[n - 1]?.includes('conversation_finished') === true;
    await ctx.waitForTelemetry(finished(1), 25_000);
    await tui.waitForScreen(/TURN-ONE-DONE/, 5000);
    await tui.driver.typeText('second turn please');
    const events = await ctx.waitForTelemetry(finished(2), 15_000);
    const t = turns(events);
    const describe = (turn: string[] | undefined) => (turn ? compact(turn) : 'missing');
    const ok1 =
      t[0] !== undefined && count(t[0], 'tool_call') === 2 && t[0].includes('conversation_finished');
    const ok2 = t[1] !== undefined && t[1].includes('conversation_finished');
    // The edge the engine uses: the first conversation_finished after the turn's user_prompt.
    const firstAfterTools = t[0]
      ? t[0].indexOf('conversation_finished') > t[0].lastIndexOf('tool_call')
      : false;
    return {
      observed: `turn 1: ${describe(t[0])}; turn 2: ${describe(t[1])}`,
      pass: ok1 && ok2 && firstAfterTools && t.length === 2,
    };
  },
};

export const quotaInteractiveProbe: Probe = {
  name: 'quota-interactive',
  behaviour:
    'A daily-quota 429 in the TUI opens the blocking quota dialog; telemetry shows api_error 429 and no idle edge',
  expected: `screen "Usage limit reached for ${PROBE_MODEL}." with a Stop option; api_error{status_code:429}; no conversation_finished; the CLI waits`,
  async run(ctx) {
    await ctx.startFake([{ error: { status: 429, kind: 'daily-quota' } }]);
    const sid = probeSessionId('quotatui');
    const tui = await ctx.interactive([...postureArgs(sid), 'hello']);
    const screen = await tui.waitForScreen(/Usage limit reached/, 20_000);
    const events = await ctx.waitForTelemetry(
      (ev) => ev.some((e) => e.name === 'gemini_cli.api_error'),
      5000,
    );
    await sleep(1500);
    const later = await ctx.telemetry();
    const apiError = events.find((e) => e.name === 'gemini_cli.api_error');
    const finished = later.some((e) => e.name === 'gemini_cli.conversation_finished');
    const files = await ctx.sessionFiles();
    const records = files[0] ? await readJsonLines(join(ctx.projectsTmp(), files[0])) : [];
    const line = screen
      ?.split('\n')
      .find((l) => l.includes('Usage limit reached'))
      ?.replace(/[│╭╮╰╯─]/g, '')
      .trim();
    const stop = screen ? /Stop/.test(screen) : false;
    const alive = !(await tui.driver.paneState()).dead;
    return {
      observed: `screen "${line ?? '(no dialog)'}"${stop ? ' + Stop option' : ''}; api_error status_code=${String(apiError?.attributes.status_code)}; conversation_finished ${finished ? 'FIRED' : 'absent'}; transcript ${compact(records.map(recordKind))}; CLI ${alive ? 'waiting' : 'exited'}`,
      pass:
        line === `Usage limit reached for ${PROBE_MODEL}.` &&
        stop &&
        String(apiError?.attributes.status_code) === '429' &&
        !finished &&
        alive,
    };
  },
};

export const escapeCancelsProbe: Probe = {
  name: 'escape-cancels-request',
  behaviour:
    'One Escape while a model request hangs cancels it; the TUI returns to idle (the timeout recipe)',
  expected:
    'screen "Request cancelled."; telemetry api_error then conversation_finished; transcript info record "Request cancelled."; TUI still open',
  async run(ctx) {
    const fake = await ctx.startFake([{ hang: true }]);
    const tui = await ctx.interactive([...postureArgs(probeSessionId('escape')), 'this will hang']);
    const asked = await ctx.waitFor(
      () => Promise.resolve(fake.modelRequests().length > 0 ? true : undefined),
      20_000,
    );
    if (!asked) return { observed: 'no model request was made', pass: false };
    await sleep(500);
    await tui.driver.sendEscape();
    const screen = await tui.waitForScreen(/Request cancelled\./, 8000);
    const events = await ctx.waitForTelemetry(
      (ev) => ev.some((e) => e.name === 'gemini_cli.conversation_finished'),
      5000,
    );
    const tail = shortNames(events).filter((n) =>
      ['user_prompt', 'api_request', 'api_error', 'conversation_finished'].includes(n),
    );
    const files = await ctx.sessionFiles();
    const records = files[0] ? await readJsonLines(join(ctx.projectsTmp(), files[0])) : [];
    const info = records.some((r) => isRecord(r) && r.type === 'info' && r.content === 'Request cancelled.');
    const alive = !(await tui.driver.paneState()).dead;
    return {
      observed: `screen ${screen ? 'shows' : 'does NOT show'} "Request cancelled."; telemetry ${compact(tail)}; transcript info record ${info ? 'present' : 'absent'}; TUI ${alive ? 'open' : 'exited'}`,
      pass:
        screen !== undefined && tail.join(',').endsWith('api_error,conversation_finished') && info && alive,
    };
  },
};

export const quitProbe: Probe = {
  name: 'quit-command',
  behaviour: 'Typing `/quit` + Enter at idle ends the CLI cleanly and prints how to resume',
  expected: 'exit 0; screen "To resume this session: gemini --resume <session id>"',
  async run(ctx) {
    await ctx.startFake([{ text: 'QUIT-PROBE-ANSWER' }]);
    const sid = probeSessionId('quit');
    const tui = await ctx.interactive([...postureArgs(sid), 'hello']);
    await ctx.waitForTelemetry((ev) => ev.some((e) => e.name === 'gemini_cli.conversation_finished'), 20_000);
    await tui.driver.typeText('/quit');
    const code = await tui.waitForExit(10_000);
    const screen = await tui.screen();
    const hint = screen.includes(`To resume this session: gemini --resume ${sid}`);
    return {
      observed: `exit ${code ?? 'none (still running)'}; resume hint ${hint ? 'printed' : 'absent'}`,
      pass: code === 0 && hint,
    };
  },
};

export const ctrlCProbe: Probe = {
  name: 'ctrl-c-twice-quits',
  behaviour:
    'Ctrl-C hazard (probe only; the product never sends it): first press warns, a second press within 3 s quits even at idle',
  expected: 'after 1st: "Press Ctrl+C again to exit." and still running; after 2nd: the CLI exits (code 0)',
  async run(ctx) {
    await ctx.startFake([{ text: 'unused' }]);
    const tui = await ctx.interactive(postureArgs(probeSessionId('ctrlc')));
    if (!(await tui.waitForScreen(PROMPT_BOX, 20_000)))
      return { observed: 'TUI never became ready', pass: false };
    await sleep(500);
    await ctx.sendRawKey(tui, 'C-c');
    const warned = await tui.waitForScreen(/Press Ctrl\+C again to exit\./, 3000);
    const aliveAfterOne = !(await tui.driver.paneState()).dead;
    await ctx.sendRawKey(tui, 'C-c');
    // 15 s: under load the second press can take longer than 8 s to end the CLI (seen on a shared 2-core machine).
    let code = await tui.waitForExit(15_000);
    // Under heavier load the warning can be drawn so late that the second press lands after the CLI's window, and
    // counts as a new first press (seen on 0.61.0 in CI). One more pair, back to back, tells that from a CLI that
    // does not quit on a second press.
    let pairs = 1;
    if (code === undefined) {
      pairs++;
      await ctx.sendRawKey(tui, 'C-c');
      await ctx.sendRawKey(tui, 'C-c');
      code = await tui.waitForExit(15_000);
    }
    return {
      observed: `1st press: ${warned ? 'warning shown' : 'no warning'}, ${aliveAfterOne ? 'still running' : 'EXITED'}; 2nd press: ${code === undefined ? 'still running' : `exit ${code}`}${pairs > 1 ? ' (after a second pair of presses)' : ''}`,
      pass: warned !== undefined && aliveAfterOne && code === 0,
    };
  },
};

export const memoryShowProbe: Probe = {
  name: 'memory-show',
  behaviour:
    '`/memory show` lists every loaded context file (GEMINI.local.md and AGENTS.md) — the discovery check',
  expected:
    '"Current memory content from 2 file(s)" with AGENTS.md then GEMINI.local.md (path order, not list order)',
  async run(ctx) {
    await ctx.startFake([{ text: 'unused' }]);
    await writeFile(join(ctx.worktree, 'GEMINI.local.md'), 'MEM-LOCAL-MARKER\n');
    await writeFile(join(ctx.worktree, 'AGENTS.md'), 'MEM-AGENTS-MARKER\n');
    const tui = await ctx.interactive(postureArgs(probeSessionId('memory')));
    if (!(await tui.waitForScreen(PROMPT_BOX, 20_000)))
      return { observed: 'TUI never became ready', pass: false };
    const listed = /MEM-(LOCAL|AGENTS)-MARKER[\s\S]*MEM-(LOCAL|AGENTS)-MARKER/;
    await tui.driver.typeText('/memory show');
    let screen = await tui.waitForScreen(listed, 4000);
    // Seen on 0.61.0 under load: an Enter right after start-up is dropped and the command stays in the input box
    // (the footer already says "2 context files"). That is not what this probe checks: press Enter once more.
    let enters = 1;
    if (!screen && /^\s*[>*]\s+\/memory show\s*$/m.test(await tui.screen())) {
      await ctx.sendRawKey(tui, 'Enter');
      enters++;
      screen = await tui.waitForScreen(listed, 8000);
    }
    const count = /Current memory content from (\d+) file/.exec(screen ?? '')?.[1];
    const order = [...(screen ?? '').matchAll(/--- Context from: (\S+) ---/g)].map((m) =>
      (m[1] ?? '').split('/').pop(),
    );
    return {
      observed: `${count ?? '?'} file(s): ${order.join(', ') || 'none listed'}${enters > 1 ? ' (Enter pressed twice)' : ''}`,
      pass: count === '2' && order.join(',') === 'AGENTS.md,GEMINI.local.md',
    };
  },
};

export const ciHeadlessProbe: Probe = {
  name: 'ci-forces-headless',
  behaviour:
    'CI=true in the environment makes a positional prompt headless even in a TTY (so CI/GITHUB_ACTIONS must never reach gemini)',
  expected: 'in a tmux pane with CI=true the CLI answers and exits 0 by itself (no TUI)',
  async run(ctx) {
    await ctx.startFake([{ text: 'CI-HEADLESS-ANSWER' }]);
    const tui = await ctx.interactive([...postureArgs(probeSessionId('ci')), 'hello'], {
      env: { CI: 'true' },
    });
    const code = await tui.waitForExit(20_000);
    const screen = await tui.screen();
    const answered = screen.includes('CI-HEADLESS-ANSWER');
    const tuiSeen = PROMPT_BOX.test(screen);
    return {
      observed: `${code === undefined ? 'still running' : `exit ${code}`}; answer ${answered ? 'printed' : 'absent'}; ${tuiSeen ? 'TUI shown' : 'no TUI'}`,
      pass: code === 0 && answered && !tuiSeen,
    };
  },
};

export const autoUpdateProbe: Probe = {
  name: 'auto-update-off',
  behaviour:
    'With general.enableAutoUpdate=false and enableAutoUpdateNotification=false the TUI starts no npm and shows no update nag',
  expected: 'no npm process among the CLI\'s descendants within 5 s of start; no "update" text on screen',
  async run(ctx) {
    await ctx.startFake([{ text: 'unused' }]);
    const tui = await ctx.interactive(postureArgs(probeSessionId('update')));
    if (!(await tui.waitForScreen(PROMPT_BOX, 20_000)))
      return { observed: 'TUI never became ready', pass: false };
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const pids = await tui.driver.panePids();
      if (pids.length > 0) {
        const ps = await exec('ps', ['-o', 'args=', '-p', pids.join(',')], { allowAllExitCodes: true });
        for (const line of ps.stdout.split('\n'))
          if (/\bnpm\b/.test(line)) seen.add(line.trim().slice(0, 80));
      }
      await sleep(500);
    }
    const screen = await tui.screen();
    const nag = /update (available|successful)|new version|Updating/i.exec(screen)?.[0];
    return {
      observed: `${seen.size === 0 ? 'no npm child' : `npm child: ${[...seen].join(' ; ')}`}; ${nag ? `screen says "${nag}"` : 'no update text'}`,
      pass: seen.size === 0 && !nag,
    };
  },
};

export const transient429InteractiveProbe: Probe = {
  name: 'transient-429-interactive',
  behaviour:
    'A per-minute 429 in the TUI is retried silently: the turn ends normally, no dialog, nothing in the transcript',
  expected:
    'answer on screen, no quota dialog; telemetry api_error{429} → api_response → conversation_finished in one turn; transcript user + gemini only',
  async run(ctx) {
    await ctx.startFake([
      { error: { status: 429, kind: 'rate-limit', retryDelaySeconds: 1 } },
      { text: 'RETRIED-ANSWER' },
    ]);
    const tui = await ctx.interactive([...postureArgs(probeSessionId('retrytui')), 'hello']);
    // Sample the screen while the CLI backs off, to record what (if anything) it shows.
    const shown = new Set<string>();
    let screen: string | undefined;
    while (ctx.remainingMs() > 1000) {
      const s = await tui.screen();
      for (const line of s.split('\n')) {
        if (/retry|attempt|quota|rate limit|Usage limit|high demand|429/i.test(line)) {
          shown.add(
            line
              .replace(/[│╭╮╰╯─]/g, '')
              .trim()
              .slice(0, 80),
          );
        }
      }
      if (s.includes('RETRIED-ANSWER')) {
        screen = s;
        break;
      }
      await sleep(200);
    }
    const events = await ctx.waitForTelemetry(
      (ev) => turns(ev)[0]?.includes('conversation_finished') === true,
      5000,
    );
    const turn = turns(events)[0] ?? [];
    const files = await ctx.sessionFiles();
    const records = files[0] ? await readJsonLines(join(ctx.projectsTmp(), files[0])) : [];
    const kinds = records.map(recordKind).filter((k) => k !== '$set' && k !== 'header');
    const status = events.find((e) => e.name === 'gemini_cli.api_error')?.attributes.status_code;
    const dialog = [...shown].some((l) => /Usage limit|Keep trying/.test(l));
    return {
      observed: `answer ${screen ? 'on screen' : 'NOT on screen'}; screen while retrying: ${shown.size ? [...shown].map((l) => `"${l}"`).join(', ') : 'nothing about it'}; telemetry ${compact(turn)} (api_error.status_code=${String(status)}); transcript ${compact(kinds)}`,
      pass:
        screen !== undefined &&
        !dialog &&
        turn.join(',') ===
          'user_prompt,api_request,api_error,api_request,api_response,conversation_finished' &&
        String(status) === '429' &&
        kinds.join(',') === 'user,gemini',
    };
  },
};
