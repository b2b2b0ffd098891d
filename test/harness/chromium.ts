/**
 * A real headless Chromium (Debian's `chromium`) driven over the DevTools protocol on a pipe
 * (`--remote-debugging-pipe`: file descriptors 3 and 4, NUL-separated JSON), so no WebSocket client or browser
 * download is needed. It opens one page, records every console error, uncaught exception and error log entry, and
 * answers evaluations and clipped screenshots. Stopped by its own pid: Browser.close, then its process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { killProcessGroup } from '../../src/util/process.js';

/**
 * The browser: GEMINI_RUN_CHROMIUM, else Debian's chromium (.ci/run installs it), else the Google Chrome GitHub's
 * Ubuntu runners come with.
 */
function browser(): string {
  const found = [process.env.GEMINI_RUN_CHROMIUM, '/usr/bin/chromium', '/usr/bin/google-chrome'].find(
    (p) => p && existsSync(p),
  );
  if (!found)
    throw new Error(
      "no Chromium: install Debian's chromium (apt-get install chromium) or set GEMINI_RUN_CHROMIUM",
    );
  return found;
}

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

export interface Page extends AsyncDisposable {
  /** Console errors, uncaught exceptions and error-level log entries, as text. */
  errors: string[];
  /** Loads `url` and resolves once its load event fired. */
  open(url: string): Promise<void>;
  /** The value of a JavaScript expression (returned by value: JSON-able). */
  evaluate<T>(expression: string): Promise<T>;
  /** A PNG of the page's region (CSS pixels, page coordinates). */
  screenshot(clip: { x: number; y: number; width: number; height: number }): Promise<Buffer>;
}

export async function openChromium(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const profile = await mkdtemp(join(tmpdir(), 'gemini-run-chromium-'));
  const child: ChildProcess = spawn(
    browser(),
    [
      '--headless=new',
      '--no-sandbox', // root in CI; the page is our own file
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-extensions',
      '--disable-background-networking',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true },
  );
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners: ((m: Message) => void)[] = [];
  let buffered = '';
  output.on('data', (b: Buffer) => {
    buffered += b.toString('utf8');
    let end: number;
    while ((end = buffered.indexOf('\0')) >= 0) {
      const m = JSON.parse(buffered.slice(0, end)) as Message;
      buffered = buffered.slice(end + 1);
      if (m.id !== undefined) pending.get(m.id)?.resolve(m);
      else for (const l of listeners) l(m);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const p of pending.values())
      p.reject(new Error(`chromium exited: ${stderr.trim().split('\n').pop() ?? ''}`));
  });
  let nextId = 1;
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, {
        resolve: (m) => {
          pending.delete(id);
          if (m.error) reject(new Error(`${method}: ${m.error.message}`));
          else resolve(m.result ?? {});
        },
        reject,
      });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const stop = async () => {
    await Promise.race([send('Browser.close').catch(() => undefined), exited]);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    killProcessGroup(child.pid);
    await rm(profile, { recursive: true, force: true });
  };
  try {
    const { targetInfos } = (await send('Target.getTargets')) as {
      targetInfos: { targetId: string; type: string }[];
    };
    const target = targetInfos.find((t) => t.type === 'page');
    if (!target) throw new Error('chromium opened no page');
    const { sessionId } = (await send('Target.attachToTarget', {
      targetId: target.targetId,
      flatten: true,
    })) as {
      sessionId: string;
    };
    const errors: string[] = [];
    let loaded: (() => void) | undefined;
    listeners.push((m) => {
      if (m.sessionId !== sessionId) return;
      const p = m.params ?? {};
      if (m.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert'))
        errors.push(`console.${String(p.type)}: ${JSON.stringify(p.args)}`);
      if (m.method === 'Runtime.exceptionThrown')
        errors.push(`exception: ${JSON.stringify(p.exceptionDetails)}`);
      if (m.method === 'Log.entryAdded' && (p.entry as { level?: string }).level === 'error')
        errors.push(`log: ${JSON.stringify(p.entry)}`);
      if (m.method === 'Page.loadEventFired') loaded?.();
    });
    const call = (method: string, params: Record<string, unknown> = {}) => send(method, params, sessionId);
    await call('Page.enable');
    await call('Runtime.enable');
    await call('Log.enable');
    await call('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
    return {
      errors,
      async open(url) {
        const done = new Promise<void>((resolve) => (loaded = resolve));
        const nav = (await call('Page.navigate', { url })) as { errorText?: string };
        if (nav.errorText) throw new Error(`chromium could not open ${url}: ${nav.errorText}`);
        await done;
      },
      async evaluate<T>(expression: string) {
        const r = (await call('Runtime.evaluate', {
          expression,
          returnByValue: true,
          awaitPromise: true,
        })) as {
          result: { value?: unknown };
          exceptionDetails?: unknown;
        };
        if (r.exceptionDetails) throw new Error(`evaluate: ${JSON.stringify(r.exceptionDetails)}`);
        return r.result.value as T;
      },
      async screenshot(clip) {
        const r = (await call('Page.captureScreenshot', {
          format: 'png',
          clip: { ...clip, scale: 1 },
          captureBeyondViewport: true,
        })) as { data: string };
        return Buffer.from(r.data, 'base64');
      },
      [Symbol.asyncDispose]: stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
