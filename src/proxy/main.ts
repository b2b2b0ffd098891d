/**
 * dist/proxy.js: the model proxy as its own process, so the action can keep the credential out of the
 * process tree it hands to the agent and stop it with a signal. Protocol (see launch.ts): one JSON config line
 * on stdin, one `{"url":...}` line on stdout, optional `{"token":...}` and `{"fence":true}` lines later; stdin EOF
 * or SIGTERM ends it. Each refused call is one `{"refused":{method,path,model?}}` line on stdout, each note on the
 * upstream's health one `{"health":{kind,message}}` line, the served tokens `{"usage":{tokens,answers,refusedAtLimit}}`
 * lines. Log lines go to stderr.
 */
import { createInterface } from 'node:readline';
import { getErrorMessage, oneLine } from '../util/errors.js';
import { controlLineSchema, parseLine, proxyConfigSchema } from './config.js';
import { startModelProxy, type RunningProxy } from './model-proxy.js';

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let proxy: RunningProxy | undefined;
let token = '';
let stopping = false;

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await proxy?.close();
  process.exit(0);
}

async function configure(line: string): Promise<void> {
  let config;
  try {
    config = parseLine(proxyConfigSchema, line, 'model proxy config');
  } catch (e) {
    process.stderr.write(`${oneLine(getErrorMessage(e))}\n`);
    process.exit(2);
  }
  const credential =
    config.credential.kind === 'api-key'
      ? config.credential
      : { kind: 'bearer' as const, token: () => Promise.resolve(token) };
  if (config.credential.kind === 'bearer') token = config.credential.token;
  try {
    proxy = await startModelProxy({
      upstream: config.upstream,
      placeholder: config.placeholder,
      credential,
      api: config.api,
      onRefused: (call) => process.stdout.write(`${JSON.stringify({ refused: call })}\n`),
      onHealth: (note) => process.stdout.write(`${JSON.stringify({ health: note })}\n`),
      onUsage: (usage) => process.stdout.write(`${JSON.stringify({ usage })}\n`),
      ...(config.models ? { models: config.models } : {}),
      ...(config.tokenLimit ? { tokenLimit: config.tokenLimit } : {}),
      ...(config.metadata ? { metadata: config.metadata } : {}),
      ...(config.silenceMs ? { silenceMs: config.silenceMs } : {}),
      log: (l) => process.stderr.write(`${l}\n`),
    });
  } catch (e) {
    process.stderr.write(`${oneLine(getErrorMessage(e))}\n`);
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
}

let configured: Promise<void> | undefined;
lines.on('line', (line) => {
  if (!configured) {
    configured = configure(line);
    return;
  }
  try {
    const control = parseLine(controlLineSchema, line, 'control line');
    if ('fence' in control) void configured.then(() => proxy?.fence());
    else token = control.token;
  } catch (e) {
    process.stderr.write(`${oneLine(getErrorMessage(e))}; ignored\n`);
  }
});
// The parent closing stdin (or dying) is the normal way to end; nothing may outlive the run.
lines.on('close', () => {
  if (!configured) {
    process.stderr.write('model proxy config: stdin ended before the config line\n');
    process.exit(2);
  }
  void configured.then(stop);
});
process.on('SIGTERM', () => void stop());
